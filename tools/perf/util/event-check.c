// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel records read from a file are checked before anything looks
 * inside them: the byte swap, the printers and the handlers trust the
 * fixed part to be there, the strings to end inside the record and the
 * lengths a record gives to fit it.  A damaged file then stops with an
 * error naming the record's offset, instead of being read past the
 * record.  This is the one check of a record: MMAP3's rules live beside
 * the record, in perf_event__check_mmap3().  The build ids perf itself
 * writes, in the header's table or as records in the pipe format, come
 * from another host as much: perf_event__check_build_id() checks them.
 */
#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/kernel.h>
#include <perf/event.h>

#include "build-id.h"
#include "debug.h"
#include "event-check.h"
#include "mmap3.h"

/*
 * The fixed part of each record type; a string may follow it, a file name
 * (@path) shorter than PATH_MAX, as the kernel writes it and as perf
 * copies it.
 */
struct record_layout {
	size_t	fixed;
	bool	string;
	bool	path;
};

#define LAYOUT(rec, str) { offsetof(struct rec, str), true, false }
#define PATH(rec, str)	 { offsetof(struct rec, str), true, true }
#define FIXED(rec)	 { sizeof(struct rec), false, false }

static const struct record_layout layouts[PERF_RECORD_MAX] = {
	[PERF_RECORD_MMAP]		= PATH(perf_record_mmap, filename),
	[PERF_RECORD_MMAP2]		= PATH(perf_record_mmap2, filename),
	[PERF_RECORD_COMM]		= LAYOUT(perf_record_comm, comm),
	[PERF_RECORD_KSYMBOL]		= LAYOUT(perf_record_ksymbol, name),
	[PERF_RECORD_CGROUP]		= LAYOUT(perf_record_cgroup, path),
	[PERF_RECORD_EXIT]		= FIXED(perf_record_fork),
	[PERF_RECORD_FORK]		= FIXED(perf_record_fork),
	[PERF_RECORD_LOST]		= FIXED(perf_record_lost),
	[PERF_RECORD_READ]		= FIXED(perf_record_read),
	[PERF_RECORD_THROTTLE]		= FIXED(perf_record_throttle),
	[PERF_RECORD_UNTHROTTLE]	= FIXED(perf_record_throttle),
	[PERF_RECORD_SWITCH_CPU_WIDE]	= FIXED(perf_record_switch),
	[PERF_RECORD_AUX]		= FIXED(perf_record_aux),
	[PERF_RECORD_ITRACE_START]	= FIXED(perf_record_itrace_start),
	[PERF_RECORD_LOST_SAMPLES]	= FIXED(perf_record_lost_samples),
	[PERF_RECORD_BPF_EVENT]		= FIXED(perf_record_bpf_event),
	[PERF_RECORD_NAMESPACES]	= {
		offsetof(struct perf_record_namespaces, link_info), false },
	[PERF_RECORD_TEXT_POKE]		= {
		offsetof(struct perf_record_text_poke_event, bytes), false },
};

static u64 swap_u64(u64 v, bool needs_swap)
{
	return needs_swap ? bswap_64(v) : v;
}

static u16 swap_u16(u16 v, bool needs_swap)
{
	return needs_swap ? bswap_16(v) : v;
}

/*
 * The header is already in host order; the rest may not be yet, hence
 * @needs_swap for the lengths.  Returns 0 or -EINVAL.
 */
int __perf_event__check(union perf_event *event, u64 file_offset,
			u16 id_hdr_size, bool needs_swap)
{
	u32 type = event->header.type;
	size_t size = event->header.size;
	const struct record_layout *l;
	const char *str, *end;
	size_t need;

	/* the kernel writes whole u64s: the byte swap counts on them */
	if (type < PERF_RECORD_USER_TYPE_START && size % sizeof(u64)) {
		pr_err("%#llx: record of type %u and %zu bytes, not a multiple of 8\n",
		       (unsigned long long)file_offset, type, size);
		return -EINVAL;
	}
	if (type == PERF_RECORD_SAMPLE)
		return 0;
	if (type == PERF_RECORD_MMAP3)
		return perf_event__check_mmap3(event, file_offset, id_hdr_size);
	if (type >= PERF_RECORD_MAX)
		return 0;
	l = &layouts[type];
	need = l->fixed;

	switch (type) {
	case PERF_RECORD_NAMESPACES:
		if (size >= need) {
			u64 nr = swap_u64(event->namespaces.nr_namespaces, needs_swap);

			/* a count that cannot fit, however large, says so */
			if (nr > (size - need) / sizeof(struct perf_ns_link_info))
				need = SIZE_MAX;
			else
				need += nr * sizeof(struct perf_ns_link_info);
		}
		break;
	case PERF_RECORD_TEXT_POKE:
		if (size >= need)
			need += swap_u16(event->text_poke.old_len, needs_swap) +
				swap_u16(event->text_poke.new_len, needs_swap);
		break;
	default:
		break;
	}
	if (size < need) {
		pr_err("%#llx: record of type %u and %zu bytes, too short for what it holds\n",
		       (unsigned long long)file_offset, type, size);
		return -EINVAL;
	}
	if (!l->string)
		return 0;
	/* the sample id fields, if any, follow the string */
	str = (void *)event + l->fixed;
	end = size < l->fixed + id_hdr_size ? NULL :
	      memchr(str, '\0', size - l->fixed - id_hdr_size);
	if (!end) {
		pr_err("%#llx: record of type %u with an unterminated string\n",
		       (unsigned long long)file_offset, type);
		return -EINVAL;
	}
	if (l->path && end - str >= PATH_MAX) {
		pr_err("%#llx: record of type %u with a file name of %zu bytes, PATH_MAX or more\n",
		       (unsigned long long)file_offset, type, (size_t)(end - str));
		return -EINVAL;
	}
	return 0;
}

/*
 * An entry of the build id table (HEADER_BUILD_ID), or a
 * PERF_RECORD_HEADER_BUILD_ID record of the pipe format, its header in
 * host order: its size must hold the fixed part and a name, NUL-terminated
 * and shorter than PATH_MAX, and the id size, if given, must fit the id
 * array.  The check of both; their readers skip an entry it refuses.
 * Returns 0 or -EINVAL.
 */
int perf_event__check_build_id(struct perf_record_header_build_id *bev,
			       u64 file_offset)
{
	size_t fixed = offsetof(struct perf_record_header_build_id, filename);
	size_t size = bev->header.size;
	const char *end;

	if (size <= fixed) {
		pr_err("%#llx: build id entry of %zu bytes, too short for an id and a name: skipped\n",
		       (unsigned long long)file_offset, size);
		return -EINVAL;
	}
	if ((bev->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) &&
	    bev->size > BUILD_ID_SIZE) {
		pr_err("%#llx: build id entry with an id of %u bytes, above %d: skipped\n",
		       (unsigned long long)file_offset, bev->size, BUILD_ID_SIZE);
		return -EINVAL;
	}
	end = memchr(bev->filename, '\0', size - fixed);
	if (!end) {
		pr_err("%#llx: build id entry without a NUL-terminated name: skipped\n",
		       (unsigned long long)file_offset);
		return -EINVAL;
	}
	if (end - bev->filename >= PATH_MAX) {
		pr_err("%#llx: build id entry with a name of %zu bytes, PATH_MAX or more: skipped\n",
		       (unsigned long long)file_offset, (size_t)(end - bev->filename));
		return -EINVAL;
	}
	return 0;
}
