#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Installs the Debian packages rvmesh needs, and only those that are missing; then the npm
# package of the browser tests (tools/browser: playwright-core, which drives Debian's
# Chromium; no browser is downloaded) into tools/browser/node_modules, from its lock file.
# Run as root it installs them with apt-get; otherwise it prints the exact command.
# Usage: tools/install-deps.sh [--check]   (--check: only report, exit 1 if any is missing)
set -u

# package             a command it provides, or a file (a pattern: any match) it installs
# (clang and libclang-rt-dev: libFuzzer for make fuzz and tests/fuzz)
required=(
  "make                      make"
  "verilator                 verilator"
  "g++                       g++"
  "zlib1g-dev                /usr/include/zlib.h"
  "gcc-riscv64-unknown-elf   riscv64-unknown-elf-gcc"
  "picolibc-riscv64-unknown-elf  /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs"
  "qemu-system-misc          qemu-system-riscv32"
  "yosys                     yosys"
  "nextpnr-ice40             nextpnr-ice40"
  "fpga-icestorm             icepack"
  "openfpgaloader            openFPGALoader"
  "jq                        jq"
  "iverilog                  iverilog"
  "clang                     clang"
  "libclang-rt-dev           /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a"
  "chromium                  /usr/bin/chromium"
  "nodejs                    node"
  "npm                       npm"
)

missing=()
for entry in "${required[@]}"; do
  read -r pkg probe <<<"$entry"
  if [ "${probe#/}" != "$probe" ]; then
    compgen -G "$probe" >/dev/null || missing+=("$pkg")   # a path, or a pattern
  else
    command -v "$probe" >/dev/null 2>&1 || missing+=("$pkg")
  fi
done

# the npm package of tools/browser, as its lock file pins it
browser_dir="$(cd "$(dirname "$0")" && pwd)/browser"
browser_ok() {
  local want have
  want=$(sed -n 's/.*"playwright-core": *"\([^"]*\)".*/\1/p' "$browser_dir/package.json" | head -n 1)
  have=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$browser_dir/node_modules/playwright-core/package.json" 2>/dev/null | head -n 1)
  [ -n "$want" ] && [ "$want" = "$have" ]
}
install_browser() {
  browser_ok && return 0
  if [ "${1:-}" = "--check" ]; then
    echo "missing npm package: playwright-core in tools/browser (tools/install-deps.sh installs it)"
    return 1
  fi
  echo "rvmesh: installing the browser tests' npm package (tools/browser)"
  if ! (cd "$browser_dir" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error) >/tmp/rvmesh-npm.log 2>&1; then
    echo "rvmesh: npm ci in tools/browser failed; the last lines of /tmp/rvmesh-npm.log:" >&2
    tail -n 20 /tmp/rvmesh-npm.log >&2
    return 1
  fi
}

if [ "${#missing[@]}" -eq 0 ]; then
  install_browser "${1:-}"
  exit $?
fi
if [ "${1:-}" = "--check" ]; then
  echo "missing Debian packages: ${missing[*]}"
  install_browser --check
  exit 1
fi

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "rvmesh needs these Debian packages: ${missing[*]}" >&2
  echo "Install them as root with:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
echo "rvmesh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/rvmesh-apt.log 2>&1; then
  echo "rvmesh: apt-get failed; the last lines of /tmp/rvmesh-apt.log:" >&2
  tail -n 20 /tmp/rvmesh-apt.log >&2
  exit 1
fi
echo "rvmesh: installed ${missing[*]}"
install_browser
