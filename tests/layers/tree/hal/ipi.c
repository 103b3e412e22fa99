// SPDX-License-Identifier: MIT
#include <hal/ipi.h>
