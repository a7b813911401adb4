/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef _LINUX_HUGETLB_H
#define _LINUX_HUGETLB_H
#include "../../shim.h"
#endif
