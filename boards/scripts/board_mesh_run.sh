#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# board_mesh_run.sh SIM IMAGES_DIR [--torus] [PLUSARGS...]: runs four simulated boards
# cabled as a 2x2 mesh (--torus: the 2x2 torus's wrap-around cables too) on the flash images
# IMAGES_DIR/image-X_Y.bin that `make board-images` writes (SIM: boards.mk's board-mesh-sim,
# tests/boards/tb_board_mesh.v). Prints each board's console ("UART<n>: ...") and its result;
# exits 0 only when all four boards exit 0. Writes nothing in IMAGES_DIR (runs side by side
# on the same images are fine). More plusargs go to the simulator
# (+max_cycles=N, +start_skew=N, +cut_board=N +cut_port=K).
set -u
if [ $# -lt 2 ]; then
    echo "usage: board_mesh_run.sh SIM IMAGES_DIR [--torus] [+plusarg ...]" >&2
    exit 2
fi
sim=$1 dir=$2
shift 2
args=()
for a in "$@"; do
    case $a in
        --torus) args+=(+torus) ;;
        +*) args+=("$a") ;;
        *) echo "board_mesh_run.sh: unknown option '$a' (--torus, or +plusargs for the simulator)" >&2; exit 2 ;;
    esac
done
[ -x "$sim" ] || { echo "board_mesh_run.sh: no simulator $sim (make -C boards board-mesh-sim builds it)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for c in 0_0 1_0 0_1 1_1; do
    img="$dir/image-$c.bin"
    if [ ! -f "$img" ]; then
        echo "board_mesh_run.sh: $img is missing: the four boards need the images of a 2x2 machine (make board-images SHAPE=2x2m or 2x2t)" >&2
        exit 2
    fi
    od -An -tx1 -v -w1 "$img" | tr -d ' ' >"$tmp/image-$c.hex"
    args+=("+flash$n=$tmp/image-$c.hex")
    n=$((n + 1))
done
log="$tmp/run.log"
"$sim" "${args[@]}" 2>&1 | grep -v '^- .*Verilog \$finish' | tee "$log"
grep -q '^RESULT mesh exited 4 of 4 ' "$log"
