#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1200
# The board's boot path without a board: board_node (config.mk's icebreaker profile: the
# tile with its SPRAM banks, the boot ROM built from boards/boot, the board devices) under
# verilator --binary --timing with a model of the SPI flash (tb_board_boot.v).
#   - a good image (tests/boards/progs/board_id.c as node 1,0 of a 2x2 torus) boots: the
#     ROM's line, the NI reports the image's coordinates and shape, mhartid is the index,
#     the sum of 1024 code words read from the executing SPRAM bank matches the ELF, exit 0;
#     and an assembly program (board_tiny.S, node 1,1 of a 2x2 mesh)
#   - bad images are refused with their error number, message and LED blink count: no
#     flash, no image (erased), version, header CRC, too big for the slot, RAM mismatch,
#     3-D image on a 2-D bitstream, payload CRC
#   - board-image refuses an image too big for the slot, a node outside the shape, a
#     file that is not an ELF, writing nothing
# About 3 min, most of it compiling the simulation.
set -u
. tests/lib.sh
need_tool board-boot-build verilator yosys make od riscv64-unknown-elf-objcopy || exit 1
work="$BUILD/tests/board-boot"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
B=boards/build/icebreaker
make_or_fail board-boot-build "$log" -C boards BOARD=icebreaker boot params tool || exit 1
make_or_fail board-boot-image "$log" -C boards BOARD=icebreaker image \
    FW=tests/boards/progs/board_id.c COORD=1,0 MESH_DIMS=2 MESH_X=2 MESH_Y=2 MESH_TORUS=1 || exit 1
make_or_fail board-boot-image "$log" -C boards BOARD=icebreaker image \
    FW=tests/boards/progs/board_tiny.S COORD=1,1 MESH_DIMS=2 MESH_X=2 MESH_Y=2 MESH_TORUS=0 || exit 1
elf=$B/build/fw/tests/boards/progs/board_id.elf
good=$B/image-1_0.bin
tool=boards/build/bin/board-image
offset=$(make -s --no-print-directory -f config.mk -f - x BOARD=icebreaker <<<'x: ; @echo $(BOARD_FLASH_OFFSET)')
offset=$(printf '%d' "$offset")

rtl=$(make -s --no-print-directory -C boards print-rtl)
# yosys's SB_MAC16 model for verilator (the core's DSP_COUNTERS=1; make -C boards params)
mac16=$B/build/ice40/sb_mac16.v
# the board's RTL is lint-clean like the rest (verilator -Wall; the iCEBreaker top's PLL
# primitive is yosys's, so the top is checked by yosys's hierarchy pass instead)
# shellcheck disable=SC2086
for phy in 0 1; do
    if out=$(verilator --lint-only -Wall --top-module board_node -GRAM_SP_BANKS=2 -GBOOT_BYTES=2048 -GLINK_PHY=$phy $rtl "$mac16" 2>&1); then
        pass "board-boot lint of board_node, LINK_PHY=$phy (verilator -Wall)"
    else fail "board-boot lint of board_node, LINK_PHY=$phy (verilator -Wall)" "$(head -n 3 <<<"$out" | tr '\n' ' ')"; fi
done
# shellcheck disable=SC2086
if out=$(yosys -q -p "read_verilog -lib /usr/share/yosys/ice40/cells_sim.v; read_verilog $rtl boards/rtl/board_icebreaker.v; hierarchy -check -top board_icebreaker" 2>&1); then
    pass "board-boot the iCEBreaker top elaborates (yosys hierarchy -check)"
else fail "board-boot the iCEBreaker top elaborates (yosys hierarchy -check)" "$(head -n 3 <<<"$out" | tr '\n' ' ')"; fi
# shellcheck disable=SC2086
if ! verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_board_boot \
        -I$B -DBOOT_HEX="\"$PWD/$B/boot.hex\"" -GFLASH_BASE="$offset" -Mdir "$work/obj" \
        tests/boards/tb_board_boot.v tests/boards/uart_rx_model.v tests/boards/spi_flash_model.v $rtl "$mac16" >"$work/build.log" 2>&1; then
    fail board-boot-build "verilator failed: $(grep -m 3 -i error "$work/build.log" | tr '\n' ' ')"
    exit 1
fi
sim="$work/obj/Vtb_board_boot"

# boot NAME FLASH_IMAGE|-: runs the board with that flash contents (- : no flash at all)
boot() {
    local name=$1 image=$2
    out="$work/$name.out"
    if [ "$image" = - ]; then
        "$sim" >"$out" 2>&1
    else
        od -An -tx1 -v -w1 "$image" | tr -d ' ' >"$work/$name.hex"
        "$sim" +flash="$work/$name.hex" >"$out" 2>&1
    fi
    result=$(grep -m 1 '^RESULT' "$out")
}

# ---- a good image ----
boot good "$good"
sum=0 i=0
riscv64-unknown-elf-objcopy -O binary --only-section=.text "$elf" "$work/text.bin"
for w in $(od -An -tu4 -v -w4 "$work/text.bin" | head -n 1024); do
    sum=$(( (sum + (w ^ i)) & 0xffffffff )); i=$((i + 1))
done
want_sum=$(printf '0x%08x' "$sum")
if [[ "$result" == "RESULT exited 0 "* ]]; then pass "board-boot good image runs and exits 0"
else fail "board-boot good image runs and exits 0" "$result; $(tail_of "$out" 4)"; fi
if grep -q '^UART: rvmesh boot: node 1,0 of 2x2 torus, [0-9]* B, entry 0x80000000$' "$out"; then
    pass "board-boot ROM reports the image"
