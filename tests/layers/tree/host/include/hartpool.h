/* SPDX-License-Identifier: MIT */
#include <hartpool/api.h>
