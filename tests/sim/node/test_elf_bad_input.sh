#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The ELF loader (sim/node/elf32.cpp) refuses malformed programs with the exact message and
# exit status, through node-sim and, since it shares the loader, through mesh-sim: an empty
# file, a header cut short with valid magic, a bad class or data byte, big-endian, not an
# executable, program headers or a segment beyond the end of the file, filesz > memsz, no
# loadable segment (122/123); a segment below RAM_BASE, above RAM or wrapping around 2^32
# (124).
# Nothing is simulated (stdout stays empty). Cases test_node_sim.sh and test_mesh_sim.sh
# already cover (a text file, EM_386, rv64, too big, a missing file) are not repeated.
set -u
. tests/lib.sh
work="$BUILD/tests/elf-bad-input"
rm -rf "$work"
mkdir -p "$work"

make_or_fail elf-bad-input-build "$work/make.log" node-sim || exit 1
pass elf-bad-input-build
node_sim="$BUILD/bin/node-sim"
build_elf tests/sim/node/progs/spin.S elf-bad-input-program "$work/make.log" || exit 1
spin="$elf"

ram_base=$("$node_sim" --help | grep -o 'bytes of RAM at 0x[0-9a-f]*' | sed 's/.*at //')
if [ -z "$ram_base" ]; then
    fail elf-bad-input-ram-base "node-sim --help does not say where RAM is"
    exit 1
fi

# Little-endian fields of a file: read one, or patch one in place.
u16() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
put() {   # put FILE OFFSET BYTES VALUE: VALUE as BYTES little-endian bytes at OFFSET
    local file="$1" at="$2" n="$3" value="$4" k fmt=""
    for ((k = 0; k < n; k++)); do fmt+=$(printf '\\%03o' $(((value >> (8 * k)) & 255))); done
    printf "$fmt" | dd of="$file" bs=1 seek="$at" conv=notrunc status=none
}

# The program header of spin.elf's PT_LOAD segment (the first one, RISCV_ATTRIBUTES may
# come before it).
phoff=$(u32 "$spin" 28)
phnum=$(u16 "$spin" 44)
load=""
for ((i = 0; i < phnum; i++)); do
    if [ "$(u32 "$spin" $((phoff + 32 * i)))" = 1 ]; then load=$i; break; fi
done
if [ -z "$load" ]; then
    fail elf-bad-input-pt-load "$spin has no PT_LOAD program header (phoff $phoff, phnum $phnum)"
    exit 1
fi
ph=$((phoff + 32 * load))   # p_type +0, p_offset +4, p_paddr +12, p_filesz +16, p_memsz +20
size=$(stat -c %s "$spin")
seg_off=$(u32 "$spin" $((ph + 4)))
seg_size=$(u32 "$spin" $((ph + 16)))
seg_mem=$(u32 "$spin" $((ph + 20)))

# The malformed files, each a copy of spin.elf with one thing wrong (or written from scratch).
mk() { cp "$spin" "$work/$1.elf"; }
: >"$work/empty.elf"
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000\363\000' >"$work/short-header.elf"
printf '\177ELF\002' >"$work/short-64.elf"
mk big-endian && put "$work/big-endian.elf" 5 1 2
mk bad-data && put "$work/bad-data.elf" 5 1 0
mk bad-class && put "$work/bad-class.elf" 4 1 3
mk object && put "$work/object.elf" 16 2 1
mk phoff-outside && put "$work/phoff-outside.elf" 28 4 1000000
mk phnum-outside && put "$work/phnum-outside.elf" 44 2 255
mk phentsize && put "$work/phentsize.elf" 42 2 16
mk segment-outside && put "$work/segment-outside.elf" $((ph + 4)) 4 $((size - 4))
head -c $((seg_off + seg_size / 2)) "$spin" >"$work/cut-in-segment.elf"
mk filesz-memsz && put "$work/filesz-memsz.elf" $((ph + 16)) 4 $((seg_size + 16)) &&
    put "$work/filesz-memsz.elf" $((ph + 20)) 4 "$seg_size"   # memsz = the old filesz
mk no-load && put "$work/no-load.elf" "$ph" 4 4
mk below-ram && put "$work/below-ram.elf" $((ph + 12)) 4 $((0x1000))
mk above-ram && put "$work/above-ram.elf" $((ph + 12)) 4 $((0xf0000000))
mk wraps && put "$work/wraps.elf" $((ph + 12)) 4 $((0xfffffff0)) && put "$work/wraps.elf" $((ph + 20)) 4 256

