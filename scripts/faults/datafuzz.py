#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structure-aware mutator of perf.data files, for scripts/faults/datafuzz.

  datafuzz.py info FILE
      the layout of FILE: header, attributes, records, feature sections
  datafuzz.py mutate SEED FIRST COUNT OUTDIR FILE...
      write mutants FIRST..FIRST+COUNT-1 of the seed files FILE... to
      OUTDIR/NNNNNN.data, one line each on stdout:
      "NNNNNN.data<TAB>file|pipe<TAB>seed file<TAB>what was done";
      mutant i is a function of (SEED, i, the seed files) alone
  datafuzz.py shrink FILE OUTDIR
      smaller variants of FILE (records, build-id entries, feature
      sections left out, the offsets after them moved), one path a
      line on stdout, smallest first
  datafuzz.py format FILE
      "file" or "pipe": how perf is to be given FILE
  datafuzz.py kernel-id FILE OUT in|out
      FILE to OUT with the running kernel's build id in place of the
      corpus's marker for it (in), or the other way round (out)
  datafuzz.py classify RC LOG...
      "kind<TAB>function<TAB>first line" of the failure in the logs of a
      perf run that exited RC (a sanitizer report, a signal, a timeout),
      or nothing

The file format (tools/perf/util/header.[ch] of Linux 5.10): a 104-byte
struct perf_file_header (magic "PERFILE2", size, attr_size, the attrs,
data and event_types sections as {offset, size}, a 256-bit feature
bitmap), the attributes (attr_size bytes each: a perf_event_attr and the
{offset, size} of its ids), the records of the data section ({u32 type,
u16 misc, u16 size} and a body), and at data.offset + data.size one
{offset, size} per feature bit set, in bit order.  The pipe format: a
16-byte header (magic, size 16), then records only, the header's content
as user records (HEADER_ATTR 64, HEADER_BUILD_ID 67, HEADER_FEATURE 80...).
"""

import os
import random
import struct
import sys

MAGIC = b"PERFILE2"
MAGIC_SWAPPED = MAGIC[::-1]
FILE_HEADER = 104
PIPE_HEADER = 16

# record types
MMAP, LOST, COMM, EXIT, THROTTLE, UNTHROTTLE, FORK, READ, SAMPLE, MMAP2 = range(1, 11)
AUX, ITRACE_START, LOST_SAMPLES, SWITCH, SWITCH_CPU_WIDE, NAMESPACES = range(11, 17)
KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE, MMAP3 = range(17, 22)
HEADER_ATTR, HEADER_EVENT_TYPE, HEADER_TRACING_DATA, HEADER_BUILD_ID = range(64, 68)
FINISHED_ROUND, ID_INDEX, AUXTRACE_INFO, AUXTRACE, AUXTRACE_ERROR = range(68, 73)
THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT, STAT_ROUND, EVENT_UPDATE = range(73, 79)
TIME_CONV, HEADER_FEATURE, COMPRESSED = range(79, 82)

MISC_BUILD_ID_SIZE = 1 << 15    # in a build-id entry: the size byte is valid
MISC_MMAP_BUILD_ID = 1 << 14    # in MMAP2: a build id in place of the inode

# features (enum in tools/perf/util/header.h)
(F_TRACING_DATA, F_BUILD_ID, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH,
 F_NRCPUS, F_CPUDESC, F_CPUID, F_TOTAL_MEM, F_CMDLINE, F_EVENT_DESC,
 F_CPU_TOPOLOGY, F_NUMA_TOPOLOGY, F_BRANCH_STACK, F_PMU_MAPPINGS,
 F_GROUP_DESC, F_AUXTRACE, F_STAT, F_CACHE, F_SAMPLE_TIME, F_MEM_TOPOLOGY,
 F_CLOCKID, F_DIR_FORMAT, F_BPF_PROG_INFO, F_BPF_BTF, F_COMPRESSED,
 F_CPU_PMU_CAPS, F_CLOCK_DATA) = range(1, 30)

# where the name starts in records that carry one
NAME_AT = {MMAP: 40, MMAP2: 72, MMAP3: 96, COMM: 16, CGROUP: 16,
           KSYMBOL: 24, HEADER_BUILD_ID: 36}
# the build-id size byte: MMAP3, MMAP2 with MISC_MMAP_BUILD_ID, entries
BID_SIZE_AT = {MMAP3: 72, MMAP2: 40, HEADER_BUILD_ID: 32}

INTERESTING_TYPES = [0, MMAP, LOST, COMM, EXIT, THROTTLE, FORK, READ, SAMPLE,
                     MMAP2, AUX, ITRACE_START, LOST_SAMPLES, SWITCH,
                     SWITCH_CPU_WIDE, NAMESPACES, KSYMBOL, BPF_EVENT, CGROUP,
                     TEXT_POKE, MMAP3, 22, 31, 63, HEADER_ATTR,
                     HEADER_EVENT_TYPE, HEADER_TRACING_DATA, HEADER_BUILD_ID,
                     FINISHED_ROUND, ID_INDEX, AUXTRACE_INFO, AUXTRACE,
                     AUXTRACE_ERROR, THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT,
                     STAT_ROUND, EVENT_UPDATE, TIME_CONV, HEADER_FEATURE,
                     COMPRESSED, 82, 127, 255, 0x7fffffff, 0xffffffff]
SIZES16 = [0, 1, 4, 7, 8, 9, 12, 15, 16, 24, 0x7ff8, 0x8000, 0xfff0, 0xfff8,
           0xffff]
INTS64 = [0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0xfff8, 0xffff, 0x10000,
          0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 1 << 62,
          0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffffff8,
          0xffffffffffffffff]
LONG_NAMES = [255, 256, 1023, 4095, 4096, 4097, 4200, 8192, 16384, 40000,
              60000]

ATTR_FLAGS_AT = 40
ATTR_SAMPLE_TYPE_AT = 24
ATTR_READ_FORMAT_AT = 32
SAMPLE_ID_ALL = 1 << 18


def align8(n):
    return (n + 7) & ~7


# little-endian fields; 0 for one past the end (mutants are short)
def u16(b, o):
    return struct.unpack_from("<H", b, o)[0] if 0 <= o and o + 2 <= len(b) else 0


def u32(b, o):
    return struct.unpack_from("<I", b, o)[0] if 0 <= o and o + 4 <= len(b) else 0


def u64(b, o):
    return struct.unpack_from("<Q", b, o)[0] if 0 <= o and o + 8 <= len(b) else 0


class Record:
    """One record: its bytes; opaque=True for bytes no record walk could
    split (what follows a bad size)."""

    def __init__(self, data, opaque=False):
        self.b = bytearray(data)
        self.opaque = opaque

    @property
    def type(self):
        return u32(self.b, 0) if len(self.b) >= 4 and not self.opaque else -1

    @property
    def misc(self):
        return u16(self.b, 4) if len(self.b) >= 8 else 0


def walk(raw, start, end):
    """The records of raw[start:end]: a list of Record, the bytes after a
    record size below 8 or past the end as one opaque Record."""
    recs = []
    pos = start
    while pos < end:
        if end - pos < 8:
            recs.append(Record(raw[pos:end], True))
            break
        size = u16(raw, pos + 6)
        if size < 8 or pos + size > end:
            recs.append(Record(raw[pos:end], True))
            break
        recs.append(Record(raw[pos:pos + size]))
        pos += size
    return recs


class PerfData:
    """A parsed little-endian perf.data (file or pipe format)."""

    def __init__(self, raw, name=""):
        self.name = name
        self.swapped = False
        if raw[:8] != MAGIC:
            raise ValueError("%s: not a little-endian perf.data" % name)
        size = u64(raw, 8)
        if size == PIPE_HEADER:
            self.fmt = "pipe"
            self.records = walk(raw, PIPE_HEADER, len(raw))
            return
        if size != FILE_HEADER:
            raise ValueError("%s: header size %d" % (name, size))
        self.fmt = "file"
        (self.attr_size, a_off, a_size, d_off, d_size, e_off,
         e_size) = struct.unpack_from("<7Q", raw, 16)
        if self.attr_size < 16 or a_off + a_size > len(raw) or \
           d_off + d_size > len(raw):
            raise ValueError("%s: attr_size %d, attrs or data past the end" %
                             (name, self.attr_size))
        self.feat_bits = struct.unpack_from("<4Q", raw, 72)
        self.attrs = []         # [attr bytes, ids bytes]
        for i in range(a_size // self.attr_size):
            ent = raw[a_off + i * self.attr_size:a_off + (i + 1) * self.attr_size]
            ids_off, ids_size = struct.unpack_from("<QQ", ent, len(ent) - 16)
            self.attrs.append([bytearray(ent[:-16]),
                               bytearray(raw[ids_off:ids_off + ids_size])])
        self.event_types = bytearray(raw[e_off:e_off + e_size])
        self.records = walk(raw, d_off, d_off + d_size)
        self.features = {}      # bit -> bytearray, in bit order
        pos = d_off + d_size
        for bit in range(256):
            if self.feat_bits[bit // 64] >> (bit % 64) & 1:
                off, sz = struct.unpack_from("<QQ", raw, pos)
                self.features[bit] = bytearray(raw[off:off + sz])
                pos += 16
        self.layout = {}

    def sample_id_all(self):
        if self.fmt == "file":
            attrs = [a for a, _ in self.attrs]
        else:
            attrs = [r.b[8:] for r in self.records if r.type == HEADER_ATTR]
        return bool(attrs) and len(attrs[0]) >= 48 and \
            bool(u64(attrs[0], ATTR_FLAGS_AT) & SAMPLE_ID_ALL)

    def serialize(self):
        """The bytes, every offset and size computed anew; self.layout
        says where the fields raw patches aim at ended up."""
        e = ">" if self.swapped else "<"
        magic = MAGIC_SWAPPED if self.swapped else MAGIC
        lay = self.layout = {"records": []}
        if self.fmt == "pipe":
            out = bytearray(magic + struct.pack(e + "Q", PIPE_HEADER))
            for r in self.records:
                lay["records"].append((len(out), len(r.b)))
                out += r.b
            lay["data"] = (PIPE_HEADER, len(out) - PIPE_HEADER)
            return out
        out = bytearray(FILE_HEADER)
        ids_at = []
        for _, ids in self.attrs:
            ids_at.append((len(out), len(ids)))
            out += ids
        a_off = len(out)
        lay["attrs"] = []
        for (attr, _), (off, sz) in zip(self.attrs, ids_at):
            lay["attrs"].append(len(out))
            out += attr + struct.pack(e + "QQ", off, sz)
        attr_size = self.attr_size
        a_size = len(self.attrs) * attr_size
        e_off = len(out)
        out += self.event_types
        d_off = len(out)
        for r in self.records:
            lay["records"].append((len(out), len(r.b)))
            out += r.b
        d_size = len(out) - d_off
        lay["data"] = (d_off, d_size)
        table = len(out)
        lay["feat_table"] = table
        out += bytes(16 * len(self.features))
        bits = [0, 0, 0, 0]
        lay["features"] = {}
        for i, (bit, body) in enumerate(sorted(self.features.items())):
            bits[bit // 64] |= 1 << (bit % 64)
            struct.pack_into(e + "QQ", out, table + 16 * i, len(out), len(body))
            lay["features"][bit] = (len(out), len(body), table + 16 * i)
            out += body
        struct.pack_into(e + "8s8Q4Q", out, 0, magic, FILE_HEADER, attr_size,
                         a_off, a_size, d_off, d_size, e_off,
                         len(self.event_types), *bits)
        return out

    def build_id_entries(self):
        """(container, offset) of every build-id entry: the feature
        section's and, in the pipe format, the HEADER_BUILD_ID records."""
        ents = []
        if self.fmt == "file" and F_BUILD_ID in self.features:
            sec = self.features[F_BUILD_ID]
            pos = 0
            while pos + 36 <= len(sec):
                size = u16(sec, pos + 6)
                ents.append((sec, pos))
                if size < 8:
                    break
                pos += size
        for r in self.records:
            if r.type == HEADER_BUILD_ID and len(r.b) >= 36:
                ents.append((r.b, 0))
        return ents


