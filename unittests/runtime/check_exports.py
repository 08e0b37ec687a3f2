#!/usr/bin/env python3
"""runtime-exports: fail if the shipped runtime defines a global symbol that is
not __activetime_* or ompt_start_tool, the OpenMP tool entry point libomp
looks up by name (it must link next to the sanitizer runtimes, which carry
their own copy of sanitizer_common).

usage: check_exports.py LLVM_NM LIBRARY...   (.a: static symbol table,
.so: dynamic symbol table)
"""
import subprocess
import sys


# Looked up by name by LLVM's OpenMP runtime (OMPT tool registration).
ALLOWED = {"ompt_start_tool"}


def defined_globals(nm, lib):
    args = [nm, "--defined-only", "--extern-only", "--format=just-symbols"]
    if lib.endswith(".so") or ".so." in lib:
        args.append("--dynamic")
    out = subprocess.run(args + [lib], check=True, capture_output=True,
                         text=True).stdout
    syms = []
    for line in out.splitlines():
        line = line.strip()
        if not line or line.endswith(":"):  # archive member header
            continue
        syms.append(line)
    return syms


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    nm, libs = sys.argv[1], sys.argv[2:]
    failed = False
    for lib in libs:
        syms = defined_globals(nm, lib)
        bad = [s for s in syms
               if not s.startswith("__activetime_") and s not in ALLOWED]
        if not syms:
            print(f"FAIL {lib}: no __activetime_* symbols defined")
            failed = True
        if bad:
            failed = True
            print(f"FAIL {lib}: {len(bad)} global symbol(s) not __activetime_* or allowed:")
            for s in bad[:50]:
                print(f"  {s}")
        else:
            print(f"ok   {lib}: {len(syms)} exported symbols, all __activetime_* or ompt_start_tool")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
