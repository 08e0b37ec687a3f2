#!/usr/bin/env bash
# Installs what is missing, configures and builds ActiveTime into $ACTIVETIME_BUILD_DIR
# (default: build/ in the source tree). Extra arguments are passed to cmake.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ACTIVETIME_BUILD_DIR:-$src/build}

crt=$("$src/scripts/install-deps.sh" | tail -n1)

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DACTIVETIME_COMPILER_RT_SOURCE_DIR="$crt" "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"
fi
cmake --build "$build" -j "$(nproc)"
