#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Lines a patch removes that an earlier patch of the same series added.

    series-rework.py [WT]   (default: build/series, made by scripts/apply)

A series should read as if written knowing the end: a patch that removes
lines an earlier patch of its series added reworks it.  For each of the
four series (fixes, kernel, records, store: refs/mmap3/NAME in WT), every
line a commit removes is blamed on the commit before it; one line per
pair of patches that remove and added lines, the most first, then the
totals.  A move then its first change (the kernel's lib/buildid.c, moved
out of the bpf stack map, then hardened) counts too: say so beside it.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "build", "series")
NAMES = ["fixes", "kernel", "records", "store"]


def git(*args):
    return subprocess.run(["git", "-C", WT] + list(args), capture_output=True,
                          text=True, check=True).stdout


def main():
    pairs = {}
    added = removed = 0
    frm = "base"
    label = {}
    for name in NAMES:
        to = "refs/mmap3/" + name
        commits = git("rev-list", "--reverse", frm + ".." + to).split()
        for i, c in enumerate(commits):
            label[c] = "%s/%04d" % (name, i + 1)
        mine = set(commits)
        for c in commits:
            path = None
            for line in git("diff", "-U0", "--no-renames", c + "^", c).splitlines():
                if line.startswith("--- "):
                    path = line[6:] if line.startswith("--- a/") else None
                elif line.startswith("@@"):
                    m = re.match(r"@@ -(\d+)(?:,(\d+))? ", line)
                    start, n = int(m.group(1)), int(m.group(2) or 1)
                    if n == 0 or path is None:
                        continue
                    blame = git("blame", "-s", "-l", "-L", "%d,%d" % (start, start + n - 1),
                                c + "^", "--", path)
                    for b in blame.splitlines():
                        h = b.split()[0].lstrip("^")
                        if h in mine:
                            removed += 1
                            pairs[(h, c)] = pairs.get((h, c), 0) + 1
                elif line.startswith("+") and not line.startswith("+++"):
                    added += 1
        frm = to
    for (a, b), n in sorted(pairs.items(), key=lambda x: -x[1]):
        print("%5d  %s removes lines of %s: %s" % (n, label[b], label[a],
              git("log", "-1", "--format=%s", b).strip()))
    print("series-rework: %d of %d added lines removed again by a later patch of"
          " the same series" % (removed, added))


if __name__ == "__main__":
    main()
