// SPDX-License-Identifier: MIT
#include <hartpool.h>
#include <ref/ndref.h>
