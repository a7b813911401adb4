/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: the C library has the same ELF types. */
#ifndef _LINUX_ELF_H
#define _LINUX_ELF_H
#include <elf.h>
#endif
