#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A perf.data whose user stack dumps are read at offsets off 8 bytes.

    skew_stack.py IN.data OUT.data

IN.data: a little-endian perf.data file of one event recorded with
--call-graph dwarf.  OUT.data: a copy in which every sample with user
registers has %rbp set to %rsp + 4.  Where the frame is at %rbp + 16 (code
built with the frame pointer), the unwinder reads the return address at
%rsp + 12: 12 bytes into the stack dump, a word that is not 8-byte
aligned.  Prints the number of samples changed; exits non-zero if none.
"""
import struct
import sys

PERF_RECORD_SAMPLE = 9
# sample_type bits (the fields of a sample come in the order main() reads)
IDENTIFIER, IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, \
    STREAM_ID, RAW, BRANCH_STACK, REGS_USER = (1 << 16, 1, 2, 4, 8, 16, 32, 64,
                                               128, 256, 512, 1024, 2048, 4096)
PERF_REG_X86_BP, PERF_REG_X86_SP = 6, 7


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    raw = bytearray(open(sys.argv[1], "rb").read())
    if raw[:8] != b"PERFILE2" or struct.unpack_from("<Q", raw, 8)[0] == 16:
        sys.exit("%s: not a little-endian perf.data file" % sys.argv[1])
    attr_size, attrs_off, attrs_size, data_off, data_size = \
        struct.unpack_from("<QQQQQ", raw, 16)
    # attr_size counts the attr and the section of its ids
    if attrs_size != attr_size:
        sys.exit("%s: %d attrs, not one" % (sys.argv[1], attrs_size // attr_size))
    sample_type, = struct.unpack_from("<Q", raw, attrs_off + 24)
    regs_mask, = struct.unpack_from("<Q", raw, attrs_off + 80)
    if sample_type & (READ | RAW | BRANCH_STACK) or not sample_type & REGS_USER:
        sys.exit("sample_type %#x: not what this reads" % sample_type)
    need = 1 << PERF_REG_X86_BP | 1 << PERF_REG_X86_SP
    if regs_mask & need != need:
        sys.exit("sample_regs_user %#x: no %%rbp and %%rsp" % regs_mask)
    bp = bin(regs_mask & ((1 << PERF_REG_X86_BP) - 1)).count("1")
    sp = bin(regs_mask & ((1 << PERF_REG_X86_SP) - 1)).count("1")

    off, end, n = data_off, data_off + data_size, 0
    while off + 8 <= end:
        typ, _, size = struct.unpack_from("<IHH", raw, off)
        if size < 8:
            sys.exit("a record of %d bytes at %#x" % (size, off))
        if typ == PERF_RECORD_SAMPLE:
            p = off + 8
            for bit in (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD):
                p += 8 if sample_type & bit else 0
            if sample_type & CALLCHAIN:
                nr, = struct.unpack_from("<Q", raw, p)
                p += 8 + 8 * nr
            abi, = struct.unpack_from("<Q", raw, p)
            if abi:
                regs = p + 8
                rsp, = struct.unpack_from("<Q", raw, regs + 8 * sp)
                struct.pack_into("<Q", raw, regs + 8 * bp, rsp + 4)
                n += 1
        off += size
    open(sys.argv[2], "wb").write(raw)
    print(n)
    if not n:
        sys.exit("no sample with user registers")


if __name__ == "__main__":
    main()
