// SPDX-License-Identifier: MIT
#include "trap.h"
#include <board.h>
#include <executor/exec.h>
#include <mailbox/dispatch.h>
