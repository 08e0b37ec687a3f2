#!/usr/bin/env python3
"""In-situ probe cost benchmark (issue: active time, overhead compensation).

Builds bench/accuracy/insitu.c with the plugin, runs it --repeat times (each
run is a new process: its own calibration, its own layout luck) and prints,
per leaf body length L (dependent multiply/xorshift steps), in TSC ticks per
call:

  plain      the uninstrumented twin loop, best of 5 (the truth)
  instr      the instrumented loop's elapsed per call (profile, mean of 5)
  added      instr - plain: what the probes really cost in this code
  table      what the overhead table removes per call (enter + exit)
  err        (active - plain) / plain: the corrected figure's error

usage: insitu.py --build-dir BUILD [--repeat N]
"""
import argparse
import json
import os
import subprocess
import tempfile

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "insitu.c")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--wrap", default="",
                    help="command prefix for each run, e.g. 'taskset -c 0'")
    ap.add_argument("--options", default="", help="ACTIVETIME_OPTIONS for the runs")
    a = ap.parse_args()
    build = os.path.abspath(a.build_dir)
    work = tempfile.mkdtemp(prefix="activetime-insitu.")
    exe = os.path.join(work, "insitu")
    subprocess.run([os.path.join(build, "bin", "activetime-clang"), "-O2", "-g", SRC,
                    "-o", exe], check=True)
    print("ActiveTime in-situ probe cost (ticks per call; one line per process)")
    for rep in range(a.repeat):
        for f in os.listdir(work):
            if f.endswith(".raw"):
                os.unlink(os.path.join(work, f))
        env = dict(os.environ)
        if a.options:
            env["ACTIVETIME_OPTIONS"] = a.options
        out = subprocess.run(a.wrap.split() + [exe], cwd=work, check=True,
                             capture_output=True, text=True, env=env).stdout.split("\n")
        calls = runs = 0
        plain = {}
        for ln in out:
            p = ln.split()
            if p and p[0] == "calls":
                calls, runs = int(p[1]), int(p[3])
            elif p and p[0] == "plain":
                plain[int(p[1])] = float(p[2])
        raws = [os.path.join(work, f) for f in os.listdir(work) if f.endswith(".raw")]
        rep_json = json.loads(subprocess.run(
            [os.path.join(build, "bin", "activetime"), "report", "--json"] + raws,
            check=True, capture_output=True, text=True).stdout)
        proc = rep_json["processes"][0]
        rate = proc["tick_rate"]
        ovh = proc.get("overhead", {})
        table = ovh.get("enter_ticks", 0) + ovh.get("exit_ticks", 0)
        fs = {f["name"]: f for f in rep_json["functions"]}
        cells = []
        for L in sorted(plain):
            lp = fs["loop%d" % L]
            per = lp["elapsed_ns"] * rate / 1e9 / (calls * runs)
            act = lp["active_ns"] * rate / 1e9 / (calls * runs)
            cells.append("L=%-2d plain %6.1f instr %6.1f added %5.1f err %+6.1f%%" %
                         (L, plain[L], per, per - plain[L], 100 * (act - plain[L]) / plain[L]))
        print("process %d: overhead table enter+exit = %.1f ticks" % (rep, table))
        for c in cells:
            print("  " + c)


if __name__ == "__main__":
    main()
