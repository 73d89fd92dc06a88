#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# tools/install-deps.sh as a new user meets it: with the tools missing from PATH it must
# name every missing package; as a non-root user it must print the exact install command
# and fail; with --check it only reports; with everything present it says nothing.
set -u
script=tools/install-deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A PATH with only what the script itself uses: no verilator, no compilers, no yosys...
chmod 755 "$tmp"
mkdir -p "$tmp/bin"
cp "$script" "$tmp/install-deps.sh"; chmod 755 "$tmp/install-deps.sh"
for tool in bash id cat tail env; do ln -s "$(command -v $tool)" "$tmp/bin/$tool"; done

out=$(PATH="$tmp/bin" bash "$script" --check 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q 'verilator' <<<"$out" && grep -q 'gcc-riscv64-unknown-elf' <<<"$out" \
   && grep -q 'qemu-system-misc' <<<"$out" && grep -q 'yosys' <<<"$out"; then
    echo "PASS check-names-missing-packages"
else
    echo "FAIL check-names-missing-packages: rc=$rc output: $out"
fi

if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
    out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$tmp/bin" bash "$tmp/install-deps.sh" 2>&1); rc=$?
    if [ $rc -eq 1 ] && grep -q "sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends .*verilator" <<<"$out"; then
        echo "PASS non-root-prints-install-command"
    else
        echo "FAIL non-root-prints-install-command: rc=$rc output: $out"
    fi
else
    echo "SKIP non-root-prints-install-command: needs root and setpriv to become another user"
fi

# On this machine everything is installed (make test ran the installer first): silent, 0.
out=$(bash "$script" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
    echo "PASS all-present-is-silent"
else
    echo "FAIL all-present-is-silent: rc=$rc output: $out"
fi