# ------------------------------------------------------------ byte swapping
# As perf's readers undo it (tools/perf/util/session.c, header.c): each
# swap is its own inverse, so applying perf's swap to a little-endian file
# makes the file a big-endian host would have written.

def bswap(b, off, width):
    if off + width <= len(b):
        b[off:off + width] = b[off:off + width][::-1]


def bswap_all64(b, start):
    for o in range(start, len(b) - 7, 8):
        bswap(b, o, 8)


def revbyte(x):
    return int("{:08b}".format(x)[::-1], 2)


def swap_attr(a):
    size = u32(a, 4)
    bswap(a, 0, 4)
    bswap(a, 4, 4)
    for off, width in ((8, 8), (16, 8), (24, 8), (32, 8), (48, 4), (52, 4),
                       (56, 8), (64, 8), (72, 8), (80, 8), (88, 4), (104, 4),
                       (108, 2), (112, 4)):
        if size > off + width and off + width <= len(a):
            bswap(a, off, width)
    if size > 40 and len(a) >= 48:
        for i in range(40, 48):
            a[i] = revbyte(a[i])


def cstrlen(b, off):
    end = b.find(b"\0", off)
    return (len(b) if end < 0 else end) - off


def swap_record(r, sample_id_all):
    b = r.b
    t = r.type
    if r.opaque or len(b) < 8:
        return

    def trailer(at):
        if sample_id_all:
            bswap_all64(b, at)

    def after_name(at):
        trailer(at + align8(cstrlen(b, at) + 1))

    if t in (MMAP, MMAP2, MMAP3):
        bswap(b, 8, 4)
        bswap(b, 12, 4)
        for o in (16, 24, 32):
            bswap(b, o, 8)
        if t == MMAP3 or (t == MMAP2 and not r.misc & MISC_MMAP_BUILD_ID):
            bswap(b, 40, 4)
            bswap(b, 44, 4)
            bswap(b, 48, 8)
            bswap(b, 56, 8)
        if t == MMAP3:
            bswap(b, 64, 4)
            bswap(b, 68, 4)
        after_name(NAME_AT[t])
    elif t == COMM:
        bswap(b, 8, 4)
        bswap(b, 12, 4)
        after_name(16)
    elif t in (FORK, EXIT):
        for o in (8, 12, 16, 20):
            bswap(b, o, 4)
        bswap(b, 24, 8)
        trailer(32)
    elif t == READ:
        bswap(b, 8, 4)
        bswap(b, 12, 4)
        for o in (16, 24, 32, 40):
            bswap(b, o, 8)
        trailer(48)
    elif t in (THROTTLE, UNTHROTTLE):
        for o in (8, 16, 24):
            bswap(b, o, 8)
        trailer(32)
    elif t in (SWITCH, SWITCH_CPU_WIDE):
        if t == SWITCH_CPU_WIDE:
            bswap(b, 8, 4)
            bswap(b, 12, 4)
            trailer(16)
        else:
            trailer(8)
    elif t in (LOST, SAMPLE, LOST_SAMPLES, ID_INDEX):
        bswap_all64(b, 8)
    elif t == HEADER_ATTR:
        a = bytearray(b[8:])
        size = u32(a, 4)
        swap_attr(a)
        b[8:] = a
        bswap_all64(b, 8 + size)
    elif t == CGROUP:
        bswap(b, 8, 8)
        after_name(16)
    elif t == THREAD_MAP:
        nr = u64(b, 8) if len(b) >= 16 else 0
        bswap(b, 8, 8)
        for i in range(min(nr, (len(b) - 16) // 24)):
            bswap(b, 16 + 24 * i, 8)
    elif t == CPU_MAP and len(b) >= 12:
        typ = u16(b, 8)
        bswap(b, 8, 2)
        if typ == 0:            # PERF_CPU_MAP__CPUS: u16 nr, u16 cpu[]
            nr = u16(b, 10)
            for i in range(nr + 1):
                bswap(b, 10 + 2 * i, 2)
        elif typ == 1 and len(b) >= 14:  # MASK: u16 nr, u16 long_size, mask
            nr, long_size = u16(b, 10), u16(b, 12)
            bswap(b, 10, 2)
            bswap(b, 12, 2)
            if long_size in (4, 8):
                for i in range(nr):     # mask[]: unsigned long, at 18
                    bswap(b, 18 + long_size * i, long_size)
    elif t == EVENT_UPDATE:
        bswap(b, 8, 8)
        bswap(b, 16, 8)
    elif t == TIME_CONV:
        for o in (8, 16, 24):
            bswap(b, o, 8)
        if len(b) >= 48:
            bswap(b, 32, 8)
            bswap(b, 40, 8)
    elif t == HEADER_EVENT_TYPE:
        bswap(b, 8, 8)
    elif t == HEADER_TRACING_DATA:
        bswap(b, 8, 4)
    elif t in (AUX, ITRACE_START, TEXT_POKE, NAMESPACES, STAT, STAT_ROUND,
               STAT_CONFIG, AUXTRACE, AUXTRACE_INFO, AUXTRACE_ERROR):
        bswap_all64(b, 8)       # near enough for records seeds lack
    # the rest as perf leaves it: no swap op, or none we carry


def swap_feature(bit, body):
    """body as a big-endian host writes it, or None to leave the feature
    out (one this mutator does not know how to swap)."""
    b = bytearray(body)

    def string(pos):
        n = u32(b, pos) if pos + 4 <= len(b) else 0
        bswap(b, pos, 4)
        return pos + 4 + n

    if bit == F_BUILD_ID:
        pos = 0
        while pos + 12 <= len(b):
            size = u16(b, pos + 6)
            bswap(b, pos, 4)
            bswap(b, pos + 4, 2)
            bswap(b, pos + 6, 2)
            bswap(b, pos + 8, 4)
            if size < 8:
                break
            pos += size
        return b
    if bit in (F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH, F_CPUDESC, F_CPUID):
        string(0)
        return b
    if bit == F_NRCPUS:
        bswap(b, 0, 4)
        bswap(b, 4, 4)
        return b
    if bit in (F_TOTAL_MEM, F_CLOCKID):
        bswap(b, 0, 8)
        return b
    if bit == F_SAMPLE_TIME:
        bswap(b, 0, 8)
        bswap(b, 8, 8)
        return b
    if bit == F_CMDLINE:
        n = u32(b, 0)
        bswap(b, 0, 4)
        pos = 4
        for _ in range(min(n, 1000)):
            if pos + 4 > len(b):
                break
            pos = string(pos)
        return b
    if bit == F_BRANCH_STACK:
        return b
    return None


def to_big_endian(pd):
    sid = pd.sample_id_all()
    if pd.fmt == "file":
        for a in pd.attrs:
            swap_attr(a[0])
            bswap_all64(a[1], 0)
        feats = {}
        for bit, body in pd.features.items():
            s = swap_feature(bit, body)
            if s is not None:
                feats[bit] = s
        pd.features = feats
    else:
        # perf has no swap of HEADER_FEATURE records (feat_id is read as
        # it is): a big-endian pipe is read only without them
        pd.records = [r for r in pd.records if r.type != HEADER_FEATURE]
    for r in pd.records:
        swap_record(r, sid)
        if not r.opaque:
            bswap(r.b, 0, 4)
            bswap(r.b, 4, 2)
            bswap(r.b, 6, 2)
    pd.swapped = True


# ------------------------------------------------------------ mutations

class Mutator:
    def __init__(self, pd, rng):
        self.pd = pd
        self.rng = rng
        self.what = []
        self.force_swap = False

    # helpers
    def pick_record(self, types=None):
        recs = [r for r in self.pd.records if not r.opaque and len(r.b) >= 8 and
                (types is None or r.type in types)]
        # samples are most of a file: half the time, any record but them
        rare = [r for r in recs if r.type != SAMPLE]
        if rare and self.rng.random() < 0.5:
            recs = rare
        return self.rng.choice(recs) if recs else None

    def named_record(self):
        """a record or build-id entry with a name: (bytes, start, name
        offset)"""
        cands = [(r.b, 0, NAME_AT[r.type]) for r in self.pd.records
                 if r.type in NAME_AT and len(r.b) > NAME_AT[r.type]]
        cands += [(b, pos, 36) for b, pos in self.pd.build_id_entries()]
        return self.rng.choice(cands) if cands else None

    def put16(self, b, off, v):
        if off + 2 <= len(b):
            struct.pack_into("<H", b, off, v & 0xffff)

    # model mutations: each returns a description, or None if it found
    # nothing to work on
    def m_rec_size(self):
        r = self.pick_record()
        if not r:
            return None
        old = len(r.b)
        v = self.rng.choice(SIZES16 + [old - 8, old + 8, old - 1, old + 1,
                                       old + 4, old - 4, self.rng.randrange(65536)])
        self.put16(r.b, 6, v)
        return "record type %d size %d -> %d" % (r.type, old, v & 0xffff)

    def m_rec_misc(self):
        r = self.pick_record()
        if not r:
            return None
        old = r.misc
        v = self.rng.choice([old ^ MISC_BUILD_ID_SIZE, old ^ MISC_MMAP_BUILD_ID,
                             old ^ (1 << 13), old ^ (1 << 12), old ^ (1 << 3),
                             (old & ~7) | self.rng.randrange(8), 0xffff,
                             self.rng.randrange(65536)])
        self.put16(r.b, 4, v)
        return "record type %d misc %#x -> %#x" % (r.type, old, v & 0xffff)

    def m_rec_type(self):
        r = self.pick_record()
        if not r:
            return None
        old = r.type
        v = self.rng.choice(INTERESTING_TYPES)
        if self.rng.random() < 0.4:
            r = Record(r.b)     # a copy of another type next to it
            self.pd.records.insert(self.rng.randrange(len(self.pd.records) + 1), r)
        struct.pack_into("<I", r.b, 0, v)
        return "record type %d -> %d" % (old, v)

    def m_bid_size(self):
        cands = [(r.b, 0, BID_SIZE_AT[r.type]) for r in self.pd.records
                 if r.type in BID_SIZE_AT and len(r.b) > BID_SIZE_AT[r.type]]
        cands += [(c, p, 32) for c, p in self.pd.build_id_entries()
                  if p + 33 <= len(c)]
        if not cands:
            return None
        b, pos, at = self.rng.choice(cands)
        v = self.rng.choice([0, 1, 19, 20, 21, 24, 25, 32, 128, 255])
        b[pos + at] = v
        typ = u32(b, pos)
        if typ == MMAP2 or (typ != MMAP3 and self.rng.random() < 0.8):
            # MMAP2 reads the id only with MISC_MMAP_BUILD_ID; an entry
            # its size byte only with MISC_BUILD_ID_SIZE
            bit = MISC_MMAP_BUILD_ID if typ == MMAP2 else MISC_BUILD_ID_SIZE
            self.put16(b, pos + 4, u16(b, pos + 4) | bit)
        return "%s build-id size byte -> %d" % (self.label(b, pos, at + 4), v)

    def m_entry_size(self):
        ents = self.pd.build_id_entries()
        if not ents:
            return None
        b, pos = self.rng.choice(ents)
        old = u16(b, pos + 6)
        v = self.rng.choice(SIZES16 + [old - 8, old + 8, old + 1, 36, 35, 4096 + 36,
                                       4096 + 44])
        self.put16(b, pos + 6, v)
        return "build-id entry size %d -> %d" % (old, v & 0xffff)

    def _set_name(self, b, start, name_at, name):
        """give the record or entry at b[start] the name, growing or
        shrinking it, what follows the name (sample_id_all) kept"""
        size = u16(b, start + 6)
        end = start + size if size >= 8 and start + size <= len(b) else len(b)
        at = start + name_at
        if at > end:
            return False
        old = cstrlen(b[:end], at)
        rest = b[min(at + align8(old + 1), end):end]
        body = b[start:at] + name + bytes(align8(len(name) + 1) - len(name)) + rest
        self.put16(body, 6, min(len(body), 0xffff))
        b[start:end] = body
        return True

    @staticmethod
    def label(b, start, name_at):
        return "build-id entry" if name_at == 36 else "record type %d" % u32(b, start)

    def m_name(self):
        c = self.named_record()
        if not c:
            return None
        b, start, name_at = c
        kind = self.rng.choice(["nonul", "long", "long", "traversal", "climb", "climb", "empty",
                                "kallsyms", "vdso", "quirk", "slash"])
        if kind == "nonul":
            size = u16(b, start + 6)
            end = start + size if 8 <= size and start + size <= len(b) else len(b)
            for i in range(start + name_at, end):
                b[i] = 0x41
            return "%s name without NUL" % self.label(b, start, name_at)
        if kind == "long":
            n = self.rng.choice(LONG_NAMES)
            name = b"/" + b"x" * (n - 1)
            if self.rng.random() < 0.3:
                name = b"/" + b"/".join([b"d" * 200] * (n // 201 + 1))[:n - 1]
        elif kind == "climb":
            # the same file, by a name climbing out of ~/.debug if pasted
            # under it
            orig = bytes(b[start + name_at:]).split(b"\0")[0]
            if not orig.startswith(b"/"):
                return None
            name = b"/" + b"../" * self.rng.randint(1, 12) + orig[1:]
            if self.rng.random() < 0.3:
                name = name.replace(b"/", b"/./", 2)
        elif kind == "traversal":
            name = self.rng.choice([
                b"/../../../../../../../../tmp/dfz-escape",
                b"../../../../../../../../tmp/dfz-escape",
                b"/tmp/../../../../../../../../tmp/dfz-escape/..",
                b"/usr/bin/../../../../../../../../tmp/dfz-escape",
                b"..", b".", b"/", b"//", b"/.build-id/../../dfz-escape"])
        elif kind == "empty":
            name = b""
        elif kind == "kallsyms":
            name = self.rng.choice([b"[kernel.kallsyms]", b"[kernel.kallsyms]_text",
                                    b"[guest.kernel.kallsyms]", b"[module]",
                                    b"[vdso]", b"[vsyscall]", b"//anon",
                                    b"/dev/zero", b"/proc/self/exe",
                                    b"/memfd:dfz (deleted)", b"[heap]"])
        elif kind == "vdso":
            name = b"[vdso32]"
        elif kind == "quirk":
            # perf reads a table whose first name starts like this as the
            # pre-pid layout of build-id entries
            name = b"nel.kallsyms]"
        else:
            name = b"/" * self.rng.choice([2, 100, 4095, 5000])
        if not self._set_name(b, start, name_at, name):
            return None
        return "%s name %s (%d bytes)" % (self.label(b, start, name_at), kind, len(name))

    def m_attr(self):
        if self.pd.fmt == "file":
            if not self.pd.attrs:
                return None
            a = self.rng.choice(self.pd.attrs)[0]
            base = 0
        else:
            r = self.pick_record([HEADER_ATTR])
            if not r:
                return None
            a, base = r.b, 8
        if len(a) < base + 48:
            return None
        kind = self.rng.choice(["size", "sample_type", "sample_type", "read_format",
                                "flags", "regs", "type"])
        if kind == "size":
            v = self.rng.choice([0, 8, 64, 72, 80, 96, 104, 112, 120, 128, 136,
                                 4096, 0xffff, 0xffffffff])
            struct.pack_into("<I", a, base + 4, v)
            return "attr size -> %d" % v
        if kind in ("sample_type", "read_format", "flags"):
            at = base + {"sample_type": ATTR_SAMPLE_TYPE_AT,
                         "read_format": ATTR_READ_FORMAT_AT,
                         "flags": ATTR_FLAGS_AT}[kind]
            old = u64(a, at)
            if self.rng.random() < 0.2:
                v = self.rng.choice([0, 0xffffffffffffffff, (1 << 22) - 1,
                                     (1 << 24) - 1, 0xf])
            else:
                bits = {"sample_type": 24, "read_format": 5, "flags": 36}[kind]
                v = old ^ (1 << self.rng.randrange(bits))
            struct.pack_into("<Q", a, at, v)
            return "attr %s %#x -> %#x" % (kind, old, v)
        if kind == "type":
            v = self.rng.choice([0, 1, 2, 3, 4, 5, 6, 0xffffffff, 0x7fffffff])
            struct.pack_into("<I", a, base, v)
            return "attr type -> %d" % v
        # sample_regs_user, sample_stack_user, branch_sample_type
        if len(a) < base + 96:
            return None
        at = self.rng.choice([72, 80, 88])
        v = self.rng.choice(INTS64)
        struct.pack_into("<Q" if at != 88 else "<I", a, base + at,
                         v if at != 88 else v & 0xffffffff)
        return "attr field at %d -> %#x" % (at, v)

    def m_ids(self):
        if self.pd.fmt == "file":
            if not self.pd.attrs:
                return None
            ent = self.rng.choice(self.pd.attrs)
            kind = self.rng.choice(["none", "dup", "odd"])
            if kind == "none":
                ent[1] = bytearray()
            elif kind == "dup":
                ent[1] += ent[1][:8] * 3
            else:
                ent[1] += b"\x01\x02\x03"
            return "attr ids %s" % kind
        r = self.pick_record([HEADER_ATTR])
        if not r:
            return None
        r.b += b"\xff" * self.rng.choice([1, 4, 8, 16])
        self.put16(r.b, 6, len(r.b))
        return "pipe attr record grown"

    def m_insert(self):
        """a synthetic record of a type perf treats specially"""
        t = self.rng.choice([SAMPLE, READ, SWITCH, SWITCH_CPU_WIDE, MMAP3, MMAP2,
                             MMAP, COMM, FORK, NAMESPACES, KSYMBOL, BPF_EVENT,
                             TEXT_POKE, AUX, HEADER_ATTR, HEADER_EVENT_TYPE,
                             HEADER_TRACING_DATA, HEADER_BUILD_ID, ID_INDEX,
                             AUXTRACE_INFO, AUXTRACE, AUXTRACE_ERROR, THREAD_MAP,
                             CPU_MAP, STAT_CONFIG, STAT, STAT_ROUND, EVENT_UPDATE,
                             TIME_CONV, HEADER_FEATURE, COMPRESSED, 90])
        n = self.rng.choice([0, 0, 4, 8, 16, 24, 32, 40, 64, 96, 128, 200])
        if self.rng.random() < 0.5:
            body = bytes(self.rng.choice([0, 0xff]) for _ in range(n))
        else:
            body = bytes(self.rng.randrange(256) for _ in range(n))
        body = bytearray(body)
        if n >= 8 and self.rng.random() < 0.6:
            struct.pack_into("<Q", body, 0, self.rng.choice(INTS64))
        rec = bytearray(struct.pack("<IHH", t, self.rng.choice([0, 0, 1, 2, 0x8000,
                                                               0x4000]), 8 + n)) + body
        pos = self.rng.randrange(len(self.pd.records) + 1)
        self.pd.records.insert(pos, Record(rec))
        return "inserted a type %d record of %d bytes at %d" % (t, 8 + n, pos)

    def m_shuffle(self):
        recs = self.pd.records
        if len(recs) < 2:
            return None
        kind = self.rng.choice(["drop", "dup", "move", "first"])
        i = self.rng.randrange(len(recs))
        t = recs[i].type
        if kind == "drop":
            del recs[i]
        elif kind == "dup":
            recs.insert(i, Record(recs[i].b))
        elif kind == "move":
            r = recs.pop(i)
            recs.insert(self.rng.randrange(len(recs) + 1), r)
        else:
            r = recs.pop(i)
            recs.insert(0, r)
        return "record type %d: %s" % (t, kind)

    def m_feature(self):
        if self.pd.fmt == "pipe":
            r = self.pick_record([HEADER_FEATURE])
            if not r or len(r.b) < 16:
                return None
            kind = self.rng.choice(["id", "body", "trunc"])
            if kind == "id":
                v = self.rng.choice([0, 1, 2, 30, 255, 256, 0xffffffffffffffff])
                struct.pack_into("<Q", r.b, 8, v)
                return "feature record id -> %d" % v
            if kind == "trunc":
                del r.b[16 + self.rng.randrange(max(1, len(r.b) - 16)):]
                self.put16(r.b, 6, len(r.b))
                return "feature record cut to %d" % len(r.b)
            for _ in range(self.rng.randint(1, 4)):
                if len(r.b) > 16:
                    r.b[self.rng.randrange(16, len(r.b))] = self.rng.choice([0, 0xff, 0x7f])
            return "feature record body bytes"
        feats = self.pd.features
        kind = self.rng.choice(["drop", "add", "trunc", "body", "u32"])
        if kind == "add":
            bit = self.rng.choice(list(range(1, 32)) + [100, 255])
            feats[bit] = bytearray(self.rng.randrange(256) for _ in range(self.rng.choice(
                [0, 1, 4, 8, 16, 64])))
            return "feature %d added with random bytes" % bit
        if not feats:
            return None
        bit = self.rng.choice(sorted(feats))
        if kind == "drop":
            del feats[bit]
            return "feature %d dropped" % bit
        body = feats[bit]
        if kind == "trunc":
            del body[self.rng.randrange(len(body) + 1):]
            return "feature %d cut to %d bytes" % (bit, len(body))
        if kind == "u32" and len(body) >= 4:
            at = self.rng.randrange(0, len(body) - 3) & ~3
            v = self.rng.choice([0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 4096, 65536])
            struct.pack_into("<I", body, at, v)
            return "feature %d u32 at %d -> %#x" % (bit, at, v)
        for _ in range(self.rng.randint(1, 4)):
            if body:
                body[self.rng.randrange(len(body))] = self.rng.randrange(256)
        return "feature %d random bytes" % bit

    def m_record_bytes(self):
        r = self.pick_record()
        if not r or len(r.b) <= 8:
            return None
        for _ in range(self.rng.randint(1, 6)):
            i = self.rng.randrange(8, len(r.b))
            if self.rng.random() < 0.5 and i + 8 <= len(r.b):
                struct.pack_into("<Q", r.b, i & ~7 if (i & ~7) >= 8 else 8,
                                 self.rng.choice(INTS64))
            else:
                r.b[i] = self.rng.randrange(256)
        return "record type %d body bytes" % r.type

    def m_swap_small(self):
        """a record of a type whose swap reads fixed fields, too small
        for them, in a big-endian copy"""
        r = self.pick_record()
        if not r:
            return None
        t = self.rng.choice([READ, SWITCH_CPU_WIDE, SWITCH, FORK, EXIT, THROTTLE,
                             MMAP, MMAP2, MMAP3, COMM, NAMESPACES, TEXT_POKE, AUX,
                             ITRACE_START, CGROUP, THREAD_MAP, CPU_MAP, TIME_CONV,
                             EVENT_UPDATE, STAT, STAT_CONFIG, AUXTRACE_INFO,
                             AUXTRACE_ERROR, HEADER_ATTR, HEADER_TRACING_DATA])
        n = self.rng.choice([8, 8, 16, 24])
        old = r.type
        del r.b[n:]
        struct.pack_into("<IHH", r.b, 0, t, u16(r.b, 4), n)
        self.force_swap = True
        return "record type %d -> type %d of %d bytes" % (old, t, n)

    MODEL = ["m_swap_small", "m_rec_size", "m_rec_size", "m_rec_misc", "m_rec_type", "m_rec_type",
             "m_bid_size", "m_bid_size", "m_entry_size", "m_entry_size", "m_name",
             "m_name", "m_name", "m_attr", "m_attr", "m_ids", "m_insert", "m_insert",
             "m_shuffle", "m_feature", "m_feature", "m_record_bytes", "m_record_bytes"]

    # raw patches, on the serialized bytes
    def raw(self, out):
        rng = self.rng
        pd = self.pd
        lay = pd.layout
        e = ">" if pd.swapped else "<"
        kind = rng.choice(["header", "header", "feat_table", "trunc", "flip", "int",
                           "magic"] if pd.fmt == "file" else
                          ["trunc", "flip", "int", "magic", "pipe_size"])
        if kind == "header":
            field = rng.choice(["size", "attr_size", "attrs.offset", "attrs.size",
                                "data.offset", "data.size", "event_types.offset",
                                "event_types.size", "features"])
            at = {"size": 8, "attr_size": 16, "attrs.offset": 24, "attrs.size": 32,
                  "data.offset": 40, "data.size": 48, "event_types.offset": 56,
                  "event_types.size": 64, "features": 72}[field]
            old = struct.unpack_from(e + "Q", out, at)[0]
            if field == "features":
                at = 72 + 8 * rng.randrange(4)
                old = struct.unpack_from(e + "Q", out, at)[0]
                v = old ^ (1 << rng.randrange(64))
            else:
                v = rng.choice(INTS64 + [old + 8, old - 8 if old >= 8 else 0, old + 1,
                                         old * 2, len(out), len(out) + 8, 72])
            struct.pack_into(e + "Q", out, at, v & 0xffffffffffffffff)
            return out, "header %s %#x -> %#x" % (field, old, v)
        if kind == "feat_table":
            feats = lay.get("features", {})
            if not feats:
                return out, None
            bit = rng.choice(sorted(feats))
            off, size, slot = feats[bit]
            which = rng.choice([0, 8])
            v = rng.choice(INTS64 + [len(out), len(out) - 1, off + 1, size + 1,
                                     size * 4, 0])
            struct.pack_into(e + "Q", out, slot + which, v)
            return out, "feature %d %s -> %#x" % (bit, "offset" if which == 0 else "size", v)
        if kind == "trunc":
            recs = lay.get("records", [])
            if recs and rng.random() < 0.6:
                off, size = rng.choice(recs)
                cut = off + rng.choice([0, 4, 6, 8, size // 2, max(size - 1, 0)])
            else:
                cut = rng.randrange(len(out))
            return out[:cut], "cut at %d of %d" % (cut, len(out))
        if kind == "flip":
            lo = lay.get("data", (0, len(out)))[0] if rng.random() < 0.7 else 0
            n = rng.randint(1, 8)
            for _ in range(n):
                out[rng.randrange(lo, len(out))] = rng.randrange(256)
            return out, "%d random bytes" % n
        if kind == "int":
            at = rng.randrange(0, max(len(out) - 8, 1)) & ~7
            v = rng.choice(INTS64)
            struct.pack_into(e + "Q", out, at, v)
            return out, "u64 at %d -> %#x" % (at, v)
        if kind == "pipe_size":
            v = rng.choice([0, 8, 15, 17, 104, 0xffffffffffffffff])
            struct.pack_into(e + "Q", out, 8, v)
            return out, "pipe header size -> %#x" % v
        # magic: the other endianness, the rest as it is
        out[:8] = MAGIC_SWAPPED if out[:8] == MAGIC else MAGIC
        return out, "magic of the other endianness only"

    def run(self):
        rng = self.rng
        n = rng.choice([1, 1, 1, 2, 2, 3])
        for _ in range(n):
            for _ in range(5):
                d = getattr(self, rng.choice(self.MODEL))()
                if d:
                    self.what.append(d)
                    break
        swap = self.force_swap or rng.random() < 0.15
        if swap:
            to_big_endian(self.pd)
            self.what.append("big-endian")
        out = self.pd.serialize()
        if rng.random() < (0.25 if not swap else 0.1) or not self.what:
            out, d = self.raw(out)
            if d:
                self.what.append(d)
        return bytes(out)


def load(path):
    with open(path, "rb") as f:
        return f.read()


def mutate(seed, first, count, outdir, files):
    seeds = [(f, load(f)) for f in files]
    for i in range(first, first + count):
        for attempt in range(10):
            # a mutation this mutator cannot carry out on what earlier
            # ones left: mutant i drawn again, from the next stream
            rng = random.Random("%s:%d" % (seed, i) + (":%d" % attempt if attempt else ""))
            name, raw = rng.choice(seeds)
            pd = PerfData(raw, name)
            m = Mutator(pd, rng)
            try:
                out = m.run()
                break
            except (struct.error, IndexError, ValueError, OverflowError) as e:
                sys.stderr.write("datafuzz.py: mutant %d, attempt %d: %s: %r\n" %
                                 (i, attempt, "; ".join(m.what), e))
        else:
            continue
        fn = "%06d.data" % i
        with open(os.path.join(outdir, fn), "wb") as f:
            f.write(out)
        print("%s\t%s\t%s\t%s" % (fn, pd.fmt, os.path.basename(name),
                                  "; ".join(m.what)))


def file_format(raw):
    """file or pipe, for a mutant too: the header size field either way
    round, else the size of what a file header would be"""
    if len(raw) >= 16:
        for e in "<>":
            if struct.unpack_from(e + "Q", raw, 8)[0] == PIPE_HEADER:
                return "pipe"
    return "file"


# ------------------------------------------------------------ shrinking

def shrink(path, outdir):
    """Variants of the file at path with parts left out, as raw splices
    that move every offset beyond the cut: perf reads them as it reads
    the original except for what was left out."""
    raw = bytearray(load(path))
    fmt = file_format(raw)
    e = "<" if raw[:8] == MAGIC else ">"
    cands = []

    def header_fields():
        return struct.unpack_from(e + "7Q", raw, 16)

    if fmt == "pipe":
        spans = []
        pos = PIPE_HEADER
        while pos + 8 <= len(raw):
            size = struct.unpack_from(e + "H", raw, pos + 6)[0]
            if size < 8 or pos + size > len(raw):
                break
            spans.append((pos, size))
            pos += size

        def cut(lo, hi):
            return raw[:lo] + raw[hi:]
    else:
        if len(raw) < FILE_HEADER:
            return
        _, _, _, d_off, d_size, _, _ = header_fields()
        end = d_off + d_size
        if end > len(raw) or d_off < FILE_HEADER:
            return
        spans = []
        pos = d_off
        while pos + 8 <= end:
            size = struct.unpack_from(e + "H", raw, pos + 6)[0]
            if size < 8 or pos + size > end:
                break
            spans.append((pos, size))
            pos += size
        nfeat = sum(bin(x).count("1") for x in struct.unpack_from(e + "4Q", raw, 72))

        def cut(lo, hi, sec_fix=None):
            """raw without [lo, hi), every offset past lo moved down"""
            n = hi - lo
            b = bytearray(raw[:lo] + raw[hi:])
            a_sz, a_o, a_s, d_o, d_s, e_o, e_s = struct.unpack_from(e + "7Q", b, 16)
            if d_o <= lo < d_o + d_s:
                d_s -= n
            elif d_o > lo:
                d_o -= n
            if a_o > lo:
                a_o -= n
            if e_o > lo:
                e_o -= n
            struct.pack_into(e + "7Q", b, 16, a_sz, a_o, a_s, d_o, d_s, e_o, e_s)
            if a_sz >= 16 and a_o + a_s <= len(b):
                for i in range(a_s // a_sz):
                    at = a_o + (i + 1) * a_sz - 16
                    o = struct.unpack_from(e + "Q", b, at)[0]
                    if o > lo:
                        struct.pack_into(e + "Q", b, at, o - n)
            table = d_o + d_s
            for i in range(nfeat):
                at = table + 16 * i
                if at + 16 > len(b):
                    break
                o, s = struct.unpack_from(e + "QQ", b, at)
                if o > lo:
                    o -= n
                elif o <= lo < o + s:
                    s -= n
                struct.pack_into(e + "QQ", b, at, o, s)
            return b
        # build-id entries of the feature section
        table = end
        bits = struct.unpack_from(e + "4Q", raw, 72)
        k = 0
        for bit in range(256):
            if not bits[bit // 64] >> (bit % 64) & 1:
                continue
            if table + 16 * k + 16 > len(raw):
                break
            o, s = struct.unpack_from(e + "QQ", raw, table + 16 * k)
            k += 1
            if bit != F_BUILD_ID or o + s > len(raw):
                continue
            pos = o
            while pos + 8 <= o + s:
                size = struct.unpack_from(e + "H", raw, pos + 6)[0]
                if size < 8 or pos + size > o + s:
                    break
                cands.append(cut(pos, pos + size))
                pos += size
    # whole feature sections left out, where the file still parses (the
    # offsets then all computed anew)
    try:
        pd = PerfData(bytes(raw), path) if fmt == "file" else None
    except (ValueError, struct.error):
        pd = None
    if pd is not None and pd.features:
        feats = dict(pd.features)
        keep = {b: v for b, v in feats.items() if b == F_BUILD_ID}
        for variant in [{}, keep] + [{b: v for b, v in feats.items() if b != bit}
                                     for bit in sorted(feats)]:
            pd.features = variant
            cands.append(pd.serialize())
        pd.features = feats
    # what follows the last record a walk could split: left out
    if spans:
        last = spans[-1][0] + spans[-1][1]
        if fmt == "pipe" and last < len(raw):
            cands.append(raw[:last])
        elif fmt == "file" and last < end:
            cands.append(cut(last, end))
    # records left out: halves, quarters... then one at a time
    n = len(spans)
    chunk = max(1, n // 2)
    while chunk >= 1:
        for i in range(0, n, chunk):
            group = spans[i:i + chunk]
            if not group:
                continue
            lo = group[0][0]
            hi = group[-1][0] + group[-1][1]
            cands.append(cut(lo, hi))
        if chunk == 1:
            break
        chunk = max(1, chunk // 2)
        if n // chunk > 64:
            break
    seen = set()
    k = 0
    for c in sorted((c for c in cands if c is not None), key=len):
        c = bytes(c)
        if len(c) >= len(raw) or c in seen:
            continue
        seen.add(c)
        p = os.path.join(outdir, "shrink-%04d.data" % k)
        k += 1
        with open(p, "wb") as f:
            f.write(c)
        print(p)


# ------------------------------------------------------------ verdicts

RUNTIME_FRAMES = ("__interceptor_", "__asan", "__ubsan", "__sanitizer", "___interceptor_",
                  "__interceptor", "__GI_", "__libc_", "__memcpy", "__memmove",
                  "__strlen", "__strnlen", "__strcmp", "__memcmp", "__memset",
                  "raise", "abort", "__fortify_fail", "__stack_chk_fail",
                  "__chk_fail", "__pthread_kill")
# where a frame is not the place a bug is: the sanitizers, libc, its
# inline wrappers; perf's own helpers, whose caller is the place
RUNTIME_PLACES = ("libasan", "libubsan", "libsanitizer", "sanitizer_common",
                  "libc.so", "/usr/include/")
HELPERS = ("strbuf_", "do_read_", "__do_read", "refcount_", "atomic_")
LIBC_FUNCS_PERF = {"readn", "ion", "zalloc", "memdup", "strlcpy", "scnprintf",
                   "vscnprintf", "__read_once_size", "__write_once_size"}
LIBC_FUNCS = {"memcpy", "memmove", "memset", "memcmp", "strlen", "strnlen", "strcmp",
              "strncmp", "strcpy", "strncpy", "strdup", "strndup", "strchr", "strrchr",
              "strstr", "sprintf", "snprintf", "vsnprintf", "printf", "fprintf",
              "vfprintf", "read", "pread", "write", "fwrite", "fputs", "puts",
              "realpath", "readlink", "open", "open64", "fopen", "stat", "lstat",
              "memchr", "bcmp", "qsort", "free", "malloc", "calloc", "realloc"}


SIGNALS = {132: "ILL", 133: "TRAP", 134: "ABRT", 135: "BUS", 136: "FPE",
           139: "SEGV", 143: "TERM"}


def classify(rc, files):
    """'kind<TAB>function<TAB>first line' of what went wrong in a perf run
    exiting rc whose stderr and sanitizer logs are files, or nothing:
    kind is asan-<bug>, asan-failed-allocation, ubsan-<check>, stack-smash,
    fortify, assert,
    signal-<NAME>, timeout."""
    text = ""
    for f in files:
        try:
            with open(f, errors="replace") as fh:
                text += fh.read(1 << 20) + "\n"
        except OSError:
            pass
    lines = text.splitlines()
    kind = first = None
    start = 0
    for i, line in enumerate(lines):
        if "ERROR: AddressSanitizer:" in line or "ERROR: LeakSanitizer:" in line:
            what = line.split("Sanitizer:", 1)[1].split()
            kind = "asan-" + (what[0] if what else "error")
            if kind == "asan-unknown-crash" or not what:
                kind = "asan-crash"
        elif "runtime error:" in line:
            msg = line.split("runtime error:", 1)[1].strip()
            for key, name in (("misaligned", "misaligned"), ("shift", "shift"),
                              ("signed integer overflow", "overflow"),
                              ("unsigned integer overflow", "overflow"),
                              ("out of bounds", "bounds"), ("null pointer", "null"),
                              ("pointer overflow", "pointer-overflow"),
                              ("load of value", "load"), ("negation", "overflow"),
                              ("division", "division"), ("alignment", "misaligned"),
                              ("outside the range", "float-cast")):
                if key in msg:
                    kind = "ubsan-" + name
                    break
            else:
                kind = "ubsan-other"
        elif "AddressSanitizer failed to allocate" in line:
            # allocator_may_return_null=1: a size the input gave, unbounded
            kind = "asan-failed-allocation"
        elif "stack smashing detected" in line or "buffer overflow detected" in line:
            kind = "stack-smash" if "stack" in line else "fortify"
        elif "Assertion `" in line and line.rstrip().endswith("failed."):
            # "perf: util/session.c:550: swap_sample_id_all: Assertion `...' failed."
            parts = line.split(": ")
            func = parts[-2] if len(parts) >= 3 else "-"
            return "assert\t%s\t%s" % (func, line.strip()[:200])
        else:
            continue
        first, start = line.strip(), i
        break
    if kind is None:
        if rc in (124, 137):
            return "timeout\t-\tno end within the time limit (exit %d)" % rc
        # perf exits with -errno & 0xff on errors (234: -EINVAL): only
        # the signals a crash raises are told from those
        if rc in SIGNALS:
            return "signal-%s\t-\tkilled by SIG%s" % (SIGNALS[rc], SIGNALS[rc])
        return None
    func = "-"
    if kind.startswith("ubsan"):
        # "util/session.c:123:4: runtime error: ...": the place says it
        # (its file: lines move as perf is fixed)
        place = first.split(": runtime error", 1)[0].rsplit("/", 1)[-1]
        func = place.split(":", 1)[0]
    for line in lines[start + 1:start + 60]:
        parts = line.split()
        if len(parts) >= 4 and parts[0].startswith("#") and parts[2] == "in":
            fn = parts[3]
            if fn.startswith(RUNTIME_FRAMES) or fn in LIBC_FUNCS or fn in LIBC_FUNCS_PERF or \
               fn.startswith(HELPERS) or any(w in line for w in RUNTIME_PLACES):
                continue
            func = fn if not kind.startswith("ubsan") else "%s@%s" % (fn, func)
            break
    if func == "-" and kind.startswith("asan"):
        # no frame (ASan's "nested bug" after a stack overrun): one
        # failure whichever command hit it
        func = "no-frames"
    return "%s\t%s\t%s" % (kind, func, first[:200])


# ------------------------------------------------------------ kernel id
# A record of the kernel's map hits perf's kernel paths (--store copies
# /proc/kallsyms) only with the running kernel's build id: the corpus
# holds a marker in its place, put back for the kernel at hand.
KERNEL_ID_MARKER = b"dfz:kernel-build-id:"


def host_kernel_id():
    try:
        notes = load("/sys/kernel/notes")
    except OSError:
        return None
    pos = 0
    while pos + 12 <= len(notes):
        namesz, descsz, typ = struct.unpack_from("<III", notes, pos)
        name = notes[pos + 12:pos + 12 + namesz]
        desc_at = pos + 12 + ((namesz + 3) & ~3)
        if name == b"GNU\0" and typ == 3 and descsz == 20:
            return notes[desc_at:desc_at + 20]
        pos = desc_at + ((descsz + 3) & ~3)
    return None


def kernel_id(path, out, direction):
    raw = load(path)
    kid = host_kernel_id()
    if kid:
        raw = raw.replace(KERNEL_ID_MARKER, kid) if direction == "in" else \
            raw.replace(kid, KERNEL_ID_MARKER)
    with open(out, "wb") as f:
        f.write(raw)


# ------------------------------------------------------------ info

def info(path):
    raw = load(path)
    pd = PerfData(raw, path)
    names = {v: k for k, v in globals().items() if isinstance(v, int) and k.isupper()
             and not k.startswith(("F_", "MISC", "ATTR", "NAME", "FILE", "PIPE",
                                   "SAMPLE_ID"))}
    print("%s: %s format, %d bytes" % (path, pd.fmt, len(raw)))
    if pd.fmt == "file":
        print("attr_size %d, %d attrs, event_types %d bytes" %
              (pd.attr_size, len(pd.attrs), len(pd.event_types)))
        for a, ids in pd.attrs:
            print("  attr type %d size %d sample_type %#x read_format %#x flags %#x, %d ids" %
                  (u32(a, 0), u32(a, 4), u64(a, 24), u64(a, 32), u64(a, 40), len(ids) // 8))
        print("features: " + " ".join("%d:%d" % (b, len(s))
                                      for b, s in sorted(pd.features.items())))
    counts = {}
    for r in pd.records:
        counts[r.type] = counts.get(r.type, 0) + 1
    print("%d records: " % len(pd.records) + " ".join(
        "%s=%d" % (names.get(t, t), n) for t, n in sorted(counts.items())))
    for b, pos in pd.build_id_entries():
        size = u16(b, pos + 6)
        print("  build-id entry misc %#x size %d pid %d id %s size byte %d %s" % (
            u16(b, pos + 4), size, struct.unpack_from("<i", b, pos + 8)[0],
            bytes(b[pos + 12:pos + 32]).hex(), b[pos + 32],
            bytes(b[pos + 36:pos + size]).split(b"\0")[0].decode(errors="replace")))


def main(argv):
    if len(argv) >= 2 and argv[0] == "info":
        for p in argv[1:]:
            info(p)
    elif len(argv) >= 6 and argv[0] == "mutate":
        mutate(argv[1], int(argv[2]), int(argv[3]), argv[4], argv[5:])
    elif len(argv) == 3 and argv[0] == "shrink":
        shrink(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "format":
        print(file_format(load(argv[1])))
    elif len(argv) == 4 and argv[0] == "kernel-id" and argv[3] in ("in", "out"):
        kernel_id(argv[1], argv[2], argv[3])
    elif len(argv) >= 2 and argv[0] == "classify":
        v = classify(int(argv[1]), argv[2:])
        if v:
            print(v)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
