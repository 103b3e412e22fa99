// SPDX-License-Identifier: MIT
#include "cmd.h"
#include "pool.h"
#include <stdint.h>
