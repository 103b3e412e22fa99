/* SPDX-License-Identifier: MIT */
/* Planted tree of tests/layers/test.sh: a public header. */
#define HP_API 1
