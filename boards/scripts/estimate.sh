#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# estimate.sh DIR OUT.json NAME1 "PARAMS1" NAME2 "PARAMS2": yosys synthesis of the tile
# (ESTIMATE_RTL, top `tile`) with each configuration's parameters (NAME=VALUE ...) for
# ECP5-85F (synth_ecp5) and Artix-7 100T (synth_xilinx -family xc7); counts from yosys's
# stat; tiles per device limited by LUTs, block RAM and DSPs. A yosys synthesis estimate:
# no place and route, so no timing and no routing overhead (real fits need headroom).
set -u
dir=$1 out=$2
shift 2
# device  synth-command  LUTs  block-RAMs  DSPs  names
# synth_ecp5 stops before its `check` step (-run :check): that step's first pass, autoname
# (readable names for the netlist), runs for ever on a flat design of this size in yosys
# 0.23 (stopped after 7 minutes, past 9 GB and growing; YosysHQ/yosys#2816); the cell
# counts are final before it.
devices=(
  "ecp5|synth_ecp5 -run :check|83640|208|156|LFE5U-85F (ULX3S)|DP16KD (18 Kbit)|MULT18X18D"
  "xc7|synth_xilinx -family xc7 -flatten|63400|135|240|XC7A100T (Artix-7 100T)|RAMB36E1 (36 Kbit; RAMB18E1 = 0.5)|DSP48E1"
)
# synth_xilinx keeps the hierarchy unless -flatten (synth_ecp5 flattens), and then stat
# lists every module once and the whole design last ("design hierarchy"): the counts are
# taken from that last part when there is one (flat: from the whole stat)
whole() {    # stat file: the part that counts the whole design
    if grep -q '=== design hierarchy ===' "$1"; then
        sed -n '/=== design hierarchy ===/,$p' "$1"
    else
        cat "$1"
    fi
}
# the LUTs a cell of yosys's stat stands for (carry chains and LUT RAM included)
luts_of() {   # stat file, family
    whole "$1" | awk -v fam="$2" '
        $1 ~ /^(LUT[1-6])$/ { n += $2 }
        fam == "ecp5" && $1 == "CCU2C" { n += 2 * $2 }
        fam == "ecp5" && $1 == "TRELLIS_DPR16X4" { n += 4 * $2 }
        fam == "xc7" && $1 ~ /^RAM(32M|64M|128X1D|256X1S)$/ { n += 4 * $2 }
        fam == "xc7" && $1 ~ /^RAM(32X1D|64X1D|128X1S)$/ { n += 2 * $2 }
        fam == "xc7" && $1 ~ /^(RAM32X1S|RAM64X1S|SRL16E|SRLC32E)$/ { n += $2 }
        END { print n + 0 }'
}
cell() { whole "$1" | awk -v c="$2" '$1 == c { n += $2 } END { print n + 0 }'; }

entries=()
while [ $# -ge 2 ]; do
    name=$1 params=$2
    shift 2
    chparam=""
    for p in $params; do chparam+=" -set ${p%%=*} ${p#*=}"; done
    chparam+=" -set RAM_BASE ${RAM_BASE_DEC:-2147483648}"
    for d in "${devices[@]}"; do
        IFS='|' read -r fam synth lut_total bram_total dsp_total dev_name bram_kind dsp_kind <<<"$d"
        stat="$dir/$name-$fam.stat"
        echo "estimate: yosys $synth of tile ($name: $params) ..." >&2
        start=$SECONDS
        if ! yosys -q -l "$dir/$name-$fam.log" -p "read_verilog $ESTIMATE_RTL; chparam $chparam tile; $synth -top tile; tee -q -o $stat.tmp stat" >/dev/null 2>&1; then
            echo "estimate: yosys failed for $name on $fam: $(grep -m 1 ERROR "$dir/$name-$fam.log")" >&2
            exit 1
        fi
        mv "$stat.tmp" "$stat"
        secs=$((SECONDS - start))
        luts=$(luts_of "$stat" "$fam")
        if [ "$fam" = ecp5 ]; then
            bram=$(cell "$stat" DP16KD); dsp=$(cell "$stat" MULT18X18D)
        else
            bram=$(whole "$stat" | awk '$1 == "RAMB36E1" { n += $2 } $1 == "RAMB18E1" { n += $2 / 2 } END { print n + 0 }')
            dsp=$(cell "$stat" DSP48E1)
        fi
        ffs=$(whole "$stat" | awk '$1 ~ /^(TRELLIS_FF|FDRE|FDSE|FDCE|FDPE)$/ { n += $2 } END { print n + 0 }')
        entries+=("$(jq -n --arg config "$name" --arg params "$params" --arg device "$dev_name" \
            --arg bram_kind "$bram_kind" --arg dsp_kind "$dsp_kind" \
            --argjson luts "$luts" --argjson ffs "$ffs" --argjson bram "$bram" --argjson dsp "$dsp" \
            --argjson lt "$lut_total" --argjson bt "$bram_total" --argjson dt "$dsp_total" \
            --argjson secs "$secs" '
            def lim(total; used): if used > 0 then (total / used | floor) else null end;
            {config: $config, params: $params, device: $device,
             luts: $luts, flip_flops: $ffs, block_ram: $bram, block_ram_kind: $bram_kind,
             dsp: $dsp, dsp_kind: $dsp_kind,
             device_luts: $lt, device_block_ram: $bt, device_dsp: $dt,
             tiles_lut_limited: lim($lt; $luts), tiles_ram_limited: lim($bt; $bram),
             tiles_dsp_limited: lim($dt; $dsp),
             tiles: ([lim($lt; $luts), lim($bt; $bram), lim($dt; $dsp)] | map(select(. != null)) | min),
             yosys_seconds: $secs}')")
        echo "estimate: $dev_name, $name: $luts LUTs, $bram block RAMs, $dsp DSPs ($secs s)" >&2
    done
done
printf '%s\n' "${entries[@]}" | jq -s '{method: "yosys synthesis estimate (no place and route)", estimates: .}' > "$out.tmp"
mv "$out.tmp" "$out"
echo "yosys synthesis estimate (no place and route): tiles per device" 
jq -r '.estimates[] | "  \(.device) \(.config): \(.luts) LUTs, \(.block_ram) block RAMs, \(.dsp) DSPs -> \(.tiles) tiles (LUT-limited \(.tiles_lut_limited), RAM-limited \(.tiles_ram_limited), DSP-limited \(.tiles_dsp_limited))"' "$out"
echo "written: $out"
