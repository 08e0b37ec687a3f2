#!/usr/bin/env python3
"""Hot-function ordering from a profile (`export --format=symbol-order`).

Generates an instruction-cache-bound C program: FUNCS functions of a few
hundred bytes each, of which every STRIDE-th is hot; the hot ones are called
through a table in a fixed random order, so without ordering the hot code is
spread over FUNCS * size bytes (many cache lines, pages and iTLB entries),
with ordering it is packed into HOT * size bytes. Then:

  1. profile: activetime-clang -O2 -ffunction-sections, a short run,
     `activetime export --format=symbol-order` -> order.txt
  2. build twice with clang-19 -O2 -ffunction-sections and ld.lld-19, without
     and with -Wl,--symbol-ordering-file=order.txt
  3. run both side by side (ABAB), REPEAT times each; the program times its
     kernel itself; print the medians, the best runs and the ratio
     unordered / ordered (> 1: the ordering helps), and the address span of
     the hot functions in each binary (llvm-nm-19).

Whatever the ratio is, it is reported; docs/performance.md records it.

usage: run.py --build-dir BUILD [--repeat N] [--funcs N] [--stride N] [--keep DIR]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile

LLD = "/usr/lib/llvm-19/bin/ld.lld"


def sh(cmd, env=None, cwd=None):
    return subprocess.run(cmd, env=env, cwd=cwd, check=True, capture_output=True,
                          text=True).stdout


def generate(path, funcs, stride, ops):
    rnd = random.Random(8)
    hot = list(range(0, funcs, stride))
    with open(path, "w") as f:
        f.write("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n"
                "#include <time.h>\n\n")
        for i in range(funcs):
            f.write("__attribute__((noinline)) uint64_t f%d(uint64_t x) {\n" % i)
            for k in range(ops):
                c1 = rnd.getrandbits(63) | 1
                c2 = rnd.getrandbits(31)
                f.write("  x = (x * %dull + %du) ^ (x >> %d);\n" % (c1, c2, 7 + k % 23))
            f.write("  return x;\n}\n")
        order = hot[:]
        rnd.shuffle(order)
        f.write("static uint64_t (*const hot[])(uint64_t) = {%s};\n" %
                ", ".join("f%d" % i for i in order))
        f.write("""
int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  uint64_t x = 1;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long it = 0; it < iters; ++it)
    for (unsigned j = 0; j < sizeof(hot) / sizeof(hot[0]); ++j)
      x = hot[j](x);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("checksum %llu\\nkernel_ns %lld\\n", (unsigned long long)x,
         (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)));
  return 0;
}
""")
    return ["f%d" % i for i in hot]


def run(exe, iters):
    out = dict(l.split(" ", 1) for l in sh([exe, str(iters)]).splitlines())
    return out["checksum"], int(out["kernel_ns"])


def hot_span(exe, hot):
    addrs = {}
    for line in sh(["llvm-nm-19", "--defined-only", exe]).splitlines():
        parts = line.split()
        if len(parts) == 3:
            addrs[parts[2]] = int(parts[0], 16)
    a = [addrs[h] for h in hot]
    return max(a) - min(a)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--funcs", type=int, default=8000)
    ap.add_argument("--stride", type=int, default=16)
    ap.add_argument("--ops", type=int, default=8)
    ap.add_argument("--iters", type=int, default=4000)
    ap.add_argument("--keep")
    args = ap.parse_args()
    bindir = os.path.join(os.path.abspath(args.build_dir), "bin")
    work = args.keep or tempfile.mkdtemp(prefix="activetime-symorder-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "icache.c")
    hot = generate(src, args.funcs, args.stride, args.ops)

    # 1. Profile a short run and export the order.
    prof = os.path.join(work, "profiled")
    sh([os.path.join(bindir, "activetime-clang"), "-O2", "-ffunction-sections",
        src, "-o", prof])
    for f in os.listdir(work):
        if f.endswith(".raw"):
            os.unlink(os.path.join(work, f))
    sh([prof, "20"], cwd=work)
    raw = [os.path.join(work, f) for f in os.listdir(work) if f.endswith(".raw")]
    order = os.path.join(work, "order.txt")
    sh([os.path.join(bindir, "activetime"), "export", "--format=symbol-order",
        "-o", order] + raw)
    listed = open(order).read().split()

    # 2. Two builds that differ only in the ordering file.
    flags = ["clang-19", "-O2", "-ffunction-sections", "--ld-path=" + LLD, src]
    plain = os.path.join(work, "unordered")
    ordered = os.path.join(work, "ordered")
    sh(flags + ["-o", plain])
    sh(flags + ["-Wl,--symbol-ordering-file=" + order,
                "-Wl,--no-warn-symbol-ordering", "-o", ordered])

    # 3. Side by side.
    times = {plain: [], ordered: []}
    sums = set()
    for r in range(args.repeat):
        for exe in ((plain, ordered) if r % 2 == 0 else (ordered, plain)):
            c, ns = run(exe, args.iters)
            sums.add(c)
            times[exe].append(ns)
    if len(sums) != 1:
        sys.exit("checksums differ: %s" % sums)
    mp, mo = statistics.median(times[plain]), statistics.median(times[ordered])
    bp, bo = min(times[plain]), min(times[ordered])
    calls = args.iters * len(hot)
    print("program: %d functions (%d ops each), %d hot (every %dth), %d calls per run"
          % (args.funcs, args.ops, len(hot), args.stride, calls))
    print("order file: %d names (%d of the hot functions first)" % (
        len(listed), sum(1 for n in listed[:len(hot)] if n in set(hot))))
    print("text size: %d bytes" % os.path.getsize(plain))
    print("hot span: unordered %d bytes, ordered %d bytes" % (
        hot_span(plain, hot), hot_span(ordered, hot)))
    print("unordered: median %.2f ms, best %.2f ms (%.2f ns/call)" % (mp / 1e6, bp / 1e6, bp / calls))
    print("ordered:   median %.2f ms, best %.2f ms (%.2f ns/call)" % (mo / 1e6, bo / 1e6, bo / calls))
    print("speed-up unordered/ordered: median %.3fx, best %.3fx" % (mp / mo, bp / bo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
