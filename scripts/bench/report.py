#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of scripts/bench/run, out/bench.json and the chart's data.

    report.py BENCHDIR INSNS ELF JSON LATENCY_MS NDSO SIZES FLAT_SIZES
              DWARF_EVENT FLAT_EVENT SYS_DSOS SYS_HIT NEWEST_MB

From the figures bench/run left in BENCHDIR (build/bench): prints the table
of ratios, their goals and the notes below it, writes JSON and
BENCHDIR/record-plot.dat.  A part whose figures are absent leaves its rows
empty ("not measured").  Exits 1 if stock perf and ours list different
build ids for a recording.
"""
import re
import json, os, sys
B, ir, elf, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
latency, ndso = int(sys.argv[5]), int(sys.argv[6])
sys_dsos, sys_hit = int(sys.argv[11]), int(sys.argv[12])
newest_mb = int(sys.argv[13])

def lines(name):
    """The lines of BENCHDIR/NAME, none if a part never made it."""
    try:
        return open(os.path.join(B, name)).read().splitlines()
    except OSError:
        return []
sizes = {"dwarf": [int(x) for x in sys.argv[7].split()], "flat": [int(x) for x in sys.argv[8].split()]}
events = {"dwarf": sys.argv[9], "flat": sys.argv[10]}

def spread(v):
    return "%.3f..%.3f" % (min(v), max(v)) if v else ""

def median(v):
    v = sorted(v)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2

def mean(v):
    return sum(v) / len(v) if v else None

def num(s):
    return float(s.replace(",", "."))	# EPOCHREALTIME follows the locale

def load_mmap(p):
    runs = {}
    for line in lines(p):
        f = line.split()
        if len(f) == 2:
            try:
                runs.setdefault(f[0], []).append(float(f[1]))
            except ValueError:
                pass
    # the median over boots of each boot's median
    return {k: median(v) for k, v in runs.items()}

# perf record and buildid-list, in the VM: key (shape, set-up, MB)
end, total, nbytes, blist = {}, {}, {}, {}
for line in lines("record.txt"):
    f = line.split()
    if len(f) == 9 and f[0] == "record":
        k = (f[1], f[2], int(f[3]))
        t0, tw, t1 = num(f[5]), num(f[6]), num(f[7])
        end.setdefault(k, []).append(t1 - tw)
        total.setdefault(k, []).append(t1 - t0)
        nbytes.setdefault(k, []).append(int(f[8]))
    elif len(f) == 7 and f[0] == "buildid-list":
        blist.setdefault((f[1], f[2], int(f[3])), []).append(num(f[6]) - num(f[5]))
# buildid-list -H under callgrind: key (shape, set-up, MB)
insns = {}
for line in lines("blist-insns.txt"):
    f = line.split()
    if len(f) == 5 and f[0] == "blist-insns":
        insns[(f[1], f[2], int(f[3]))] = int(f[4])
# perf report --store: key (via, jobs)
store, fetched, cached = {}, {}, {}
# sys.data: key mode (hit, all)
sys_t, sys_n, sys_b = {}, {}, {}
for line in lines("store.txt"):
    f = line.split()
    if len(f) == 9 and f[0] == "store":
        store.setdefault((f[1], f[2]), []).append(num(f[5]) - num(f[4]))
        fetched.setdefault((f[1], f[2]), []).append(int(f[6]))
        cached.setdefault((f[1], f[2]), []).append(num(f[8]) - num(f[7]))
    elif len(f) == 7 and f[0] == "sys":
        sys_t.setdefault(f[1], []).append(num(f[4]) - num(f[3]))
        sys_n.setdefault(f[1], []).append(int(f[5]))
        sys_b.setdefault(f[1], []).append(int(f[6]))
med = lambda d, k: median(d.get(k, []))

# buildid-list -H of the files of both perfs: the same ids for the same
# DSOs, compared as printed, sorted.  No normalisation: both list the
# kernel (stock perf from /sys/kernel/notes, ours from the kernel's MMAP3
# record) and the vdso (both from the vdso image) with the same ids.
def ids(path):
    # ours lists a DSO without an id as "- NAME", stock as "NAME"
    try:
        return sorted(l.split(None, 1)[1].strip() if l.startswith("- ") else l.strip()
                      for l in open(path) if l.strip())
    except OSError:
        return None
same = {}
for shape in sizes:
    for s in sizes[shape]:
        a = ids("%s/vm/buildids-%s-stock-%d.txt" % (B, shape, s))
        b = ids("%s/vm/buildids-%s-ours-%d.txt" % (B, shape, s))
        # None: no such recording (the record part was not run at that size)
        same[(shape, s)] = {"equal": a == b if a is not None or b is not None else None,
                            "stock": a, "ours": b}

ours, stock = load_mmap("ours.txt"), load_mmap("stock.txt")
ours_ic, stock_ic = load_mmap("ours-icount.txt"), load_mmap("stock-icount.txt")

# a kernel's symbols by section / the whole vmlinux: key mode (sec, whole)
sec_t, sec_b, vmlinux, sec_skip = {}, {}, None, None
for line in lines("sections.txt"):
    f = line.split()
    if len(f) == 6 and f[0] == "sections":
        sec_t.setdefault(f[1], []).append(num(f[4]) - num(f[3]))
        sec_b.setdefault(f[1], []).append(int(f[5]))
    elif len(f) == 3 and f[0] == "vmlinux":
        vmlinux = {"build_id": f[1], "bytes": int(f[2])}
    elif f and f[0] == "skip":
        sec_skip = line.split(None, 1)[1]
# the newest perf, ours, stock on this machine's kernel: key set-up
nw_end, nw_start, nw_bytes, nw_version, nw_procs, nw_skip = {}, {}, {}, None, None, None
for line in lines("newest.txt"):
    f = line.split()
    if len(f) == 7 and f[0] == "end":
        nw_end.setdefault(f[1], []).append(num(f[5]) - num(f[4]))
        nw_bytes.setdefault(f[1], []).append(int(f[6]))
    elif len(f) == 5 and f[0] == "start":
        nw_start.setdefault(f[1], []).append(num(f[4]) - num(f[3]))
    elif len(f) == 3 and f[0] == "version":
        nw_version = "%s %s" % (f[1], f[2])
    elif len(f) == 2 and f[0] == "procs":
        nw_procs = int(f[1])
    elif f and f[0] == "skip":
        nw_skip = line.split(None, 1)[1]
# programs of 50 ms whose records carry their own ids: own, total
# the build-id cache's bound: a prune, and stores at the bound and under it
prune, cstore = None, {}
for line in lines("cache.txt"):
    f = line.split()
    if len(f) == 4 and f[0] == "prune":
        prune = (int(f[1]), num(f[2]), int(f[3]))
    elif len(f) == 4 and f[0] == "store":
        cstore.setdefault(f[1], []).append((num(f[3]) - num(f[2])) * 1000)

# perf report --store against perf report: (way) -> [(seconds, rss_kb)]
passes, passes_mb = {}, None
for line in lines("passes.txt"):
    f = line.split()
    if len(f) == 5 and f[0] == "passes":
        passes_mb = int(f[1])
        passes.setdefault(f[2], []).append((num(f[3]), int(f[4])))
# Go: the load of a .gopclntab against its twin's .symtab, in ms
gosym = None
for line in lines("go.txt"):
    m = re.match(r"gopclntab-load: symtab ([0-9.]+) ms .*, gopclntab ([0-9.]+) ms", line)
    if m:
        gosym = (float(m.group(2)), float(m.group(1)))

fill = None
for line in lines("fill.txt"):
    f = line.split()
    if len(f) == 3 and f[0] == "fill":
        fill = (int(f[1]), int(f[2]))
rows = []
def row(name, num, den, goal=None, higher=False, unit="s", status=None, runs=None):
    r = num / den if num is not None and den else None
    met = None
    if goal is not None and r is not None:
        met = r >= goal if higher else r <= goal
    rows.append({"figure": name, "ratio": r, "value": num, "reference": den, "unit": unit,
                 "goal": goal, "goal_is_minimum": higher, "met": met, "status": status,
                 "runs": runs})

for shape in ("dwarf", "flat"):
    for s in sizes[shape]:
        row("record end, %s %d MB: stock / ours -B" % (shape, s),
            med(end, (shape, "stock", s)), med(end, (shape, "ours", s)),
            30.0 if (shape, s) == ("flat", 100) else None, True,
            runs=(end.get((shape, "stock", s)), end.get((shape, "ours", s))))
    for s in sizes[shape]:
        if (shape, "stock-cold", s) not in end:
            continue
        row("record end, %s %d MB: stock, empty ~/.debug / ours" % (shape, s),
            med(end, (shape, "stock-cold", s)), med(end, (shape, "ours", s)), None, True,
            runs=(end.get((shape, "stock-cold", s)), end.get((shape, "ours", s))))
    for s in sizes[shape]:
        if (shape, "ours-nob", s) not in end:
            continue
        row("record end, %s %d MB: stock / ours without -B" % (shape, s),
            med(end, (shape, "stock", s)), med(end, (shape, "ours-nob", s)), None, True,
            runs=(end.get((shape, "stock", s)), end.get((shape, "ours-nob", s))))
for shape in ("dwarf", "flat"):
    for s in sizes[shape]:
        row("buildid-list -H, %s %d MB: stock / ours" % (shape, s),
            med(blist, (shape, "stock", s)), med(blist, (shape, "ours", s)), None, True,
            runs=(blist.get((shape, "stock", s)), blist.get((shape, "ours", s))))
# ours checks each record on top ("perf session: Stop at a record cut short by the end of the data"
# and "perf session: Check the sizes and strings of kernel records"): about 5 of the
# 1200 instructions per record stock spends, hence 0.99
for k in sorted(k for k in insns if k[1] == "stock"):
    # the goal on the same file: each perf's own file has its own number of samples
    row("buildid-list -H, %s %d MB: stock / ours on stock's file, insns" % (k[0], k[2]),
        insns[k], insns.get((k[0], "same", k[2])), 0.99, True, unit="insn")
    row("buildid-list -H, %s %d MB: stock / ours, each on its own file, insns" % (k[0], k[2]),
        insns[k], insns.get((k[0], "ours", k[2])), None, True, unit="insn")
row("report --store %d DSOs hit, fleet +%d ms each way (simulated): 1 job / 8" % (ndso, latency),
    med(store, ("fleet", "1")), med(store, ("fleet", "default")), 4.0, True,
    runs=(store.get(("fleet", "1")), store.get(("fleet", "default"))))
row("report --store, %s DSOs mapped, %s hit: --store-all / hit only, time"
    % (sys_dsos, sys_hit), med(sys_t, "all"), med(sys_t, "hit"), None, True,
    runs=(sys_t.get("all"), sys_t.get("hit")))
row("report --store, %s DSOs mapped, %s hit: --store-all / hit only, bytes"
    % (sys_dsos, sys_hit), med(sys_b, "all"), med(sys_b, "hit"), None, True, unit="B",
    runs=(sys_b.get("all"), sys_b.get("hit")))
row("mmap event (MMAP) vs no event, insns", ours_ic.get("mmap"), ours_ic.get("none"), unit="insn")
row("mmap2 event vs no event, insns", ours_ic.get("mmap2"), ours_ic.get("none"), unit="insn")
row("mmap3 event vs no event, insns", ours_ic.get("mmap3"), ours_ic.get("none"), unit="insn")
row("mmap3 vs mmap2, insns", ours_ic.get("mmap3"), ours_ic.get("mmap2"), 1.15, unit="insn")
row("no mmap3 user: ours vs stock, no event, insns", ours_ic.get("none"), stock_ic.get("none"), 1.02, unit="insn")
row("no mmap3 user: ours vs stock, mmap2 event, insns", ours_ic.get("mmap2"), stock_ic.get("mmap2"), 1.02, unit="insn")
row("mmap3 vs mmap2, wall clock", ours.get("mmap3"), ours.get("mmap2"), unit="ns")
row("no mmap3 user: ours vs stock, no event, wall clock", ours.get("none"), stock.get("none"), unit="ns")
row("no mmap3 user: ours vs stock, mmap2 event, wall clock", ours.get("mmap2"), stock.get("mmap2"), unit="ns")
per = ir / 1000.0 if ir else None
row("build_id_parse instructions per call", per, None, 600, unit="insn")
rows[-1]["met"] = per <= 600 if per else None
nwname = "perf %s" % nw_version.split()[1] if nw_version else "newest perf"
row("kernel by section / whole vmlinux, fleet +%d ms, bytes" % latency,
    med(sec_b, "sec"), med(sec_b, "whole"), 0.01, unit="B", status="SKIP" if sec_skip else None,
    runs=(sec_b.get("sec"), sec_b.get("whole")))
row("kernel by section / whole vmlinux, fleet +%d ms, time" % latency,
    med(sec_t, "sec"), med(sec_t, "whole"), status="SKIP" if sec_skip else None,
    runs=(sec_t.get("sec"), sec_t.get("whole")))
row("cache: --prune of %s entries to half, time" % (prune[0] if prune else "?"),
    prune[1] if prune else None, 1, unit="s")
row("cache: --prune of %s entries to half, peak RSS" % (prune[0] if prune else "?"),
    prune[2] * 1024 if prune else None, 1, unit="B")
# the mean, not the median: the stores that scan their part are the cost
row("cache: a store at the bound / under it (mean)", mean(cstore.get("bound", [])),
    mean(cstore.get("free", [])), 1.1, unit="ms",
    runs=(cstore.get("bound"), cstore.get("free")))
row("report --store / report, %s MB perf.data, time" % (passes_mb or "?"),
    median([t for t, _ in passes.get("store", [])]), median([t for t, _ in passes.get("report", [])]),
    1.5, runs=([t for t, _ in passes.get("store", [])], [t for t, _ in passes.get("report", [])]))
row("report --store / report, %s MB perf.data, peak RSS" % (passes_mb or "?"),
    median([m * 1024 for _, m in passes.get("store", [])]),
    median([m * 1024 for _, m in passes.get("report", [])]), None, unit="B")
row("Go: cmd/compile's functions from .gopclntab / from .symtab, load time",
    gosym[0] if gosym else None, gosym[1] if gosym else None, 1.5, unit="ms")
row("ids filled, %s programs of 50 ms (Go layout, removed after)" % (fill[1] if fill else "?"),
    fill[0] if fill else None, fill[1] if fill else None, 0.99, True, unit="ids")
row("record end, host %d MB: %s / ours -B" % (newest_mb, nwname),
    med(nw_end, "newest"), med(nw_end, "ours"), 100.0, True, status="SKIP" if nw_skip else None,
    runs=(nw_end.get("newest"), nw_end.get("ours")))
row("record end, host %d MB: stock / ours -B" % newest_mb,
    med(nw_end, "stock"), med(nw_end, "ours"), status="SKIP" if nw_skip else None,
    runs=(nw_end.get("stock"), nw_end.get("ours")))
row("record -a start to exit, %s procs: ours -B / stock" % (nw_procs or "?"),
    med(nw_start, "ours"), med(nw_start, "stock"), 1.0, status="SKIP" if nw_skip else None,
    runs=(nw_start.get("ours"), nw_start.get("stock")))
row("record -a start to exit, %s procs: %s / stock" % (nw_procs or "?", nwname),
    med(nw_start, "newest"), med(nw_start, "stock"), status="SKIP" if nw_skip else None,
    runs=(nw_start.get("newest"), nw_start.get("stock")))
for shape in ("dwarf", "flat"):
    for s in sizes[shape]:
        sm = same[(shape, s)]
        row("buildid-list -H ids, %s %d MB: stock = ours" % (shape, s), None, None, unit="ids",
            status={True: "ok", False: "MISMATCH", None: "not measured"}[sm["equal"]])
        rows[-1]["value"] = len(sm["stock"] or [])

def fmt(v, unit):
    if v is None:
        return ""
    if unit == "ns":
        return "%.1f ns" % v
    if unit == "ms":
        return "%.1f ms" % v
    if unit in ("insn", "ids"):
        return "%.0f %s" % (v, unit)
    if unit == "B":
        return "%.2f MB" % (v / 1e6)
    return "%.3f s" % v if v < 10 else "%.1f s" % v
print()
print("%-58s %7s %10s %10s  %s" % ("figure", "ratio", "value", "reference", "goal"))
spreads = []
for r in rows:
    if r["runs"]:
        spreads.append("  %s: value %s, reference %s %s"
                       % (r["figure"], spread(r["runs"][0]), spread(r["runs"][1]),
                          "bytes" if r["unit"] == "B" else "s"))
    ratio = ("%.2fx" if r["ratio"] >= 0.1 else "%.4fx") % r["ratio"] if r["ratio"] else ""
    goal = r["status"] or ""
    if r["status"] == "SKIP":
        goal = "SKIP"
    elif r["goal"] is not None and r["met"] is None:
        goal = "not measured"
    elif r["goal"] is not None:
        goal = "%s%g %s" % (">=" if r["goal_is_minimum"] else "<=", r["goal"],
                            "ok" if r["met"] else "MISSED")
    print("%-58s %7s %10s %10s  %s" % (r["figure"], ratio, fmt(r["value"], r["unit"]),
                                        fmt(r["reference"], r["unit"]), goal))

def mbs(shape, setup):
    return ", ".join("%.0f" % (median(nbytes.get((shape, setup, s), [0])) / 2**20) for s in sizes[shape])
print()
print("min..max of the runs behind each median:")
print("\n".join(spreads))
print()
print("record: medians of %d runs; end-of-run = from the workload's exit to perf record's exit:"
      % len(end.get(("dwarf", "ours", sizes["dwarf"][0]), [])))
print("  draining the ring buffers, the build-id pass (stock, ours without -B: read the file again,")
print("  mark the DSOs hit, read their ids, fill ~/.debug; ours -B: none, the ids are in the records),")
print("  the vdso's id (ours), writing the header, stopping the side-band thread (stock")
print("  waits for its poll's 1 s timeout, 0 to 1 s; ours wakes it) and perf's exit.")
print("  buildid-list -H reads every record of the file in both; ours checks each non-sample")
print("  record's sizes and strings, samples are left to evsel__parse_sample().")
print("  Its insns rows: callgrind's count of the whole buildid-list -H process on this machine,")
print("  on each perf's first file of that size (the same from run to run; its time is not).")
print("  Ours spends about 5 more per record (of about 1200): the check that a record")
print("  ends inside the data, and the test of its type (goal: within 1%).  Natively both take")
print("  the same time; under TCG, ours has measured 0.92x to 1.01x: emulation, not work.")
print("  value = stock perf 5.10 (~/.debug already filled by an earlier run, unless noted),")
print("  reference = ours -B; the VM runs our kernel.  events: dwarf = %s," % events["dwarf"])
print("  flat = %s.  perf.data MB: stock %s / ours %s (dwarf), stock %s / ours %s (flat)."
      % (events["flat"], mbs("dwarf", "stock"), mbs("dwarf", "ours"), mbs("flat", "stock"), mbs("flat", "ours")))
print("  whole perf record runs: " + "; ".join(
    "%s %d MB stock %s, ours %s" % (shape, s, fmt(med(total, (shape, "stock", s)), "s"),
                                   fmt(med(total, (shape, "ours", s)), "s"))
    for shape in ("dwarf", "flat") for s in sizes[shape]))
nruns = sum(len(v) for v in fetched.values())
bad = {k: sum(1 for n in v if n != ndso) for k, v in fetched.items()}
print("store: medians of %d runs, through the fleet of scripts/fleet/lib.sh: build1 and build2"
      % len(store.get(("fleet", "1"), [])))
print("  serve Debian packages of the DSOs, central federates them (its cache warm), perf runs on")
print("  the analysis host; every link +%d ms each way, simulated by a relay.  1 job / 8: value ="
      % latency)
print("  buildid.debuginfod-jobs=1, reference = the default (8 jobs).  Every DSO already in the")
print("  client cache (no download): %s with 1 job, %s with 8: the part of a run that parallel"
      % (fmt(med(cached, ("fleet", "1")), "s"), fmt(med(cached, ("fleet", "default")), "s")))
print("  downloads cannot shorten.  Runs that did not fetch all %d DSOs: %s" % (ndso, ", ".join(
    "%s/%s jobs %d of %d" % (k[0], k[1], bad[k], len(fetched[k])) for k in sorted(bad))))
print("  hit only / --store-all: a process mapping %s DSOs and running code in %s, recorded here;"
      % (sys_dsos, sys_hit))
print("  generated DSOs stored per run: %s hit only, %s --store-all (the rest: FAIL lines, in"
      % (sys_n.get("hit", []), sys_n.get("all", [])))
print("  build/bench/store-fails.txt); bytes = what came into the client cache.")
print("kernel: insns = guest instructions per mmap+munmap (qemu -icount: the same from boot to")
print("  boot); wall clock = ns per mmap+munmap under TCG, the median of %d boots' medians: its"
      % len("\n".join(lines("ours.txt")).split("none ")[1:]))
print("  no-event row, where none of the series' code runs, shows the noise between two images.")
if sec_skip:
    print("sections: SKIP: %s" % sec_skip)
elif vmlinux:
    print("sections: perf report --store of a perf record -a of Debian's bullseye cloud kernel in qemu")
    print("  (scripts/debian-kernel record), its -dbg vmlinux (%s, %.1f MB) and the loaded modules'"
          % (vmlinux["build_id"][:12], vmlinux["bytes"] / 1e6))
    print("  debuginfo served by build1 (debuginfod -F) through central to the analysis host, links")
    print("  +%d ms each way; medians of %d runs of each, each on an empty ~/.debug and client cache"
          % (latency, len(sec_t.get("sec", []))))
    print("  (central's cache warm).  value = by section (.symtab .strtab .notes, the default),")
    print("  reference = --store-whole; bytes = the client cache's files for the kernel's id.")
if nw_skip:
    print("newest: SKIP: %s" % nw_skip)
elif nw_version:
    print("newest: on this machine's kernel (%s), the newest Debian perf (%s: %s, its defaults;"
          % (os.uname().release, nw_version.split()[0], nwname))
    print("  since 6.17 --buildid-mmap), stock 5.10 perf and ours -B, medians of %d runs of each."
          % len(nw_end.get("ours", [])))
    print("  record end: the record part's workload and end-of-run time, flat event, perf.data MB: %s."
          % ", ".join("%s %.0f" % (k, median(v) / 2**20) for k, v in sorted(nw_bytes.items())))
    print("  record -a -e cpu-clock -- sleep 0.1, start to exit, with %s processes alive; medians: %s."
          % (nw_procs, ", ".join("%s %s" % (k, fmt(median(v), "s")) for k, v in sorted(nw_start.items()))))
    print("  end of run medians: %s." % ", ".join("%s %s" % (k, fmt(median(v), "s"))
                                                  for k, v in sorted(nw_end.items())))
mism = [k for k in same if same[k]["equal"] is False]
for k in mism:
    a, b = set(same[k]["stock"] or []), set(same[k]["ours"] or [])
    print("buildid-list -H %s %d MB differs: only stock's: %s; only ours: %s" % (k[0], k[1], sorted(a - b), sorted(b - a)))

def per_size(d):
    return {"%s/%s/%d" % k: v for k, v in sorted(d.items())}
json.dump({"elf": elf, "mmap_ns": {"ours": ours, "stock": stock},
           "mmap_insns": {"ours": ours_ic, "stock": stock_ic}, "ratios": rows,
           "parse_instructions_per_call": per,
           "record": {"events": events, "sizes_mb": sizes,
                      "end_of_run_s": per_size(end), "total_s": per_size(total),
                      "perf_data_bytes": per_size(nbytes), "buildid_list_s": per_size(blist),
           "buildid_list_insns": per_size(insns),
                      "buildid_list_ids": {"%s/%d" % k: v for k, v in same.items()}},
           "store": {"dsos": ndso, "latency_ms": latency,
                     "sys": {"mapped": sys_dsos, "hit": sys_hit, "time_s": sys_t,
                             "bytes": sys_b, "stored": sys_n},
                     "runs_s": {"%s/%s" % k: v for k, v in store.items()},
                     "all_in_client_cache_s": {"%s/%s" % k: v for k, v in cached.items()},
                     "fetched": {"%s/%s" % k: v for k, v in fetched.items()}},
           "sections": {"skip": sec_skip, "vmlinux": vmlinux, "latency_ms": latency,
                        "time_s": sec_t, "bytes": sec_b},
           "fill": {"own": fill[0] if fill else None, "programs": fill[1] if fill else None},
           "newest": {"skip": nw_skip, "version": nw_version, "kernel": os.uname().release,
                      "mb": newest_mb, "procs": nw_procs, "end_of_run_s": nw_end,
                      "perf_data_bytes": nw_bytes, "record_a_s": nw_start}},
          open(out, "w"), indent=2)
with open(B + "/record-plot.dat", "w") as f:
    for shape in ("dwarf", "flat"):
        f.write("# %s\n" % shape)
        for s in sizes[shape]:
            f.write("%g %s %s %s\n" % (median(nbytes.get((shape, "ours", s), [s * 2**20])) / 2**20,
                                       *[med(end, (shape, w, s)) or "NaN" for w in ("stock", "stock-cold", "ours")]))
        f.write("\n\n")
sys.exit(1 if mism else 0)
