#!/usr/bin/env bash
# Quick start, part 1: build everything, compile the bundled example with the
# plugin, run it and print its profile.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ACTIVETIME_BUILD_DIR:-$src/build}
"$src/scripts/build.sh"

out="$build/examples/demo-run"
rm -rf "$out" && mkdir -p "$out"
echo "== compiling examples/demo with the ActiveTime plugin"
"$build/bin/activetime-clang" -O2 -g "$src/examples/demo/demo.c" -o "$out/demo" -lpthread
echo "== running it"
(cd "$out" && ./demo)
raw=$(ls "$out"/activetime.demo.*.raw)
echo "== activetime report $raw"
"$build/bin/activetime" report --tree "$raw"
