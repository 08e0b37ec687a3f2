#!/usr/bin/env bash
# Reproducer found by bench/corpus (fmtlib's assert-test, a googletest death
# test): a child process made by clone() without CLONE_VM (googletest's
# ExecDeathTestSpawnChild) dies of SIGSEGV in its first instrumented call.
# The plain build prints "child says hello" and "child exited 3".
# Usage: bench/corpus/repro/clone-child/run.sh [BUILD_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../../../build}" && pwd)
out=$(mktemp -d)
clang++-19 -O2 -g "$here/main.cpp" "$here/child.cpp" -o "$out/plain"
"$build/bin/activetime-clang++" -O2 -g "$here/main.cpp" "$here/child.cpp" -o "$out/at"
echo "plain:";      "$out/plain" 2>&1
echo "activetime:"; ACTIVETIME_OPTIONS=output=$out/ "$out/at" 2>&1
rm -rf "$out"
