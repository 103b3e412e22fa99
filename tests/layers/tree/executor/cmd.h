/* SPDX-License-Identifier: MIT */
#include "exec.h"
