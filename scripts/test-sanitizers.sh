#!/usr/bin/env bash
# Second test command (docs/user-guide.md): the runtime's unit tests and the
# end-to-end, stress and OpenMP tests again, with AddressSanitizer +
# UndefinedBehaviorSanitizer (runtime and programs instrumented) in
# build-asan/. Takes about as long as the main suite; not run by
# scripts/test.sh. ThreadSanitizer is not run yet: see docs/user-guide.md.
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
echo "sanitizer runs passed"
