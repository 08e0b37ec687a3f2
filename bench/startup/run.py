#!/usr/bin/env python3
#===- bench/startup/run.py - what an instrumented process pays to start ---===#
#
# Part of ActiveTime. Builds a hello world (puts and return) plain
# (clang-19 -O2) and with the profiler (bin/activetime-clang -O2), then runs
# them interleaved, one process at a time, --runs times each, timing each
# process's wall time from fork to exit (os.posix_spawn + waitpid, so the
# harness's own cost is the same for all). Variants: plain; activetime with
# default options; code_samples=0; code_samples=0 and switch_source=none
# (the runtime's start-up and exit-time write alone); and
# calibrate_at_start=1 (the probe table calibrated before main, as until
# 2026-11-28). Prints each variant's median and quartiles in ms and the
# median's excess over plain. Target (issue "No start-up tax"): default
# options within 1 ms of plain.
#
# usage: run.py --build-dir BUILD [--runs 100]
#
#===----------------------------------------------------------------------===#
import argparse
import os
import statistics
import subprocess
import tempfile
import time

HELLO = '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n'


def run_once(exe, env):
    t0 = time.perf_counter()
    pid = os.posix_spawn(exe, [exe], env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status = os.waitpid(pid, 0)
    dt = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("%s failed" % exe)
    return dt * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--runs", type=int, default=100)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="at-bench-startup-")
    src = os.path.join(work, "hello.c")
    with open(src, "w") as f:
        f.write(HELLO)
    plain = os.path.join(work, "hello-plain")
    inst = os.path.join(work, "hello-at")
    subprocess.run(["clang-19", "-O2", src, "-o", plain], check=True)
    subprocess.run([os.path.join(a.build_dir, "bin", "activetime-clang"),
                    "-O2", src, "-o", inst], check=True)
    out = "output=%s/p.raw" % work
    variants = [
        ("plain", plain, ""),
        ("default options", inst, out),
        ("code_samples=0", inst, out + ":code_samples=0"),
        ("no perf events", inst,
         out + ":code_samples=0:switch_source=none"),
        ("calibrate_at_start=1", inst, out + ":calibrate_at_start=1"),
    ]
    times = {name: [] for name, _, _ in variants}
    for r in range(a.runs):
        for name, exe, opts in variants[r % len(variants):] + \
                variants[:r % len(variants)]:
            env = dict(os.environ)
            env.pop("ACTIVETIME_OPTIONS", None)
            if opts:
                env["ACTIVETIME_OPTIONS"] = opts
            times[name].append(run_once(exe, env))
    base = statistics.median(times["plain"])
    print("hello world, %d interleaved runs each (wall ms per process)" % a.runs)
    for name, _, _ in variants:
        t = sorted(times[name])
        q1, med, q3 = t[len(t) // 4], statistics.median(t), t[3 * len(t) // 4]
        print("  %-20s median %6.2f ms (quartiles %.2f-%.2f)  +%.2f ms over plain"
              % (name, med, q1, q3, med - base))


if __name__ == "__main__":
    main()
