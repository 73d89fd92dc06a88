#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# board_prog.sh BITSTREAM|- IMAGE OFFSET: writes a board's SPI flash over USB: the
# bitstream at 0 (skipped with -) and the firmware image at OFFSET (config.mk
# BOARD_FLASH_OFFSET). Uses openFPGALoader (Debian package openfpgaloader) with the
# iCEBreaker's FT2232H (board ice40_generic), or iceprog (fpga-icestorm) if
# openFPGALoader is missing or BOARD_PROG=iceprog. A board that does not answer stops it
# with a message saying what to check (nothing is written then).
set -u
bit=$1 image=$2 offset=$3
tool=${BOARD_PROG:-}
if [ -z "$tool" ]; then
    if command -v openFPGALoader >/dev/null 2>&1; then tool=openFPGALoader
    elif command -v iceprog >/dev/null 2>&1; then tool=iceprog
    else
        echo "boards: neither openFPGALoader nor iceprog is installed (make deps installs them)" >&2
        exit 1
    fi
fi
for f in "$image" ${bit#-}; do
    [ -f "$f" ] || { echo "boards: $f does not exist" >&2; exit 1; }
done
no_board() {
    echo "boards: no board answered on USB ($tool: $1)." >&2
    echo "  Is the iCEBreaker plugged in (lsusb shows 0403:6010 Future Technology Devices FT2232)?" >&2
    echo "  Can this user open it (a udev rule for 0403:6010, or run as root)? Nothing was written." >&2
    exit 1
}
# run TOOL ARGS...: the tool's output shown; a board that is not there named as such
run() {
    local log rc
    log=$(mktemp)
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ]; then
        if grep -qiE "unable to open ftdi|device not found|failed to claim|can't find ice ftdi|no device found" "$log"; then
            no_board "$(grep -m 1 -iE "unable to open ftdi|device not found|failed to claim|can't find ice ftdi|no device found" "$log")"
        fi
        echo "boards: $1 failed (status $rc); the flash may hold a partial write: run the target again" >&2
        rm -f "$log"
        exit 1
    fi
    rm -f "$log"
}
case "$tool" in
openFPGALoader)
    [ "$bit" = - ] || run openFPGALoader -b ice40_generic -f "$bit"
    run openFPGALoader -b ice40_generic -f -o "$offset" "$image"
    ;;
iceprog)
    [ "$bit" = - ] || run iceprog "$bit"
    run iceprog -o "$((offset))" "$image"
    ;;
*)
    echo "boards: BOARD_PROG=$tool: use openFPGALoader or iceprog" >&2
    exit 1
    ;;
esac
if [ "$bit" = - ]; then what="firmware image at $offset"; else what="bitstream at 0, firmware image at $offset"; fi
echo "boards: flash written ($what); the board restarts from it (or press its reset button)"
