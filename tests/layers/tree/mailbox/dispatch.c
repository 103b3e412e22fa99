// SPDX-License-Identifier: MIT
#include "dispatch.h"
#include <executor/exec.h>
