/* SPDX-License-Identifier: MIT */
#include <hal/ipi.h>
#include <hartpool/api.h>
