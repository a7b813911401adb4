/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_BUILD_ID_HITS_H
#define __PERF_BUILD_ID_HITS_H

struct machine;
struct perf_sample;
struct perf_session;
struct thread;

void build_id__mark_callchain_hits(struct thread *thread,
				   struct perf_sample *sample);
void perf_session__drop_hits_without_build_id(struct perf_session *session);

#endif /* __PERF_BUILD_ID_HITS_H */
