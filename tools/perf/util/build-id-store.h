/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_BUILD_ID_STORE_H
#define __PERF_BUILD_ID_STORE_H

#include <stdbool.h>

struct debuginfod_client;
struct dso;
struct perf_data;
struct perf_session;

int perf_session__store_build_ids(struct perf_session *session,
				  bool with_hits, bool debuginfod);
int build_id_store__config(const char *var, const char *value);
void build_id_store__set_deadline(int seconds);
void build_id_store__set_record_debuginfod(const char *urls);
void build_id_store__debuginfod_setup(const char *urls);
int build_id_store__debuginfod_wait(struct debuginfod_client *c, long a, long b);
char *build_id_store__record_begin(void);
void build_id_store__record_end(char *urls);
bool perf_session__has_build_id_mmap(struct perf_session *session);
bool dso__wants_build_id(struct dso *dso);
const char *dso__unresolved_why(struct dso *dso);
int perf_data__store_build_ids(struct perf_data *data, bool with_hits,
			       bool debuginfod);

/*
 * The exit status of --store, from perf_data__store_build_ids(): 0 every
 * binary stored, 1 some not (a FAIL line each), 2 the input could not be
 * read (whole).
 */
static inline int store_exit_status(int ret)
{
	return ret < 0 ? 2 : ret > 0 ? 1 : 0;
}

#endif /* __PERF_BUILD_ID_STORE_H */
