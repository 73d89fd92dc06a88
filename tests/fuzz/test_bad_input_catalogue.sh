#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Every kind of bad input, in one list: the tool that reads it, the exact message (a fixed
# string, after "<tool>: "), the exit status, and that nothing else happened: stdout empty
# (nothing ran) and no output file the command names exists afterwards (--tables, --report,
# --junit, --trace). The per-tool scripts (tests/README.md, "Bad input") check more variants
# of each; this is the catalogue a user reads to know what each tool says.
#
#   kind                       tool           status
#   truncated table            schedgen       1   (--verify-tables)
#                              mesh-sim       120 (--job)
#   table for the wrong shape  schedgen       1   (--verify-tables)
#                              mesh-sim       120 (--job)
#   bad magic                  schedgen       1   (--verify-tables)
#                              mesh-sim       120 (--job)
#   oversize ELF segment       node-sim       124
#                              mesh-sim       124
#   ELF segment outside RAM    node-sim       124
#                              mesh-sim       124
#   unknown flag               schedgen       2
#                              node-sim       120
#                              mesh-sim       120
#   mesh too big               schedgen       2   (a side above 1024, more than 2^20 nodes)
#   block too big for RAM      mesh-sim       120 (--job TABLES:BYTES, the result exceeds a node's RAM)
set -u
. tests/lib.sh
work="$BUILD/tests/bad-input-catalogue"
rm -rf "$work"
mkdir -p "$work"

make_or_fail catalogue-build "$work/make.log" node-sim mesh-sim schedgen \
    build/fw/firmware/apps/mesh/collectives.elf || exit 1
build_elf tests/sim/node/progs/spin.S catalogue-program "$work/make.log" || exit 1
spin="$elf"
gen="$BUILD/bin/schedgen"
node_sim="$BUILD/bin/node-sim"
mesh_sim="$BUILD/bin/mesh-sim"
coll="$BUILD/fw/firmware/apps/mesh/collectives.elf"
if ! "$mesh_sim" --help | grep -q "a 4x4 torus of 16 tiles"; then
    fail catalogue-shape "the messages below are written for config.mk's 4x4 torus"
    exit 1
