#!/usr/bin/env bash
# Installs what is missing, configures and builds ActiveTime into $ACTIVETIME_BUILD_DIR
# (default: build/ in the source tree, build-22/ when ACTIVETIME_LLVM_VERSION=22).
# ACTIVETIME_LLVM_VERSION selects LLVM/Clang 19 (default) or 22. Extra arguments
# are passed to cmake.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
llvm=${ACTIVETIME_LLVM_VERSION:-19}
if [ "$llvm" = 19 ]; then default_build=$src/build; else default_build=$src/build-$llvm; fi
build=${ACTIVETIME_BUILD_DIR:-$default_build}

crt=$(ACTIVETIME_LLVM_VERSION=$llvm "$src/scripts/install-deps.sh" | tail -n1)

configured=$(sed -n 's/^ACTIVETIME_LLVM_VERSION:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ -n "$configured" ] && [ "$configured" != "$llvm" ]; then
  echo "build.sh: $build is configured for LLVM $configured, not $llvm;" \
       "use another ACTIVETIME_BUILD_DIR" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER="clang-$llvm" -DCMAKE_CXX_COMPILER="clang++-$llvm" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACTIVETIME_LLVM_VERSION="$llvm" \
    -DACTIVETIME_COMPILER_RT_SOURCE_DIR="$crt" "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"
fi
cmake --build "$build" -j "$(nproc)"
