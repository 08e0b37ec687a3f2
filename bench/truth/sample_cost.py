#!/usr/bin/env python3
#===- bench/truth/sample_cost.py - what code samples cost, side by side ---===#
#
# Part of ActiveTime. Runs the truth harness's builds (bench/truth/run.py
# must have built them: <build>/bench-truth/<program>-plain and
# -activetime) of lua (calls.lua 3), sqlite3 (sqlite-workload.sql in
# memory) and tiny-flat in interleaved rounds, plain and instrumented with
# default options, code_samples=0, measure_in_process=0 (runtime threads
# from the start) and lower code_sample_budget values (and the build
# without the sample poll, when run.py has built it), and prints each
# variant's median process CPU time (wait4's user + system, every thread
# of the process, the runtime's own included) over plain's.
#
# usage: sample_cost.py --build-dir BUILD [--rounds 21] [--budgets 5,3]
#
#===----------------------------------------------------------------------===#
import argparse
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def programs(work):
    return {
        "lua": ([os.path.join(work, "lua-%s", "lua"),
                 os.path.join(ROOT, "bench", "overhead", "calls.lua"), "3"],
                None),
        "sqlite3": ([os.path.join(work, "sqlite3-%s", "sqlite3"), ":memory:"],
                    os.path.join(HERE, "sqlite-workload.sql")),
        # 20 M counted calls of a 0.5 ns callee: the entry's own cost.
        "tiny-flat": ([os.path.join(work, "tiny-%s", "tiny"), "flat",
                       "20000000"], None),
    }


def cpu_ms(argv, stdin, opts, out):
    env = dict(os.environ)
    env.pop("ACTIVETIME_OPTIONS", None)
    if opts is not None:
        env["ACTIVETIME_OPTIONS"] = "output=" + out + (":" + opts if opts else "")
    with open(stdin) if stdin else open(os.devnull) as fin:
        p = subprocess.Popen(argv, stdin=fin, stdout=subprocess.DEVNULL,
                             env=env)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("%s failed" % argv[0])
    return (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--budgets", default="5,3")
    a = ap.parse_args()
    work = os.path.join(a.build_dir, "bench-truth")
    out = os.path.join(work, "sample-cost.raw")
    variants = [("plain", "plain", None), ("default", "activetime", ""),
                ("code_samples=0", "activetime", "code_samples=0")]
    # Runtime threads from the start (glibc's multi-threaded paths for the
    # whole run) against the helper process of a single-threaded program.
    variants += [("measure_in_process=0", "activetime", "measure_in_process=0"),
                 ("code_samples=0:measure_in_process=0", "activetime",
                  "code_samples=0:measure_in_process=0")]
    variants += [("code_sample_budget=" + b, "activetime",
                  "code_sample_budget=" + b)
                 for b in a.budgets.split(",") if b]
    # The build without the sample poll's check at every entry, if the
    # harness built it (run.py --at-flags='-mllvm -activetime-sample-poll=0'):
    # the check's cost (code_samples=0), and a runtime thread reading the
    # rings once one fills (default).
    nopoll = "activetime-sample-poll=0"
    if all(os.path.exists(argv[0] % nopoll)
           for argv, _ in programs(work).values()):
        variants += [("no-poll", nopoll, ""),
                     ("no-poll:code_samples=0", nopoll, "code_samples=0")]
    print("process CPU time, median of %d interleaved rounds, over plain's"
          % a.rounds)
    for name, (argv, stdin) in programs(work).items():
        times = {v[0]: [] for v in variants}
        for r in range(a.rounds):
            k = r % len(variants)
            for vn, build, opts in variants[k:] + variants[:k]:
                exe = [argv[0] % build] + argv[1:]
                times[vn].append(cpu_ms(exe, stdin, opts, out))
        base = statistics.median(times["plain"])
        # Also the median of each round's own ratio: rounds on this VM
        # drift together.
        print("  %-8s %s" % (name, "  ".join(
            "%s %.0f ms (%.2fx, per round %.2fx)" % (
                v, statistics.median(times[v]),
                statistics.median(times[v]) / base,
                statistics.median(t / p for t, p in zip(times[v],
                                                        times["plain"])))
            for v in times)))


if __name__ == "__main__":
    main()
