/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef _LINUX_STRING_H_
#define _LINUX_STRING_H_
#include "../../shim.h"
#endif