# check SIM TOOL RAM NAME STATUS TEXT: SIM --elf work/NAME.elf exits with STATUS, its stderr
# holds "TOOL: " + TEXT (a fixed string; @F@ stands for the file, @RAM@ for RAM) and stdout is empty.
check() {
    local sim="$1" tool="$2" ram="$3" name="$4" want="$5" text="$6" rc
    local file="$work/$name.elf" check="$tool-$name"
    text="${text//@F@/$file}"
    text="${text//@RAM@/$ram}"
    "$sim" --elf "$file" --max-cycles 1000 >"$work/$check.out" 2>"$work/$check.err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$check" "exit status $rc, expected $want: $(tail_of "$work/$check.err")"
    elif ! grep -qF -- "$tool: $text" "$work/$check.err"; then
        fail "$check" "stderr lacks '$tool: $text': $(tail_of "$work/$check.err")"
    elif [ -s "$work/$check.out" ]; then
        fail "$check" "the program ran (stdout not empty): $(tail_of "$work/$check.out")"
    else
        pass "$check"
    fi
}

all_cases() {   # all_cases SIM TOOL RAM_NAME
    local s="$1" t="$2" r="$3"
    check "$s" "$t" "$r" empty 122 "'@F@' is empty (0 bytes), not an ELF file; give an RV32 ELF executable built for the node (make fw-all)"
    check "$s" "$t" "$r" short-header 122 "'@F@' is truncated: 20 bytes, shorter than the 52-byte ELF32 header; build it again (make fw-all)"
    check "$s" "$t" "$r" short-64 122 "'@F@' is truncated: 5 bytes, shorter than the 52-byte ELF32 header"
    check "$s" "$t" "$r" big-endian 123 "'@F@' is a big-endian ELF (e_ident[5] = 2); the nodes run little-endian RV32 programs: build it for the node with riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32"
    check "$s" "$t" "$r" bad-data 122 "'@F@' has an invalid ELF data encoding 0 (e_ident[5] must be 1, little-endian): the file is damaged"
    check "$s" "$t" "$r" bad-class 122 "'@F@' has an invalid ELF class 3 (e_ident[4] must be 1 for 32-bit): the file is damaged"
    check "$s" "$t" "$r" object 122 "'@F@' is not an executable (e_type 1, a relocatable object file: link it)"
    check "$s" "$t" "$r" phoff-outside 122 "'@F@': the program header table ($phnum entries at offset 1000000) lies outside the file ($size bytes): truncated or damaged: build it again (make fw-all)"
    check "$s" "$t" "$r" phnum-outside 122 "'@F@': the program header table (255 entries at offset $phoff) lies outside the file ($size bytes)"
    check "$s" "$t" "$r" phentsize 122 "'@F@': program header entries of 16 bytes (e_phentsize), smaller than ELF32's 32: the file is damaged"
    check "$s" "$t" "$r" segment-outside 122 "'@F@': segment of program header $load ($seg_size bytes at offset $((size - 4))) lies outside the file ($size bytes): truncated or damaged"
    check "$s" "$t" "$r" cut-in-segment 122 "'@F@': segment of program header $load ($seg_size bytes at offset $seg_off) lies outside the file ($((seg_off + seg_size / 2)) bytes)"
    check "$s" "$t" "$r" filesz-memsz 122 "'@F@': program header $load (PT_LOAD) has $((seg_size + 16)) bytes in the file but only $seg_size in memory: the file is damaged"
    check "$s" "$t" "$r" no-load 122 "'@F@' has no loadable segment (no PT_LOAD program header with bytes): nothing to run"
    check "$s" "$t" "$r" below-ram 124 "@F@: segment 0 [0x00001000, 0x$(printf '%08x' $((0x1000 + seg_mem)))) starts below @RAM@ [$ram_base, 0x"
    check "$s" "$t" "$r" above-ram 124 "@F@: segment 0 [0xf0000000, 0x$(printf '%08x' $((0xf0000000 + seg_mem)))) lies past the end of @RAM@ [$ram_base, 0x"
    check "$s" "$t" "$r" wraps 124 "@F@: segment 0 at 0xfffffff0 (256 bytes) runs past the end of the 32-bit address space (its end 0x1000000f0 wraps around 2^32)"
}

all_cases "$node_sim" node-sim RAM
grep -qF "link the program at RAM_BASE $ram_base (linker/node.ld" "$work/node-sim-below-ram.err" &&
    pass node-sim-below-ram-says-what-to-do ||
    fail node-sim-below-ram-says-what-to-do "no hint to link at RAM_BASE: $(tail_of "$work/node-sim-below-ram.err")"

# The same files through mesh-sim (the loader is shared; its RAM is "a node's RAM").
make_or_fail elf-bad-input-mesh-sim-build "$work/make.log" mesh-sim || exit 1
pass elf-bad-input-mesh-sim-build
all_cases "$BUILD/bin/mesh-sim" mesh-sim "a node's RAM"

# node-sim --help lists the new refusals beside their statuses (mesh-sim's: test_mesh_bad_input.sh)
if "$node_sim" --help | grep -qF "122     not an ELF file, or a malformed one: empty, truncated" &&
   "$node_sim" --help | grep -qF "124     a segment does not fit in the node's RAM (too big, below RAM_BASE or"; then
    pass elf-bad-input-help
else
    fail elf-bad-input-help "node-sim --help does not list the malformed-ELF refusals"
fi
exit 0
