// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel records read from a file are checked before anything looks
 * inside them: the byte swap, the printers and the handlers trust the
 * fixed part to be there, the strings to end inside the record and the
 * lengths a record gives to fit it.  A damaged file then stops with an
 * error naming the record's offset, instead of being read past the
 * record.  This is the one check of a record: MMAP3's rules live beside
 * the record, in perf_event__check_mmap3().
 */
#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/kernel.h>
#include <perf/event.h>

#include "debug.h"
#include "event-check.h"
#include "mmap3.h"

/* the fixed part of each record type; a string may follow it */
struct record_layout {
	size_t	fixed;
	bool	string;
};

#define LAYOUT(rec, str) { offsetof(struct rec, str), true }
#define FIXED(rec)	 { sizeof(struct rec), false }

static const struct record_layout layouts[PERF_RECORD_MAX] = {
	[PERF_RECORD_MMAP]		= LAYOUT(perf_record_mmap, filename),
	[PERF_RECORD_MMAP2]		= LAYOUT(perf_record_mmap2, filename),
	[PERF_RECORD_COMM]		= LAYOUT(perf_record_comm, comm),
	[PERF_RECORD_KSYMBOL]		= LAYOUT(perf_record_ksymbol, name),
	[PERF_RECORD_CGROUP]		= LAYOUT(perf_record_cgroup, path),
	[PERF_RECORD_EXIT]		= FIXED(perf_record_fork),
	[PERF_RECORD_FORK]		= FIXED(perf_record_fork),
	[PERF_RECORD_LOST]		= FIXED(perf_record_lost),
	[PERF_RECORD_THROTTLE]		= FIXED(perf_record_throttle),
	[PERF_RECORD_UNTHROTTLE]	= FIXED(perf_record_throttle),
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
	size_t need;

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
	/* the sample id fields, if any, follow the string */
	if (l->string && (size < l->fixed + id_hdr_size ||
			  !memchr((void *)event + l->fixed, '\0',
				  size - l->fixed - id_hdr_size))) {
		pr_err("%#llx: record of type %u with an unterminated string\n",
		       (unsigned long long)file_offset, type);
		return -EINVAL;
	}
	return 0;
}
