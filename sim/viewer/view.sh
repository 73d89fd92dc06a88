#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make view: one run of mesh-sim with --view, for a chosen program and collectives.
#
# Environment (sim/mesh/mesh.mk passes make's variables through):
#   SIM        the mesh-sim binary of the shape (built by make)
#   SHAPE      XxY[xZ] then t or m (4x4t): the machine, for schedgen's tables
#   ELF        the program (default: firmware/apps/mesh/collectives.elf)
#   JOBS       collectives for mesh-sim --job, "ALGO:ROOT:BYTES" separated by spaces
#              (ROOT x,y or x,y,z; "-" for none): schedgen writes each one's tables. Empty:
#              the program runs without --job (any program of the kit, say)
#   OUT        the page (default $(BUILD)/view/view.html); the trace beside it as .json
#   ARGS       more mesh-sim arguments (--max-cycles N, --view-hops N, ...)
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
SIM="${SIM:?}"
SHAPE="${SHAPE:?}"
ELF="${ELF:-$BUILD/fw/firmware/apps/mesh/collectives.elf}"
OUT="${OUT:-$BUILD/view/view.html}"
dir="$(dirname "$OUT")"
mkdir -p "$dir"
sides="${SHAPE%?}"
case "$SHAPE" in
    *t) kind=--torus ;;
    *m) kind=--mesh ;;
    *) echo "make view: VIEW_SHAPE '$SHAPE' is not a shape like 4x4t, 8x8m or 3x3x3t" >&2; exit 2 ;;
esac
args=()
k=0
for job in ${JOBS:-}; do
    IFS=: read -r algo root bytes <<<"$job"
    if [ -z "$algo" ] || [ -z "$bytes" ]; then
        echo "make view: VIEW_JOBS entry '$job' is not ALGO:ROOT:BYTES (e.g. mnb-opt:1,1:256)" >&2
        exit 2
    fi
    tbl="$dir/job$k-$algo.tbl"
    rootarg=(); [ "$root" != - ] && [ -n "$root" ] && rootarg=(--root "$root")
    if ! "$BUILD/bin/schedgen" --shape "$sides" $kind --algo "$algo" "${rootarg[@]}" --check --quiet \
        --tables "$tbl" >"$tbl.log" 2>&1; then
        echo "make view: schedgen --algo $algo on the $SHAPE failed: $(tail -n 2 "$tbl.log")" >&2
        exit 1
    fi
    args+=(--job "$tbl:$bytes")
    k=$((k + 1))
done
echo "make view: $SIM --elf $ELF ${args[*]} ${ARGS:-}"
"$SIM" --elf "$ELF" "${args[@]}" --view "$OUT" --view-trace "${OUT%.html}.json" ${ARGS:-}
rc=$?
if [ -s "$OUT" ]; then
    echo "make view: open $OUT in a browser (it needs no network; ${OUT%.html}.json is the trace alone)"
fi
exit $rc
