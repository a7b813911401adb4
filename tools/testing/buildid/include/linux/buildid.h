/* SPDX-License-Identifier: GPL-2.0 */
/* The real header: it is what the harness tests. */
#include "../../../../../include/linux/buildid.h"
