// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel records read from a file are checked before anything looks
 * inside them: the byte swap, the printers and the handlers trust the
 * fixed part to be there, the strings to end inside the record and the
 * lengths a record gives to fit it.  A damaged file then stops with an
 * error naming the record's offset, instead of being read past the
 * record.  This is the one check of a record: MMAP3's rules live beside
 * the record, in perf_event__check_mmap3().  perf's own records (types
 * from PERF_RECORD_USER_TYPE_START) come from another host as much: their
 * counts, cpu maps and strings are checked here too, before their byte
 * swap, and the build ids, in the header's table or as records in the
 * pipe format, by perf_event__check_build_id().
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
#include "event.h"

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
		offsetof(struct perf_record_namespaces, link_info), false, false },
	[PERF_RECORD_TEXT_POKE]		= {
		offsetof(struct perf_record_text_poke_event, bytes), false, false },
};

static u64 swap_u64(u64 v, bool needs_swap)
{
	return needs_swap ? bswap_64(v) : v;
}

static u32 swap_u32(u32 v, bool needs_swap)
{
	return needs_swap ? bswap_32(v) : v;
}

static u16 swap_u16(u16 v, bool needs_swap)
{
	return needs_swap ? bswap_16(v) : v;
}

/*
 * perf's own records: the fixed part of each, and whether perf writes it
 * in whole u64s.  Most it does: the byte swap and the record after it in
 * the file count on that.  TRACING_DATA (12 bytes, its data after them),
 * HEADER_FEATURE (a feature section's bytes), COMPRESSED (zstd's output)
 * and, from older perfs, HEADER_BUILD_ID are not padded.
 */
struct user_layout {
	size_t	fixed;
	bool	unaligned;
};

#define USER(type)	(PERF_RECORD_##type - PERF_RECORD_USER_TYPE_START)
#define USER_FIXED(rec)	{ sizeof(struct rec), false }

static const struct user_layout user_layouts[PERF_RECORD_HEADER_MAX -
					     PERF_RECORD_USER_TYPE_START] = {
	/* the attr's size says where the ids start */
	[USER(HEADER_ATTR)] = {
		offsetof(struct perf_record_header_attr, attr) +
		PERF_ATTR_SIZE_VER0, false },
	/* older perfs cut the name short */
	[USER(HEADER_EVENT_TYPE)] = {
		offsetof(struct perf_record_header_event_type, event_type.name), false },
	[USER(HEADER_TRACING_DATA)] = {
		sizeof(struct perf_record_header_tracing_data), true },
	/* perf_event__check_build_id() checks the rest where it is read */
	[USER(HEADER_BUILD_ID)] = { sizeof(struct perf_event_header), true },
	[USER(FINISHED_ROUND)] = { sizeof(struct perf_event_header), false },
	[USER(ID_INDEX)] = USER_FIXED(perf_record_id_index),
	[USER(AUXTRACE_INFO)] = USER_FIXED(perf_record_auxtrace_info),
	[USER(AUXTRACE)] = USER_FIXED(perf_record_auxtrace),
	/* no time before fmt 1 */
	[USER(AUXTRACE_ERROR)] = {
		offsetof(struct perf_record_auxtrace_error, time), false },
	[USER(THREAD_MAP)] = USER_FIXED(perf_record_thread_map),
	[USER(CPU_MAP)] = {
		offsetof(struct perf_record_cpu_map, data.data), false },
	[USER(STAT_CONFIG)] = USER_FIXED(perf_record_stat_config),
	[USER(STAT)] = USER_FIXED(perf_record_stat),
	[USER(STAT_ROUND)] = USER_FIXED(perf_record_stat_round),
	[USER(EVENT_UPDATE)] = USER_FIXED(perf_record_event_update),
	/* older perfs' end before time_cycles */
	[USER(TIME_CONV)] = {
		offsetof(struct perf_record_time_conv, time_cycles), false },
	[USER(HEADER_FEATURE)] = {
		sizeof(struct perf_record_header_feature), true },
	[USER(COMPRESSED)] = {
		sizeof(struct perf_record_compressed), true },
};

