/* SPDX-License-Identifier: MIT */
#include <hartpool/api.h>
void hal_ipi_send(unsigned hart);
