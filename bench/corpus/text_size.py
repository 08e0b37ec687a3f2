#!/usr/bin/env python3
#===- bench/corpus/text_size.py - where an instrumented build's text goes -===#
#
# Part of ActiveTime. For the corpus programs (bench/corpus/run.py's, built
# into the same caches), the `.text` of the main binary or library plain
# and instrumented, split into: the timed copies (symbols ending in
# abi::kTimedCopySuffix, `.activetime.timed`), the static runtime
# (executables only: the `.text` an empty C++ program gains from the
# wrappers), and the rest (the functions with their counts and in-place
# probes, the module constructors). --at-flags adds compiler flags to the
# instrumented build only (e.g. "-mllvm -activetime-clone-max-size=400" for
# the former default); each flag set is its own cached build. No test is
# run (bench/corpus/run.py does that).
#
#===----------------------------------------------------------------------===#

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as C  # noqa: E402

P = C.P
SUFFIX = ".activetime.timed"  # abi::kTimedCopySuffix


def symbols(path):
    """[(size, type, name)] of the defined text symbols with a size."""
    r = subprocess.run(["nm", "-S", "--defined-only", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            out.append((int(f[1], 16), f[2], f[3]))
    return out


def runtime_text(build_dir):
    """The `.text` an empty C++ executable gains from the wrappers (the
    static runtime and what it pulls in)."""
    d = tempfile.mkdtemp(prefix="text-size-")
    src = os.path.join(d, "empty.cpp")
    with open(src, "w") as f:
        f.write("int main() { return 0; }\n")
    sizes = []
    for cxx in (P.CLANGXX, os.path.join(build_dir, "bin", "activetime-clang++")):
        exe = os.path.join(d, "a.out")
        subprocess.run([cxx, "-O2", "-g", src, "-o", exe], check=True)
        sizes.append(C.text_size(exe))
    return sizes[1] - sizes[0]


def measure(entry, args, at_flags, rt):
    flags = entry.flags
    plain = P.plain_variant()
    at = P.activetime_variant(args.build_dir, at_flags)
    if at_flags:
        # cmake links with the compile flags: an -mllvm option is unused
        # there (an error under -Werror); with -flto the compile step runs
        # the pass (its pre-link half), so the option belongs there
        at.ldflags.append("-Wno-unused-command-line-argument")
    for v in (plain, at):
        v.cflags += [f for f in flags if not f.startswith("-fuse-ld")]
        v.ldflags += flags
        if flags:
            v.name += "-" + "".join(f.strip("-").split("=")[0][:4] for f in flags)
    row = {"program": entry.name, "at_flags": at_flags}
    for name, v in (("plain", plain), ("activetime", at)):
        C.log("%s (%s)" % (entry.name, v.name))
        outs, secs, err = C.cached_build(entry, v, args)
        if err:
            row["error"] = "%s: %s" % (name, C.first_error(err))
            return row
        path = outs[entry.main]
        row["text_" + name] = C.text_size(path)
        row["build_s_" + name] = secs
        if name == "activetime":
            syms = symbols(path)
            copies = [s for s in syms if s[2].endswith(SUFFIX)]
            row["copies"] = len(copies)
            row["copy_bytes"] = sum(s[0] for s in copies)
            row["copy_sizes"] = sorted(s[0] for s in copies)
            row["executable"] = not path.endswith(".so") and ".so." not in path
    row["runtime_bytes"] = rt if row["executable"] else 0
    row["text_ratio"] = row["text_activetime"] / row["text_plain"]
    row["build_ratio"] = (row["build_s_activetime"] / row["build_s_plain"]
                          if row["build_s_plain"] and row["build_s_activetime"] else None)
    return row


def main():
    ap = C.corpus_parser(__doc__)
    ap.add_argument("--at-flags", default="",
                    help="extra flags of the instrumented build, space-separated")
    args, only = C.corpus_args(ap)
    at_flags = args.at_flags.split()
    rt = runtime_text(args.build_dir)
    rows = [measure(e, args, at_flags, rt) for e in C.corpus() if not only or e.name in only]
    print("flags of the instrumented build: %s" % (" ".join(at_flags) or "(default)"))
    print("%-9s %10s %10s %6s %7s %10s %10s %10s %6s %7s" % (
        "program", "plain", "instr.", "text x", "copies", "copy B", "runtime B", "rest B",
        "x-cp", "build x"))
    for r in rows:
        if "error" in r:
            print("%-9s %s" % (r["program"], r["error"]))
            continue
        rest = r["text_activetime"] - r["copy_bytes"] - r["runtime_bytes"]
        print("%-9s %10d %10d %6.2f %7d %10d %10d %10d %6.2f %7s" % (
            r["program"], r["text_plain"], r["text_activetime"], r["text_ratio"], r["copies"],
            r["copy_bytes"], r["runtime_bytes"], rest,
            (r["text_activetime"] - r["copy_bytes"]) / r["text_plain"],
            "%.2f" % r["build_ratio"] if r["build_ratio"] else "-"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
