#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crafted perf.data files for scripts/faults/hostile-data.

    craft_data.py FILE.data PIPE.data OUTDIR
    craft_data.py --add-module FILE.data NAME ID

The second form adds to the build id table of FILE.data (in place) an
entry of the kernel's, a module at NAME with the build id ID (hex), as
perf record writes for a module a sample hit (scripts/faults/stuck-file
and store-race).

FILE.data and PIPE.data are real recordings of this machine (perf record
--buildid-all, file and pipe format, little-endian).  Each case is one
file in OUTDIR, one damage per file, and a line of OUTDIR/manifest:

    name  format  offsets  readers  sentinel

format: file or pipe (fed on stdin); offsets: the offsets perf must name
in its error, comma-separated, as perf prints them (the file offset, in
the pipe format counted from the end of the 16-byte pipe header, as perf
report -D does); readers: "all" when every command reads the damaged part,
"records" when only those reading the records do (buildid-list reads only
the header of a file without MMAP3 records); sentinel: a
"<id> <name>" line perf buildid-list must still print (the entries after
the bad one are read), or "-".
"""
import struct
import sys

PERF_RECORD_MISC_KERNEL = 1
PERF_RECORD_MISC_USER = 2
PERF_RECORD_MISC_BUILD_ID_SIZE = 1 << 15
PERF_RECORD_MISC_MMAP_BUILD_ID = 1 << 14
PERF_RECORD_MMAP = 1
PERF_RECORD_COMM = 3
PERF_RECORD_FORK = 7
PERF_RECORD_READ = 8
PERF_RECORD_MMAP2 = 10
PERF_RECORD_SWITCH = 14
PERF_RECORD_SWITCH_CPU_WIDE = 15
PERF_RECORD_HEADER_ATTR = 64
PERF_RECORD_HEADER_BUILD_ID = 67
HEADER_BUILD_ID = 2		# feature bit
BEV_FIXED = 36			# struct perf_record_header_build_id up to filename
OLD_BEV_FIXED = 32		# the same before it had a pid (a1645ce1)
MMAP2_FIXED = 72		# struct perf_record_mmap2 up to filename
PIPE_HDR = 16

SENTINEL_ID = bytes([0x22] * 20)
SENTINEL_NAME = b"/crafted/after"
SENTINEL = "%s %s" % (SENTINEL_ID.hex(), SENTINEL_NAME.decode())


def align(n, a):
    return (n + a - 1) // a * a


def bev(name, bid, size_byte=None, misc=PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
        total=None, name_area=None, align_to=1):
    """A build id table entry (or PERF_RECORD_HEADER_BUILD_ID record) as
    perf writes it: the name NUL-terminated and padded to 64 bytes."""
    if name_area is None:
        name_area = name + b"\0" * (align(len(name) + 1, 64) - len(name))
    if size_byte is None:
        size_byte = len(bid)
    if total is None:
        total = align(BEV_FIXED + len(name_area), align_to)
    body = struct.pack("<i", -1) + bid.ljust(20, b"\0") + bytes([size_byte, 0, 0, 0]) + name_area
    assert len(body) <= total - 8
    return struct.pack("<IHH", 0, misc, total) + body.ljust(total - 8, b"\0")


def old_bev(name, bid, misc, total=None, name_area=None):
    """An entry of the layout before the pid field."""
    if name_area is None:
        name_area = name + b"\0" * (align(len(name) + 1, 64) - len(name))
    if total is None:
        total = OLD_BEV_FIXED + len(name_area)
    return struct.pack("<IHH", 0, misc, total) + bid.ljust(24, b"\0") + name_area


class FileData:
    def __init__(self, path):
        self.raw = bytearray(open(path, "rb").read())
        if self.raw[:8] != b"PERFILE2":
            sys.exit("%s: not a little-endian perf.data file" % path)
        self.data_off, self.data_size = struct.unpack_from("<QQ", self.raw, 40)
        feats = int.from_bytes(self.raw[72:104], "little")
        if not feats >> HEADER_BUILD_ID & 1:
            sys.exit("%s: no build id table" % path)
        # the build id table is the first feature section (bit 2; bit 1 is
        # tracing data)
        idx = 1 if feats >> 1 & 1 else 0
        self.sec = self.data_off + self.data_size + 16 * idx

    def with_table(self, table, pad=0):
        """A copy whose build id table is @table, appended at the end of
        the file (8-byte aligned, then @pad bytes); returns the bytes and
        the offset of the table."""
        b = bytearray(self.raw)
        b += b"\0" * (align(len(b), 8) - len(b))
        off = len(b)
        b += table + b"\0" * pad
        struct.pack_into("<QQ", b, self.sec, off, len(table))
        return bytes(b), off


def pipe_records(raw):
    """(offset, type, misc, size) of every record of a pipe file."""
    if raw[:8] != b"PERFILE2" or struct.unpack_from("<Q", raw, 8)[0] != PIPE_HDR:
        sys.exit("not a little-endian pipe perf.data")
    recs, off = [], PIPE_HDR
    while off + 8 <= len(raw):
        typ, misc, size = struct.unpack_from("<IHH", raw, off)
        if size < 8:
            sys.exit("pipe file: a record of %d bytes at %#x" % (size, off))
        recs.append((off, typ, misc, size))
        off += size
    return recs


def mmap2_hit(raw, recs):
    """The user MMAP2 record with a build id that the first user sample in
    one hits (perf inject -b looks at the DSOs samples hit)."""
    PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_IDENTIFIER = 1, 2, 1 << 16
    attr = next(r for r in recs if r[1] == PERF_RECORD_HEADER_ATTR)
    sample_type = struct.unpack_from("<Q", raw, attr[0] + 8 + 24)[0]
    need = PERF_SAMPLE_IP | PERF_SAMPLE_TID
    if sample_type & need != need:
        return None
    ip_at = 16 if sample_type & PERF_SAMPLE_IDENTIFIER else 8
    maps = []
    for r in recs:
        off, typ, misc, size = r
        if misc & 7 != PERF_RECORD_MISC_USER:
            continue
        if typ == PERF_RECORD_MMAP2 and misc & PERF_RECORD_MISC_MMAP_BUILD_ID:
            pid, _, start, length = struct.unpack_from("<IIQQ", raw, off + 8)
            maps.append((pid, start, length, r))
        elif typ == 9:	# PERF_RECORD_SAMPLE
            ip, pid = struct.unpack_from("<QI", raw, off + ip_at)
            for mpid, start, length, mr in maps:
                if mpid == pid and start <= ip < start + length:
                    return mr
    return None


# ---------------------------------------------------------------- from scratch
# A minimal file of either byte order (e: "<" or ">"): one software event
# sampling IP, TID and TIME with sample_id_all (each non-sample record ends
# in pid, tid, time).
def mk_attr(e):
    a = bytearray(120)
    struct.pack_into(e + "IIQQQQ", a, 0, 1, 120, 0, 1, 0x7, 0)
    # sample_id_all, bit 18 of the bit fields, as a compiler of that byte
    # order lays it out
    a[40 + 2] = 0x04 if e == "<" else 0x20
    return bytes(a)


def mk_comm(e, name=b"crafted"):
    body = struct.pack(e + "II", 1, 1) + name + b"\0" * (align(len(name) + 1, 8) - len(name))
    body += struct.pack(e + "IIQ", 1, 1, 1)		# sample id: pid, tid, time
    return struct.pack(e + "IHH", PERF_RECORD_COMM, 0, 8 + len(body)) + body


def mk_header_only(e, typ):
    """A record that is its header alone: 8 bytes."""
    return struct.pack(e + "IHH", typ, 0, 8)


def mk_fork(e, size):
    body = struct.pack(e + "IIIIQ", 2, 1, 2, 1, 1) + struct.pack(e + "IIQ", 2, 2, 1)
    return struct.pack(e + "IHH", PERF_RECORD_FORK, 0, size) + body.ljust(size - 8, b"\0")[:size - 8]


def mk_mmap(e, typ, misc, pid, start, length, name):
    """A MMAP (typ 1) or MMAP2 (typ PERF_RECORD_MMAP2) record of @name."""
    n = name + b"\0" * (align(len(name) + 1, 8) - len(name))
    body = struct.pack(e + "IIQQQ", pid, pid, start, length, 0)
    if typ == PERF_RECORD_MMAP2:
        body += struct.pack(e + "IIQQII", 0, 0, 0, 0, 5, 2)
    body += n + struct.pack(e + "IIQ", pid, pid, 1)
    return struct.pack(e + "IHH", typ, misc, 8 + len(body)) + body


def magic(e):
    return b"PERFILE2" if e == "<" else b"2ELIFREP"


def mk_file(e, records):
    """records: list of bytes; returns (file bytes, offset of each record)."""
    attrs_off, attr_size = 104, 120 + 16
    ids_off = attrs_off + attr_size
    data_off = ids_off + 8
    data = b"".join(records)
    h = magic(e) + struct.pack(e + "QQQQQQQQ", 104, attr_size, attrs_off, attr_size,
                               data_off, len(data), 0, 0) + bytes(32)
    f_attr = mk_attr(e) + struct.pack(e + "QQ", ids_off, 8)
    out = h + f_attr + struct.pack(e + "Q", 1) + data
    offs, o = [], data_off
    for r in records:
        offs.append(o)
        o += len(r)
    return out, offs


def mk_pipe(e, records):
    attr = mk_attr(e)
    hdr_attr = struct.pack(e + "IHH", PERF_RECORD_HEADER_ATTR, 0, 8 + len(attr) + 8) + \
        attr + struct.pack(e + "Q", 1)
    out = magic(e) + struct.pack(e + "Q", PIPE_HDR) + hdr_attr + b"".join(records)
    offs, o = [], len(hdr_attr)
    for r in records:
        offs.append(o)
        o += len(r)
    return out, offs


def add_module(path, name, sid):
    f = FileData(path)
    off, size = struct.unpack_from("<QQ", f.raw, f.sec)
    table = bytes(f.raw[off:off + size]) + bev(name.encode(), bytes.fromhex(sid),
                                                misc=PERF_RECORD_MISC_KERNEL |
                                                PERF_RECORD_MISC_BUILD_ID_SIZE)
    open(path, "wb").write(f.with_table(table)[0])


def main():
    if sys.argv[1] == "--add-module":
        add_module(*sys.argv[2:5])
        return
    fpath, ppath, out = sys.argv[1:4]
    fd = FileData(fpath)
    praw = open(ppath, "rb").read()
    manifest = []

    def emit(name, fmt, blob, offsets, readers, sentinel):
        open("%s/%s" % (out, name), "wb").write(blob)
        manifest.append("\t".join([name, fmt, ",".join("%#x" % o for o in offsets) or "-",
                                   readers, sentinel or "-"]))

    good = bev(SENTINEL_NAME, SENTINEL_ID)
    bad_id = bytes(range(1, 21))

    # 1. the first entry's size byte 255: build_id__init() copied 255 bytes
    #    into a 20-byte id
    t = bev(b"/crafted/bad", bad_id, size_byte=255)
    blob, off = fd.with_table(t + good)
    emit("idsize255", "file", blob, [off], "all", SENTINEL)

    # 2. an entry of 0xfff8 bytes, its name without a NUL: read into
    #    filename[PATH_MAX]
    t = bev(b"", bad_id, total=0xfff8, name_area=b"A" * (0xfff8 - BEV_FIXED))
    blob, off = fd.with_table(t + good)
    emit("bigentry", "file", blob, [off], "all", SENTINEL)

    # 2b. an entry smaller than its fixed part, the last of the table: its
    #     length, negative, read everything after it into filename[]
    blob, off = fd.with_table(good + struct.pack("<IHH", 0, PERF_RECORD_MISC_USER, 16) + bytes(8),
                              pad=3 * 4096)
    emit("shortentry", "file", blob, [off + len(good)], "all", SENTINEL)

    # 2c. the same as 2 in a table of the layout before the pid field
    #     (perf_header__read_build_ids_abi_quirk)
    k = old_bev(b"[kernel.kallsyms]", bytes([0x33] * 20), PERF_RECORD_MISC_KERNEL)
    big = old_bev(b"", bad_id, PERF_RECORD_MISC_USER, total=0xfff8,
                  name_area=b"A" * (0xfff8 - OLD_BEV_FIXED))
    after = old_bev(SENTINEL_NAME, SENTINEL_ID, PERF_RECORD_MISC_USER)
    blob, off = fd.with_table(k + big + after)
    emit("quirk-bigentry", "file", blob, [off + len(k)], "all", SENTINEL)

    # 3. pipe format: PERF_RECORD_HEADER_BUILD_ID records with the size byte
    #    255 and without a NUL, then a good one, before the first kernel
    #    record
    recs = pipe_records(praw)
    first = next(r for r in recs if r[1] < PERF_RECORD_HEADER_ATTR)
    r255 = bytearray(bev(b"/crafted/bad", bad_id, size_byte=255, align_to=8))
    struct.pack_into("<I", r255, 0, PERF_RECORD_HEADER_BUILD_ID)
    rnonul = bytearray(bev(b"", bad_id, total=5000, name_area=b"B" * (5000 - BEV_FIXED)))
    struct.pack_into("<I", rnonul, 0, PERF_RECORD_HEADER_BUILD_ID)
    rgood = bytearray(bev(SENTINEL_NAME, SENTINEL_ID, align_to=8))
    struct.pack_into("<I", rgood, 0, PERF_RECORD_HEADER_BUILD_ID)
    pos = first[0]
    blob = praw[:pos] + r255 + rnonul + rgood + praw[pos:]
    emit("pipe-buildid", "pipe", blob, [pos - PIPE_HDR, pos + len(r255) - PIPE_HDR], "all", SENTINEL)

    # 4. an entry with an id of size 0 (PERF_RECORD_MISC_BUILD_ID_SIZE):
    #    no id, not an empty one
    t = bev(b"/crafted/no-id", bad_id, size_byte=0)
    blob, off = fd.with_table(t + good)
    emit("idsize0", "file", blob, [], "all", SENTINEL)

    # 5. big-endian files: a READ record and a SWITCH_CPU_WIDE record of 8
    #    bytes (swapped past their end), a FORK record of 52 bytes (not a
    #    multiple of 8: swap_sample_id_all()'s BUG_ON)
    be = ">"
    for name, rec in (("be-read", mk_header_only(be, PERF_RECORD_READ)),
                      ("be-switch", mk_header_only(be, PERF_RECORD_SWITCH_CPU_WIDE)),
                      ("be-size", mk_fork(be, 52))):
        blob, offs = mk_file(be, [mk_comm(be), rec, mk_comm(be)])
        emit(name, "file", blob, [offs[1]], "records", None)
    blob, offs = mk_pipe(be, [mk_comm(be), mk_fork(be, 52), mk_comm(be)])
    emit("be-size-pipe", "pipe", blob, [offs[1]], "all", None)

    # 5b. this host's byte order, pipe format: a SWITCH record of 8 bytes,
    #     without the sample id fields sample_id_all puts at its end, read
    #     from its end (perf_evsel__parse_id_sample() read before the
    #     record, before the buffer)
    blob, offs = mk_pipe("<", [mk_comm("<"), mk_header_only("<", PERF_RECORD_SWITCH), mk_comm("<")])
    emit("switch-short-pipe", "pipe", blob, [offs[1]], "all", None)

    # 6. pipe format: a user MMAP2 record with a build id, its name made
    #    6000 bytes long (perf inject -b copied it into a 4 KB union
    #    perf_event on the stack)
    #    when a sample hits it
    m = mmap2_hit(praw, recs)
    if m is None:
        sys.exit("%s: no user sample in a MMAP2 record with a build id (a kernel before 5.12?)" % ppath)
    off, _, _, size = m
    rec = praw[off:off + size]
    namelen = rec[MMAP2_FIXED:].index(b"\0")
    tail = rec[MMAP2_FIXED + align(namelen + 1, 8):]	# the sample id fields
    name = b"/" + b"x" * 5999
    new = bytearray(rec[:MMAP2_FIXED] + name + b"\0" * (align(len(name) + 1, 8) - len(name)) + tail)
    struct.pack_into("<H", new, 6, len(new))
    blob = praw[:off] + new + praw[off + size:]
    emit("pipe-longname", "pipe", blob, [off - PIPE_HDR], "all", None)

    # 7. a user space MMAP or MMAP2 record naming the kernel's DSO, which a
    #    kernel MMAP record made: the map of a kernel DSO it got had no
    #    room for the kmap maps__insert() writes (heap overflow, "double
    #    free or corruption"); a damaged record, skipped
    for name, typ in (("kmap-user", PERF_RECORD_MMAP), ("kmap-user2", PERF_RECORD_MMAP2)):
        recs = [mk_comm("<"),
                mk_mmap("<", PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 0xffffffff,
                        0xffffffff81000000, 0x1000000, b"[kernel.kallsyms]_text"),
                mk_mmap("<", typ, PERF_RECORD_MISC_USER, 1, 0x400000, 0x1000,
                        b"[kernel.kallsyms]"),
                mk_comm("<")]
        blob, offs = mk_file("<", recs)
        emit(name, "file", blob, [], "records", None)
        blob, offs = mk_pipe("<", recs)
        emit(name + "-pipe", "pipe", blob, [], "all", None)

    open("%s/manifest" % out, "w").write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
