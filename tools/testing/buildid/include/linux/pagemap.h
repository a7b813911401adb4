/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef _LINUX_PAGEMAP_H
#define _LINUX_PAGEMAP_H
#include "../../shim.h"
#endif
