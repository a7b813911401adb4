/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H
#include "../../shim.h"
#endif