else fail "board-boot ROM reports the image" "$(grep -m 3 UART "$out" | tr '\n' '|')"; fi
if grep -q '^UART: board_id: coord 1,0 shape 2x2 torus node 1 of 4 hart 1$' "$out"; then
    pass "board-boot identity from the flash image reaches the NI and mhartid"
else fail "board-boot identity from the flash image reaches the NI and mhartid" "$(grep board_id "$out" | head -n 1)"; fi
if grep -q "^UART: board_id: code sum $want_sum\$" "$out"; then
    pass "board-boot loads from the executing SPRAM bank (1024 stolen fetch cycles) read the ELF's code"
else fail "board-boot loads from the executing SPRAM bank (1024 stolen fetch cycles) read the ELF's code" \
    "want $want_sum: $(grep 'code sum' "$out")"; fi

boot tiny "$B/image-1_1.bin"
if [[ "$result" == "RESULT exited 0 "* ]] && grep -q '^UART: rvmesh boot: node 1,1 of 2x2 mesh, ' "$out" &&
   grep -q '^UART: tiny: node 3 of 4$' "$out"; then
    pass "board-boot an assembly program (node 1,1 of a 2x2 mesh) runs and exits 0"
else fail "board-boot an assembly program (node 1,1 of a 2x2 mesh) runs and exits 0" "$result; $(tail_of "$out" 3)"; fi

# ---- bad images: error number, message, LED blinks ----
# refused NAME ERROR MESSAGE-REGEX FLASH
refused() {
    local name=$1 err=$2 msg=$3 image=$4
    boot "$name" "$image"
    if [ "$result" != "RESULT boot_error $err blinks $err green 0" ]; then
        fail "board-boot refuses $name" "expected error $err with $err blinks: ${result:-no result} $(tail_of "$out" 3)"
    elif ! grep -qE "^UART: rvmesh boot: error $err: $msg" "$out"; then
        fail "board-boot refuses $name" "message: $(grep -m 1 'error' "$out")"
    elif grep -q 'board_id' "$out"; then
        fail "board-boot refuses $name" "the firmware ran anyway"
    else
        pass "board-boot refuses $name (error $err, $err red blinks)"
    fi
}
# variant NAME ARGS...: an image of board_id with extra board-image options
variant() {
    local name=$1
    shift
    "$tool" --coord 1,0 --shape 2x2 --torus "$@" -o "$work/$name.bin" "$elf" >>"$log" 2>&1 ||
        fail "board-boot image $name" "board-image failed: $(tail_of "$log" 2)"
}
head -c 70000 /dev/zero | tr '\0' '\377' >"$work/erased.bin"
refused "no flash" 1 "no flash, JEDEC id 0x00ffffff" -
refused "an erased slot" 2 "no image, magic 0xffffffff" "$work/erased.bin"
variant version --set version=2
refused "another version" 3 "image version" "$work/version.bin"
cp "$good" "$work/hcrc.bin"
printf '\001' | dd of="$work/hcrc.bin" bs=1 seek=44 conv=notrunc status=none
refused "a damaged header" 4 "header CRC" "$work/hcrc.bin"
variant toobig --set image_bytes=0x30000
refused "an image larger than the slot" 5 "image bytes, slot 0x00030000 0x00020000" "$work/toobig.bin"
variant ram --set ram_bytes=65536
refused "an image for another RAM" 6 "image RAM bytes, entry 0x00010000" "$work/ram.bin"
"$tool" --coord 1,0,1 --shape 2x2x2 --torus -o "$work/dims.bin" "$elf" >>"$log" 2>&1
refused "a 3-D image on a 2-D bitstream" 7 "node, shape 0x00010001 0x13020202" "$work/dims.bin"
cp "$good" "$work/pcrc.bin"
printf '\125' | dd of="$work/pcrc.bin" bs=1 seek=5000 conv=notrunc status=none
refused "a damaged payload" 8 "payload CRC" "$work/pcrc.bin"

# ---- the host tool refuses, writing nothing ----
rm -f "$work/refused.bin"
if out=$("$tool" --slot 4096 -o "$work/refused.bin" "$elf" 2>&1); then
    fail "board-image refuses an image too big for the slot" "it succeeded: $out"
elif [[ "$out" != *"the flash slot holds 4096"* ]] || [ -e "$work/refused.bin" ]; then
    fail "board-image refuses an image too big for the slot" "message or file: $out"
else pass "board-image refuses an image too big for the slot"; fi
if out=$("$tool" --coord 2,0 --shape 2x2 -o "$work/refused.bin" "$elf" 2>&1); then
    fail "board-image refuses a node outside the shape" "it succeeded: $out"
elif [[ "$out" != *"x=2 is outside the shape"* ]] || [ -e "$work/refused.bin" ]; then
    fail "board-image refuses a node outside the shape" "message or file: $out"
else pass "board-image refuses a node outside the shape"; fi
if out=$("$tool" -o "$work/refused.bin" boards/boot/boot.c 2>&1); then
    fail "board-image refuses a file that is not an ELF" "it succeeded: $out"
elif [[ "$out" != *"not an RV32 little-endian executable ELF"* ]] || [ -e "$work/refused.bin" ]; then
    fail "board-image refuses a file that is not an ELF" "message or file: $out"
else pass "board-image refuses a file that is not an ELF"; fi
if "$tool" --check "$good" >"$work/check.out" 2>&1 && grep -q '^  ok$' "$work/check.out" &&
   ! "$tool" --check "$work/pcrc.bin" >/dev/null 2>&1; then
    pass "board-image --check accepts the good image and refuses the damaged one"
else fail "board-image --check accepts the good image and refuses the damaged one" "$(tail_of "$work/check.out" 3)"; fi
