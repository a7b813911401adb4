# SPDX-License-Identifier: GPL-2.0
# mmap3: build ids in perf mmap events, as a Linux 5.10.223 patch series.
#
#   make               set up, patch the tree, build kernels, perf, tests
#   make check         everything, then every test (VM included)
#   make demo          everything, then the main job in the VM
#   make series        export the four series for git am (out/series/NAME/)
#   make check-series  checkpatch --strict, git am of each series, each patch built
#   make vm CMD='...'  run CMD in the VM on the patched kernel
#   make bench         overhead and speed figures
#   make fuzz-data     a long run of the perf.data fuzzer (DATAFUZZ_TIME s,
#                      default 3600), findings to build/datafuzz-findings
#   make debs          Debian bullseye packages in out/debs: perf, and the
#                      kernel with Debian's config (hours on 2 cores)

SHELL := /bin/bash
TOP := $(CURDIR)
S := $(TOP)/scripts

.PHONY: all deps base apply kernel kernel-debug perf perf-base perf-asan kselftests harness \
	check demo series check-series vm bench fuzz-data debs debs-qemu clean distclean

all: kernel kernel-debug perf perf-base kselftests harness

deps:
	@$(S)/setup-deps

base: deps
	@$(S)/fetch-base

apply: base
	@$(S)/apply

kernel: apply
	@$(S)/build-kernel plain

kernel-debug: apply
	@$(S)/build-kernel debug

perf: apply
	@$(S)/build-perf

# stock 5.10 perf, the reference for perf test results
perf-base: base
	@$(S)/build-perf $(TOP)/build/base $(TOP)/build/perf-base

# our perf with ASan and UBSan, for the fault tests (scripts/faults)
perf-asan: apply
	@$(S)/build-perf --asan

kselftests: kernel
	@$(S)/build-tests kselftests

harness: apply
	@$(S)/build-tests harness

# Debian bullseye packages (scripts/debs), built in a bullseye root
debs: apply
	@$(S)/debs/perf out/debs
	@$(S)/debs/kernel debian out/debs

# the same, the kernel from the VM tests' small config: what make check tests
debs-qemu: apply
	@$(S)/debs/perf out/debs
	@$(S)/debs/kernel qemu out/debs

# perf-asan only here: its cold build takes over 6 minutes
check: all perf-asan debs-qemu
	@$(S)/run-tests

demo: all
	@$(S)/demo/run

series: apply
	@$(S)/export-series

check-series: series kernel
	@$(S)/export-series --check
	@$(S)/check-each-patch

vm: kernel
	@$(S)/vm-run -- bash -c '$(CMD)'

bench: all
	@$(S)/bench/run

# the perf.data fuzzer for longer than make check gives it
fuzz-data: perf perf-asan
	@$(S)/faults/datafuzz --time $${DATAFUZZ_TIME:-3600} --save $(TOP)/build/datafuzz-findings

clean:
	rm -rf build/kernel build/kernel-debug build/perf build/perf-base build/perf-asan build/ksft out \
		build/debs-perf build/debs-kernel-qemu build/debs-kernel-debian build/debs-test

distclean:
	rm -rf build out
