#!/usr/bin/env bash
# Quick start, part 2: build everything and run the whole test suite
# (lit + unit tests) through ctest. ACTIVETIME_LLVM_VERSION=22 builds and tests
# against LLVM/Clang 22 in build-22/ (see scripts/build.sh).
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
llvm=${ACTIVETIME_LLVM_VERSION:-19}
if [ "$llvm" = 19 ]; then default_build=$src/build; else default_build=$src/build-$llvm; fi
build=${ACTIVETIME_BUILD_DIR:-$default_build}
"$src/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
