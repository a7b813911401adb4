// SPDX-License-Identifier: GPL-2.0
/*
 * Which DSOs a recording hit, for the build-id table of perf.data: the ones
 * a sample's ip or any entry of its callchain lands in.  A module seen only
 * in callchains (a driver called from a syscall, say) keeps its id.
 *
 * With MMAP3 records the ids come from the records; "perf record -B" then
 * writes the table without reading any file at the end of the run.
 */
#include <linux/list.h>
#include <linux/perf_event.h>

#include "build-id-hits.h"
#include "dso.h"
#include "event.h"
#include "machine.h"
#include "map.h"
#include "session.h"
#include "symbol.h"
#include "thread.h"

void build_id__mark_callchain_hits(struct thread *thread,
				   struct perf_sample *sample)
{
	struct ip_callchain *chain = sample->callchain;
	u8 cpumode = PERF_RECORD_MISC_USER;
	struct addr_location al;
	u64 i;

	if (!chain)
		return;

	for (i = 0; i < chain->nr; i++) {
		u64 ip = chain->ips[i];

		/* context markers say where the following entries are */
		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				cpumode = PERF_RECORD_MISC_GUEST_USER;
				break;
			default:
				break;
			}
			continue;
		}
		if (thread__find_map(thread, cpumode, ip, &al) && al.map->dso)
			al.map->dso->hit = 1;
	}
}

static void machine__drop_hits_without_build_id(struct machine *machine)
{
	struct map *kernel = machine__kernel_map(machine);
	struct dso *dso;

	down_read(&machine->dsos.lock);
	list_for_each_entry(dso, &machine->dsos.head, node) {
		/* the running kernel's id is in memory, not in a file */
		if (dso->hit && !dso->has_build_id && kernel &&
		    dso == kernel->dso && machine__is_host(machine) &&
		    !dso__is_kcore(dso))
			dso__read_running_kernel_build_id(dso, machine);
		if (dso->hit && !dso->has_build_id)
			dso->hit = 0;
	}
	up_read(&machine->dsos.lock);
}

/*
 * A hit DSO without an id from its MMAP3 record has no id for this run:
 * whatever file is at its path now may not be what was mapped.
 */
void perf_session__drop_hits_without_build_id(struct perf_session *session)
{
	struct rb_node *nd;

	machine__drop_hits_without_build_id(&session->machines.host);
	for (nd = rb_first_cached(&session->machines.guests); nd; nd = rb_next(nd))
		machine__drop_hits_without_build_id(rb_entry(nd, struct machine, rb_node));
}