fi
ram=$("$node_sim" --help | grep -o '[0-9]* bytes of RAM at 0x[0-9a-f]*')
ram_bytes=${ram%% *}
ram_base=${ram##* }
ram_end=$(printf '0x%08x' $((ram_base + ram_bytes)))

# --- the inputs, each made from a good one by the project's tools
"$gen" --shape 4x4 --torus --algo tsay-wang --quiet --tables "$work/good.tbl" &&
"$gen" --shape 5x5 --torus --algo tsay-wang --quiet --tables "$work/5x5.tbl" ||
    { fail catalogue-tables "schedgen could not write the tables"; exit 1; }
head -c 1000 "$work/good.tbl" >"$work/truncated.tbl"           # inside node 11's table
{ printf 'XXXX'; tail -c +5 "$work/good.tbl"; } >"$work/magic.tbl"

u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
put() {   # put FILE OFFSET VALUE: a 32-bit little-endian word
    local fmt="" k
    for ((k = 0; k < 4; k++)); do fmt+=$(printf '\\%03o' $((($3 >> (8 * k)) & 255))); done
    printf "$fmt" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
phoff=$(u32 "$spin" 28)
ph=""
for ((i = 0; i < 8; i++)); do
    [ "$(u32 "$spin" $((phoff + 32 * i)))" = 1 ] && { ph=$((phoff + 32 * i)); break; }
done
[ -n "$ph" ] || { fail catalogue-elf "$spin has no PT_LOAD program header"; exit 1; }
seg_mem=$(u32 "$spin" $((ph + 20)))
cp "$spin" "$work/oversize.elf" && put "$work/oversize.elf" $((ph + 20)) $((ram_bytes + 4))   # memsz: RAM + 4
cp "$spin" "$work/outside.elf" && put "$work/outside.elf" $((ph + 12)) $((0xf0000000))         # paddr above RAM

# refuse NAME STATUS TEXT CMD...: CMD exits with STATUS, its stderr holds TEXT (fixed string),
# its stdout is empty and no $work/out.* file exists afterwards.
refuse() {
    local name="$1" want="$2" text="$3" rc left log="$work/${1//\//-}"
    shift 3
    rm -f "$work"/out.*
    "$@" >"$log.out" 2>"$log.err"
    rc=$?
    left=$(ls "$work"/out.* 2>/dev/null | tr '\n' ' ')
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit status $rc, expected $want: $(tail_of "$log.err")"
    elif ! grep -qF -- "$text" "$log.err"; then
        fail "$name" "stderr lacks '$text': $(tail_of "$log.err")"
    elif [ -s "$log.out" ]; then
        fail "$name" "it ran (stdout not empty): $(tail_of "$log.out")"
    elif [ -n "$left" ]; then
        fail "$name" "files left behind: $left"
    else
        pass "$name"
    fi
}
W=$work
mesh_outs=(--report "$W/out.json" --junit "$W/out.xml")

# --- truncated table
refuse truncated-table/schedgen 1 \
    "schedgen: $W/truncated.tbl is truncated: it ends inside the table of node 11 (3,2), at byte 1000; regenerate it with schedgen --tables" \
    "$gen" --shape 4x4 --torus --verify-tables "$W/truncated.tbl"
refuse truncated-table/mesh-sim 120 \
    "mesh-sim: --job: '$W/truncated.tbl': the table of node [3,2]: table truncated (buffer shorter than the table); regenerate the file with schedgen --tables" \
    "$mesh_sim" --elf "$coll" --job "$W/truncated.tbl:64" "${mesh_outs[@]}"

# --- table for the wrong shape
refuse wrong-shape/schedgen 1 \
    "schedgen: $W/5x5.tbl: node 0: table built for another machine shape, the 5x5 torus (this is the 4x4 torus); regenerate it with schedgen --shape 4x4 --torus ... --tables, or check it with --shape 5x5 --torus" \
    "$gen" --shape 4x4 --torus --verify-tables "$W/5x5.tbl"
refuse wrong-shape/mesh-sim 120 \
    "mesh-sim: --job: '$W/5x5.tbl' was built for a 5x5 torus, but this mesh-sim simulates a 4x4 torus: regenerate it with schedgen --shape ... for this shape, or build mesh-sim for that shape (make mesh-sim MESH_X=.. MESH_Y=..)" \
    "$mesh_sim" --elf "$coll" --job "$W/5x5.tbl:64" "${mesh_outs[@]}"

# --- bad magic
refuse bad-magic/schedgen 1 \
    "schedgen: $W/magic.tbl is not a tables file (no table magic \"RVST\" at its start); give a file written by schedgen --tables" \
    "$gen" --shape 4x4 --torus --verify-tables "$W/magic.tbl"
refuse bad-magic/mesh-sim 120 \
    "mesh-sim: --job: '$W/magic.tbl' is not a valid tables file: not a schedule table (bad magic); regenerate the file with schedgen --tables" \
    "$mesh_sim" --elf "$coll" --job "$W/magic.tbl:64" "${mesh_outs[@]}"

# --- oversize ELF segment (memsz one word more than the RAM)
oversize_end=$(printf '0x%08x' $((ram_base + ram_bytes + 4)))
refuse oversize-segment/node-sim 124 \
    "node-sim: $W/oversize.elf: segment 0 [$ram_base, $oversize_end) ($((ram_bytes + 4)) bytes) does not fit in RAM [$ram_base, $ram_end) (RAM_BYTES=$ram_bytes in config.mk); make the program smaller or RAM larger" \
    "$node_sim" --elf "$W/oversize.elf" --trace "$W/out.fst"
refuse oversize-segment/mesh-sim 124 \
    "mesh-sim: $W/oversize.elf: segment 0 [$ram_base, $oversize_end) ($((ram_bytes + 4)) bytes) does not fit in a node's RAM [$ram_base, $ram_end) (RAM_BYTES=$ram_bytes in config.mk); make the program smaller or RAM larger" \
    "$mesh_sim" --elf "$W/oversize.elf" "${mesh_outs[@]}"

# --- ELF segment outside RAM
outside_end=$(printf '0x%08x' $((0xf0000000 + seg_mem)))
refuse segment-outside-ram/node-sim 124 \
    "node-sim: $W/outside.elf: segment 0 [0xf0000000, $outside_end) lies past the end of RAM [$ram_base, $ram_end); link the program at RAM_BASE $ram_base (linker/node.ld, make fw-all)" \
    "$node_sim" --elf "$W/outside.elf" --trace "$W/out.fst"
refuse segment-outside-ram/mesh-sim 124 \
    "mesh-sim: $W/outside.elf: segment 0 [0xf0000000, $outside_end) lies past the end of a node's RAM [$ram_base, $ram_end); link the program at RAM_BASE $ram_base (linker/node.ld, make fw-all)" \
    "$mesh_sim" --elf "$W/outside.elf" "${mesh_outs[@]}"

# --- unknown flag
refuse unknown-flag/schedgen 2 "schedgen: unknown option '--tabels'" \
    "$gen" --shape 4x4 --torus --algo tsay-wang --tabels "$W/out.tbl"
refuse unknown-flag/node-sim 120 "node-sim: unknown argument '--max-cycle'" \
    "$node_sim" --elf "$spin" --max-cycle 100 --trace "$W/out.fst"
refuse unknown-flag/mesh-sim 120 "mesh-sim: unknown argument '--jobs'" \
    "$mesh_sim" --elf "$coll" --jobs "$W/good.tbl:64" "${mesh_outs[@]}"

# --- mesh too big
refuse mesh-too-big/side 2 "schedgen: bad --shape: a side length is above 1024" \
    "$gen" --shape 2048x2 --torus --algo tsay-wang --tables "$W/out.tbl"
refuse mesh-too-big/nodes 2 "schedgen: bad --shape: the shape has more than 1048576 nodes" \
    "$gen" --shape 1024x1024x2 --torus --algo tsay-wang --tables "$W/out.tbl"

# --- block too big for RAM (an allgather leaves 16 blocks at every node)
"$gen" --shape 4x4 --torus --algo mnb-opt --quiet --tables "$W/allgather.tbl" ||
    fail catalogue-allgather-tables "schedgen could not write the allgather tables"
refuse block-too-big/mesh-sim 120 \
    "mesh-sim: --job: '$W/allgather.tbl': allgather blocks of 16384 bytes leave $((16 * 16384)) bytes at every node, more than a node's RAM ($ram_bytes bytes, RAM_BYTES in config.mk): give a smaller BYTES" \
    "$mesh_sim" --elf "$coll" --job "$W/allgather.tbl:16384" "${mesh_outs[@]}"
refuse block-too-big/bcast 120 \
    "mesh-sim: --job: '$W/good.tbl': broadcast blocks of $((ram_bytes + 4)) bytes leave $((ram_bytes + 4)) bytes at every node, more than a node's RAM ($ram_bytes bytes" \
    "$mesh_sim" --elf "$coll" --job "$W/good.tbl:$((ram_bytes + 4))" "${mesh_outs[@]}"
exit 0
