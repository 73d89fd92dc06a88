#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Writes the seed corpora of the fuzz harnesses (tests/fuzz/seeds/<harness>/) with the
# project's own tools: schedgen's tables and packages, ELF images built by the firmware
# toolchain (the kit's template program, which carries its tables, and a C test program),
# job specs with their tables files, and schedgen command lines from the tests.
# Run by `make fuzz-seeds` from the top of the tree; the seeds are kept in git.
set -eu
B=${BUILD:-build}
SG=$B/bin/schedgen
S=tests/fuzz/seeds
[ -x "$SG" ] || { echo "make_seeds: $SG not built (make schedgen)" >&2; exit 1; }
rm -rf "$S"
mkdir -p "$S"/sched_table "$S"/elf "$S"/job_spec "$S"/schedgen_args "$B"/fuzz/seeds-tmp
T=$B/fuzz/seeds-tmp

# schedule tables: a tables file per kind of collective, and a program's package
"$SG" --shape 4x4 --torus --algo tsay-wang --tables "$S"/sched_table/4x4t-tsay-wang.tbl --quiet
"$SG" --shape 4x4 --torus --algo mnb-opt --tables "$S"/sched_table/4x4t-mnb-opt.tbl --quiet
"$SG" --shape 4x4 --torus --algo bcast-edst --chunks 2 --tables "$S"/sched_table/4x4t-bcast-edst-2.tbl --quiet
"$SG" --shape 3x3x3 --mesh --algo scatter --tables "$S"/sched_table/3x3x3m-scatter.tbl --quiet
"$SG" --shape 4x4 --torus --algo pmnb --sources 0,5,9 --tables "$S"/sched_table/4x4t-pmnb.tbl --quiet
"$SG" --shape 4x4 --torus --package "$S"/sched_table/4x4t-package.bin --coll bcast --coll allgather \
      --coll scatter@3 --quiet

# ELF images: the kit's template (bcast and allgather tables in .rvmesh_package) and a core
# test program; debug sections dropped (the loader reads the symbol table, not DWARF)
make -s -C kit/template RVMESH="$PWD" OUT="$PWD/$T/kit" PRINTF=integer >/dev/null
riscv64-unknown-elf-objcopy --strip-debug "$T"/kit/template.elf "$S"/elf/kit-template.elf
make -s "$B"/fw/tests/firmware/programs/primes.elf >/dev/null
riscv64-unknown-elf-objcopy --strip-debug "$B"/fw/tests/firmware/programs/primes.elf "$S"/elf/primes.elf

# job specs: the spec, a newline, the tables file it names
for algo in tsay-wang mnb-opt; do
  { printf 'build/sched/%s.tbl:64:7\n' "$algo"; cat "$S"/sched_table/4x4t-$algo.tbl; } >"$S"/job_spec/4x4t-$algo
done
{ printf 'a:b:c.tbl:256\n'; cat "$S"/sched_table/4x4t-bcast-edst-2.tbl; } >"$S"/job_spec/4x4t-bcast-edst-2

# schedgen command lines, one argument per line
w() { local name=$1; shift; printf '%s\n' "$@" | head -c -1 >"$S/schedgen_args/$name"; }
w tables --shape 4x4 --torus --algo tsay-wang --root 1,2 --check --tables out.tbl
w edst --shape 8x8 --mesh --algo bcast-edst --chunks 4 --stats --dump out.txt --svg out.svg
w sources --shape 4x4 --torus --algo pmnb --sources random:5:3 --quiet
w verify --shape 3x3x3 --torus --verify-tables in.tbl
w package --shape 4x4 --torus --package out.bin --asm out.S --coll bcast:bcast-edst/8@5 --coll allgather:mnb-opt --coll alltoall
w help --help
rm -rf "$T"
ls -l "$S"/*
