/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: see ../../shim.h */
#ifndef __LINUX_PREEMPT_H
#define __LINUX_PREEMPT_H
#include "../../shim.h"
#endif