#undef USER_FIXED
#undef USER

/* a newer perf's type, skipped: the record after it must be aligned */
static const struct user_layout newer_user_layout = {
	sizeof(struct perf_event_header), false
};

/* whether @nr entries of @entry_size bytes fit in @room bytes */
static bool entries_fit(u64 nr, size_t entry_size, size_t room)
{
	return nr <= room / entry_size;
}

/*
 * A cpu map (of a CPU_MAP or an EVENT_UPDATE record) in the @room bytes it
 * has: a list of u16 cpus, or a bitmap of nr words of long_size bytes, 4
 * or 8, starting at the first multiple of long_size after nr and
 * long_size.  Returns 0, -ENOSPC if it does not fit, -EINVAL for a map of
 * another type or word size.
 */
static int cpu_map_data__check(const struct perf_record_cpu_map_data *data,
			       size_t room, bool needs_swap)
{
	size_t fixed = offsetof(struct perf_record_cpu_map_data, data);
	const struct cpu_map_entries *cpus;
	const u16 *mask;
	u16 long_size;

	if (room < fixed)
		return -ENOSPC;

	switch (swap_u16(data->type, needs_swap)) {
	case PERF_CPU_MAP__CPUS:
		fixed += sizeof(*cpus);
		if (room < fixed)
			return -ENOSPC;
		cpus = (const void *)data->data;
		return entries_fit(swap_u16(cpus->nr, needs_swap),
				   sizeof(cpus->cpu[0]), room - fixed) ?
		       0 : -ENOSPC;
	case PERF_CPU_MAP__MASK:
		/* nr and long_size: the struct's alignment is not the record's */
		if (room < fixed + 2 * sizeof(u16))
			return -ENOSPC;
		mask = (const u16 *)data->data;
		long_size = swap_u16(mask[1], needs_swap);
		if (long_size != sizeof(u32) && long_size != sizeof(u64))
			return -EINVAL;
		fixed += long_size;
		if (room < fixed)
			return -ENOSPC;
		return entries_fit(swap_u16(mask[0], needs_swap), long_size,
				   room - fixed) ? 0 : -ENOSPC;
	default:
		/* a newer perf's form (5.19's ranges): not for this perf */
		return -EOPNOTSUPP;
	}
}

/* a string starting @offset bytes into the record, ending inside it */
static bool record__has_string(union perf_event *event, size_t offset)
{
	size_t size = event->header.size;

	return offset < size &&
	       memchr((void *)event + offset, '\0', size - offset);
}

/*
 * Checks the counts in the records of perf's own types against their
 * sizes, still in the file's byte order: the byte swap and the handlers
 * then only meet records that hold what they say.
 */
