#!/usr/bin/env bash
# Second test command (docs/building.md), not run by scripts/test.sh:
#  1. build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer (runtime and
#     test programs instrumented): the runtime's unit tests and the
#     end-to-end, stress and OpenMP tests;
#  2. build-tsan/: ThreadSanitizer (runtime and test programs instrumented):
#     the runtime's unit tests and the end-to-end and stress tests (every
#     threaded and sampling test is among them). The OpenMP tests are
#     unsupported under TSan (test/openmp/lit.local.cfg: libomp is not
#     instrumented), and so is e2e/recursion.c (deeper than TSan's own call
#     stack). Racy-by-design reads are annotated in the runtime
#     (runtime/activetime_tsan.h); there is no suppression file.
# Each part takes a few minutes on 2 cores (docs/building.md).
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lit=/usr/lib/llvm-19/build/utils/lit/lit.py

run() { # build-dir sanitize lit-filter
  local build=$1 san=$2 filter=$3
  ACTIVETIME_BUILD_DIR=$build "$src/scripts/build.sh" -DACTIVETIME_SANITIZE="$san" \
    -DACTIVETIME_BUILD_FUZZERS=OFF -DACTIVETIME_BUILD_SHARED_RUNTIME=OFF
  ACTIVETIME_OPTIONS=write_profile=0 "$build/bin/ActiveTimeRuntimeTests"
  python3 "$lit" -sv --filter "$filter" "$build/test"
}

run "$src/build-asan" "address;undefined" "e2e/|stress/|openmp/"
run "$src/build-tsan" "thread" "e2e/|stress/"
echo "sanitizer runs passed"
