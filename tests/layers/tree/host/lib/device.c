// SPDX-License-Identifier: MIT
#include <hartpool.h>
