/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H
#include "../../shim.h"
#endif
