# SPDX-License-Identifier: ISC
# nextpnr-ice40 --post-route script of `make core-pnr`: counts the packed cells that belong
# to the core (instance `core` of core_pnr_top, kept as its own hierarchy by yosys) apart
# from the wrapper's, and writes them as JSON to the file named by $CORE_CELLS_OUT.
# A cell is the core's when its name is under `core.`, or, for the cells nextpnr's packer
# creates (named $nextpnr_*), when one of its named output nets is, or (outputs all named
# by the packer) one of its input nets.
import json
import os

counts = {}
for name, cell in ctx.cells:
    kind = str(cell.type)
    nets = {}
    for port, info in cell.ports:
        if info.net is not None:
            nets[str(port)] = str(info.net.name)
    if name.startswith("core."):
        owner = "core"
    else:
        outs = [nets[p] for p in ("O", "Q", "COUT") if p in nets]
        named = [n for n in outs if not n.startswith("$nextpnr")]
        if named:
            owner = "core" if any(n.startswith("core.") for n in named) else "wrapper"
        else:
            owner = "core" if any(n.startswith("core.") for n in nets.values()) else "wrapper"
    key = owner + ":" + kind
    counts[key] = counts.get(key, 0) + 1

with open(os.environ["CORE_CELLS_OUT"], "w") as out:
    json.dump(counts, out, sort_keys=True)