static int perf_event__check_user(union perf_event *event, u64 file_offset,
				  bool needs_swap)
{
	u32 type = event->header.type;
	size_t size = event->header.size;
	const struct user_layout *l;
	size_t need, room;
	int err = 0;
	u64 nr, i;
	u32 n;

	if (type >= PERF_RECORD_HEADER_MAX)
		l = &newer_user_layout;
	else
		l = &user_layouts[type - PERF_RECORD_USER_TYPE_START];
	if (!l->unaligned && size % sizeof(u64)) {
		pr_err("%#llx: record of type %u and %zu bytes, not a multiple of 8\n",
		       (unsigned long long)file_offset, type, size);
		return -EINVAL;
	}
	need = l->fixed;
	if (size < need)
		goto out_short;
	room = size - need;

	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		/* a whole number of u64s of attr, then the ids */
		n = swap_u32(event->attr.attr.size, needs_swap);
		if (n < PERF_ATTR_SIZE_VER0 || n % sizeof(u64)) {
			pr_err("%#llx: attr record with an attr of %u bytes\n",
			       (unsigned long long)file_offset, n);
			return -EINVAL;
		}
		if (n - PERF_ATTR_SIZE_VER0 > room)
			goto out_short;
		break;
	case PERF_RECORD_ID_INDEX:
		nr = swap_u64(event->id_index.nr, needs_swap);
		if (!entries_fit(nr, sizeof(struct id_index_entry), room))
			goto out_short;
		break;
	case PERF_RECORD_AUXTRACE:
		/* the data after it keeps the next record aligned */
		nr = swap_u64(event->auxtrace.size, needs_swap);
		if (nr % sizeof(u64)) {
			pr_err("%#llx: AUXTRACE record with %llu bytes of data, not a multiple of 8\n",
			       (unsigned long long)file_offset,
			       (unsigned long long)nr);
			return -EINVAL;
		}
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		/* fmt 1 and later have the time before the message */
		if (swap_u32(event->auxtrace_error.fmt, needs_swap))
			need = offsetof(struct perf_record_auxtrace_error, msg);
		if (!record__has_string(event, need))
			goto out_string;
		break;
	case PERF_RECORD_THREAD_MAP:
		nr = swap_u64(event->thread_map.nr, needs_swap);
		if (!entries_fit(nr, sizeof(event->thread_map.entries[0]), room))
			goto out_short;
		for (i = 0; i < nr; i++) {
			struct perf_record_thread_map_entry *e;

			e = &event->thread_map.entries[i];
			if (!memchr(e->comm, '\0', sizeof(e->comm)))
				goto out_string;
		}
		break;
	case PERF_RECORD_CPU_MAP:
		need = offsetof(struct perf_record_cpu_map, data);
		err = cpu_map_data__check(&event->cpu_map.data, size - need,
					  needs_swap);
		break;
	case PERF_RECORD_STAT_CONFIG:
		nr = swap_u64(event->stat_config.nr, needs_swap);
		if (!entries_fit(nr, sizeof(event->stat_config.data[0]), room))
			goto out_short;
		break;
	case PERF_RECORD_EVENT_UPDATE:
		switch (swap_u64(event->event_update.type, needs_swap)) {
		case PERF_EVENT_UPDATE__UNIT:
		case PERF_EVENT_UPDATE__NAME:
			if (!record__has_string(event, need))
				goto out_string;
			break;
		case PERF_EVENT_UPDATE__SCALE:
			if (room < sizeof(struct perf_record_event_update_scale))
				goto out_short;
			break;
		case PERF_EVENT_UPDATE__CPUS:
			err = cpu_map_data__check((void *)event->event_update.data,
						  room, needs_swap);
			break;
		default:
			/* a newer perf's, perf_event__process_event_update() skips it */
			break;
		}
		break;
	case PERF_RECORD_TIME_CONV:
		/* all of time_cycles, time_mask and the caps, or none */
		if (room && size < sizeof(struct perf_record_time_conv))
			goto out_short;
		break;
	default:
		break;
	}
	if (err == -ENOSPC)
		goto out_short;
	if (err == -EOPNOTSUPP) {
		pr_debug("%#llx: record of type %u with a cpu map of a newer form: skipped\n",
			 (unsigned long long)file_offset, type);
		return 1;
	}
	if (err) {
		pr_err("%#llx: record of type %u with a cpu map of an unknown type or word size\n",
		       (unsigned long long)file_offset, type);
		return err;
	}
	return 0;

out_short:
	pr_err("%#llx: record of type %u and %zu bytes, too short for what it holds\n",
	       (unsigned long long)file_offset, type, size);
	return -EINVAL;
out_string:
	pr_err("%#llx: record of type %u with an unterminated string\n",
	       (unsigned long long)file_offset, type);
	return -EINVAL;
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
	if (type >= PERF_RECORD_USER_TYPE_START)
		return perf_event__check_user(event, file_offset, needs_swap);
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
