#!/usr/bin/env bash
# Quick start, part 2: build everything and run the whole test suite
# (lit + unit tests) through ctest.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ACTIVETIME_BUILD_DIR:-$src/build}
"$src/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
