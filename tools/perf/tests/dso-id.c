// SPDX-License-Identifier: GPL-2.0
/*
 * Which DSO an mmap record finds, when one path was mapped as two builds
 * and records tell them apart by build id, by inode, by both or by
 * neither.  A record's build id decides when its DSO knows one; the inode
 * decides otherwise, except that a DSO whose inode came without an id
 * takes no record with one; a record that can tell nothing takes the first
 * DSO of its path.  The answers must not depend on the order the DSOs came in,
 * and a lookup must never merge two builds.
 */
#include <string.h>
#include <linux/kernel.h>

#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "tests.h"

#define PATH	"/usr/lib/libmmap3-test.so"

static const u8 id_a[] = { 0xaa, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			   0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
			   0x10, 0x11, 0x12, 0x13 };
static const u8 id_b[] = { 0xbb, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			   0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };

/* a record's identity: an inode (0: none) and a build id (NULL: none) */
static struct dso_id make_id(u64 ino, const u8 *bid, size_t size)
{
	struct dso_id id = { .maj = 0, };

	if (ino) {
		id.maj = 8;
		id.min = 1;
		id.ino = ino;
		id.ino_generation = 7;
	}
	if (bid)
		build_id__init(&id.build_id, bid, size);
	return id;
}

/* the DSO that a record with @id finds or makes; the machine keeps a ref */
static struct dso *lookup(struct machine *machine, struct dso_id id)
{
	struct dso *dso = machine__findnew_dso_id(machine, PATH, &id);

	dso__put(dso);
	return dso;
}

static bool dso__has_id(struct dso *dso, const u8 *bid, size_t size)
{
	struct build_id want;

	build_id__init(&want, bid, size);
	return dso->has_build_id && dso__build_id_equal(dso, &want);
}

static int count_dsos(struct machine *machine)
{
	struct dso *dso;
	int n = 0;

	list_for_each_entry(dso, &machine->dsos.head, node)
		n += !strcmp(dso->long_name, PATH);
	return n;
}

/*
 * The id-less map (inode 10) comes @first, or after the two builds: build
 * A on inode 11, build B on inode 12.
 */
static int check_builds(bool idless_first)
{
	struct dso_id ino10 = make_id(10, NULL, 0);
	struct dso_id a = make_id(11, id_a, sizeof(id_a));
	struct dso_id b = make_id(12, id_b, sizeof(id_b));
	struct dso *da, *db, *d10 = NULL;
	struct machine machine;
	int err = TEST_FAIL;

	if (machine__init(&machine, "", HOST_KERNEL_ID))
		return TEST_FAIL;

	if (idless_first)
		d10 = lookup(&machine, ino10);
	da = lookup(&machine, a);
	db = lookup(&machine, b);
	if (!idless_first)
		d10 = lookup(&machine, ino10);

	pr_debug("DSOs: id-less %p, A %p, B %p\n", d10, da, db);
	if (!da || !db || !d10) {
		pr_debug("a lookup failed\n");
		goto out;
	}
	if (da == db || da == d10 || db == d10 || count_dsos(&machine) != 3) {
		pr_debug("two builds and an id-less inode must be three DSOs\n");
		goto out;
	}
	if (!dso__has_id(da, id_a, sizeof(id_a)) ||
	    !dso__has_id(db, id_b, sizeof(id_b)) || d10->has_build_id) {
		pr_debug("a DSO has the wrong build id\n");
		goto out;
	}
	/* every record again, in every form, finds its own DSO */
	if (lookup(&machine, a) != da || lookup(&machine, b) != db ||
	    lookup(&machine, ino10) != d10) {
		pr_debug("the same record found another DSO\n");
		goto out;
	}
	/* upstream's MMAP2 with a build id, or the build-id table: no inode */
	if (lookup(&machine, make_id(0, id_a, sizeof(id_a))) != da ||
	    lookup(&machine, make_id(0, id_b, sizeof(id_b))) != db) {
		pr_debug("a build id alone found another DSO\n");
		goto out;
	}
	/* a plain MMAP2 record on a build's inode */
	if (lookup(&machine, make_id(11, NULL, 0)) != da ||
	    lookup(&machine, make_id(12, NULL, 0)) != db) {
		pr_debug("an inode alone found another DSO\n");
		goto out;
	}
	/* other contents on A's inode (rewritten in place) are not A */
	if (lookup(&machine, make_id(11, id_b, sizeof(id_b))) == da) {
		pr_debug("build B on A's inode found A\n");
		goto out;
	}
	/* a new inode is a new DSO; a record with neither takes the first */
	if (lookup(&machine, make_id(13, NULL, 0)) == d10 ||
	    lookup(&machine, make_id(0, NULL, 0)) != (idless_first ? d10 : da)) {
		pr_debug("an unknown inode or an empty id found the wrong DSO\n");
		goto out;
	}
	if (count_dsos(&machine) != 4) {
		pr_debug("%d DSOs for %s, expected 4\n", count_dsos(&machine), PATH);
		goto out;
	}
	err = TEST_OK;
out:
	machine__exit(&machine);
	return err;
}

/* An id-less DSO learns its inode and build id from the first record. */
static int check_learning(void)
{
	struct dso_id a = make_id(11, id_a, sizeof(id_a));
	struct machine machine;
	struct dso *dso;
	int err = TEST_FAIL;

	if (machine__init(&machine, "", HOST_KERNEL_ID))
		return TEST_FAIL;
	dso = lookup(&machine, make_id(0, NULL, 0));
	if (!dso || lookup(&machine, a) != dso ||
	    !dso__has_id(dso, id_a, sizeof(id_a)) || dso->id.ino != 11) {
		pr_debug("an id-less DSO did not take the first record's ids\n");
		goto out;
	}
	/* the id it now has rules out another build */
	if (lookup(&machine, make_id(0, id_b, sizeof(id_b))) == dso) {
		pr_debug("build B found the DSO that learnt build A\n");
		goto out;
	}
	err = TEST_OK;
out:
	machine__exit(&machine);
	return err;
}

/*
 * A DSO made from a record without an id, on inode 20, does not take the
 * id of a later record on inode 20: the file may have been rewritten in
 * place in between, and the DSO's samples are of the contents mapped.
 */
static int check_idless_inode(void)
{
	struct dso_id ino20 = make_id(20, NULL, 0);
	struct machine machine;
	struct dso *d20, *db;
	int err = TEST_FAIL;

	if (machine__init(&machine, "", HOST_KERNEL_ID))
		return TEST_FAIL;
	d20 = lookup(&machine, ino20);
	db = lookup(&machine, make_id(20, id_b, sizeof(id_b)));
	if (!d20 || !db || d20 == db || d20->has_build_id ||
	    !dso__has_id(db, id_b, sizeof(id_b))) {
		pr_debug("an id-less DSO took the id of a later record on its inode\n");
		goto out;
	}
	if (lookup(&machine, ino20) != d20) {
		pr_debug("the id-less record found another DSO\n");
		goto out;
	}
	err = TEST_OK;
out:
	machine__exit(&machine);
	return err;
}

int test__dso_id(struct test *test __maybe_unused, int subtest __maybe_unused)
{
	TEST_ASSERT_VAL("builds after an id-less map", check_builds(true) == TEST_OK);
	TEST_ASSERT_VAL("an id-less map after the builds", check_builds(false) == TEST_OK);
	TEST_ASSERT_VAL("an id-less DSO learns ids", check_learning() == TEST_OK);
	TEST_ASSERT_VAL("an id-less inode takes no later id", check_idless_inode() == TEST_OK);
	return TEST_OK;
}
