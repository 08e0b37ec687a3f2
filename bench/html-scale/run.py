#!/usr/bin/env python3
#===- bench/html-scale/run.py - The HTML pages of huge profiles ------------===#
#
# Part of ActiveTime. Writes `activetime report --html` and `activetime diff
# --html` of synthetic profiles far larger than a browser can draw whole,
# and prints per page its size, the seconds it took and the tool's peak RSS
# (/usr/bin/time -v), plus the frames drawn of the call tree's. The
# profiles (test/Inputs/mkraw.py, so nothing is compiled or run):
#   depth-10k, depth-50k, depth-200k
#               one thread, main over a recursion D levels deep cycling
#               through three functions, every level a new call path, 1 us
#               of self time each; on-CPU samples at the deepest level and
#               halfway (sample paths D and D/2 frames long)
#   broad-1.4m  one thread, 1,411,110 call paths: fan-out 10 for five
#               levels, then 13, over 2,000 functions (each calling the
#               same up to 13 callees wherever it runs), skewed self times
# Each page must stay within the limits (--max-mb, --max-seconds,
# --max-rss-gib; the defaults are the targets of docs/performance.md,
# "Scale: the HTML report"); the script exits 1 if one does not, 2 if the
# tool fails. With --chromium, each page is also opened in headless
# Chromium (test/browser's DevTools client): the seconds until its script
# has run and the page has loaded, and its console errors (which fail the
# run too). --prune-below P is passed on.
#
# usage: run.py [--build-dir build] [--work DIR] [--case NAME]...
#               [--chromium] [--prune-below P]
#
#===----------------------------------------------------------------------===#

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MKRAW = os.path.join(SRC, "test", "Inputs", "mkraw.py")
TICK = 1000  # ticks per microsecond (tick_rate 1 GHz)


def process(functions, nodes, extra=None):
    """A mkraw description of one process and thread."""
    t = {"tid": 1, "name": "main", "start_tick": 0, "end_tick": nodes_end(nodes, extra),
         "switch_source": 1}
    t.update(extra or {})
    t["nodes"] = nodes
    return {"processes": [{
        "tick_rate": 1000000000, "start_tick": 0, "end_tick": t["end_tick"],
        "pid": 1, "exe": "/bin/scale",
        "overhead": {"enter": 3, "exit": 2.5, "batches": 5, "spread_permille": 12},
        "modules": [{"name": "scale.c", "path": "/bin/scale",
                     "functions": [{"name": f, "file": "/src/scale.c", "line": i + 1}
                                   for i, f in enumerate(functions)]}],
        "threads": [t]}]}


def nodes_end(nodes, extra):
    end = nodes[0][3] if nodes else 0
    if extra and "chain" in extra:
        end += extra["chain"]["depth"] * extra["chain"]["excl"]
    return end + 1000


def deep(depth):
    """main over a D-deep chain (mkraw's "chain"), samples deep in it."""
    excl = TICK
    main_incl = depth * excl + excl
    spec = process(["main", "f", "g", "h"],
                   [[-1, 0, 1, main_incl, excl]],
                   {"chain": {"funcs": [1, 2, 3], "depth": depth, "excl": excl}})
    last = depth  # node 0 is main, the chain nodes 1..depth
    p = spec["processes"][0]
    p["samples"] = {"interval": 1000000, "start_tick": 0, "end_tick": main_incl, "sweeps": 3,
                    "flags": 3,
                    "samples": [[1000, 2000000, 0, last, 0, depth + 1],
                                [2000, 1000000, 0, depth // 2, 0, depth // 2 + 1],
                                [3000, 1000000, 0, last, 1, depth + 1]]}
    return spec


def broad(fanouts=(10, 10, 10, 10, 10, 13), functions=2000):
    """A wide tree: every node at level k has fanouts[k] children."""
    names = ["main"] + ["fn%d" % i for i in range(1, functions)]
    parents, funcs, excl = [-1], [0], [5 * TICK]
    level = [0]
    for fan in fanouts:
        nxt = []
        for p in level:
            for c in range(fan):
                i = len(parents)
                parents.append(p)
                # A function calls the same callees wherever it runs, as
                # code does: the call graph stays a program's size.
                funcs.append(1 + (funcs[p] * 13 + c) % (functions - 1))
                # Skewed: a few heavy paths, many light ones.
                h = (i * 2654435761) & 0xFFFF
                excl.append(1 + (h * h >> 24) * (3 if h % 97 == 0 else 1))
                nxt.append(i)
        level = nxt
    incl = list(excl)
    for i in range(len(parents) - 1, 0, -1):
        incl[parents[i]] += incl[i]
    nodes = [[parents[i], funcs[i], 1, incl[i], excl[i]] for i in range(len(parents))]
    return process(names, nodes)


CASES = {
    "depth-10k": lambda: deep(10000),
    "depth-50k": lambda: deep(50000),
    "depth-200k": lambda: deep(200000),
    "broad-1.4m": broad,
}


def timed(cmd):
    """Runs cmd under /usr/bin/time -v: (seconds, peak RSS in bytes)."""
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.stderr.write("run.py: %s failed (exit %d)\n" % (" ".join(cmd), r.returncode))
        sys.exit(2)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", r.stderr)
    h, m, s = wall.groups()
    secs = int(h or 0) * 3600 + int(m) * 60 + float(s)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1)) * 1024
    return secs, rss


def frames(page):
    """The call tree's frames drawn and in the graph (the page's first flame
    graph: the report's call_tree, the diff's flame), read off the page."""
    with open(page, encoding="utf-8", errors="replace") as f:
        m = re.search(r'"frames_in_graph":(\d+),"frames_drawn":(\d+)', f.read())
    return (int(m.group(2)), int(m.group(1))) if m else (None, None)


def open_page(page):
    """Seconds until headless Chromium has loaded the page, and its console
    errors."""
    sys.path.insert(0, os.path.join(SRC, "test", "browser"))
    from report_browser import Browser, console_errors
    with tempfile.TemporaryDirectory(prefix="activetime-chromium-") as prof:
        b = Browser(shutil.which("chromium") or "chromium", prof)
        try:
            b.call("Runtime.enable")
            b.call("Log.enable")
            b.call("Page.enable")
            start = time.time()
            b.call("Page.navigate", url="file://" + os.path.abspath(page))
            b.wait_event("Page.loadEventFired", timeout=600)
            rendered = b.eval("document.body.getAttribute('data-rendered') === '1'")
            secs = time.time() - start
            errors = console_errors(b.events)
            if not rendered:
                errors.append("the page's script did not run to the end")
            return secs, errors
        finally:
            b.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(SRC, "build"))
    ap.add_argument("--work", help="keep the profiles and pages here")
    ap.add_argument("--case", action="append", choices=sorted(CASES),
                    help="only this case (repeatable; default all)")
    ap.add_argument("--max-mb", type=float, default=50)
    ap.add_argument("--max-seconds", type=float, default=60)
    ap.add_argument("--max-rss-gib", type=float, default=2)
    ap.add_argument("--chromium", action="store_true", help="open each page in headless Chromium")
    ap.add_argument("--prune-below", help="passed on to report and diff")
    args = ap.parse_args()
    tool = os.path.join(args.build_dir, "bin", "activetime")
    work = args.work or tempfile.mkdtemp(prefix="activetime-html-scale-")
    os.makedirs(work, exist_ok=True)
    over = []
    print("%-11s %-6s %12s %10s %8s %9s  %-22s %s" % (
        "profile", "page", "call paths", "MB", "seconds", "RSS MiB", "frames drawn",
        "Chromium s" if args.chromium else ""))
    try:
        for name in args.case or list(CASES):
            spec = CASES[name]()
            paths = len(spec["processes"][0]["threads"][0]["nodes"]) + \
                spec["processes"][0]["threads"][0].get("chain", {}).get("depth", 0)
            desc = os.path.join(work, name + ".json")
            raw = os.path.join(work, name + ".raw")
            with open(desc, "w") as f:
                json.dump(spec, f)
            subprocess.check_call([sys.executable, MKRAW, desc, "-o", raw])
            os.remove(desc)
            for kind in ("report", "diff"):
                page = os.path.join(work, "%s-%s.html" % (name, kind))
                cmd = [tool, "report", "--html", page, raw] if kind == "report" else \
                    [tool, "diff", "--html", page, raw, raw]
                if args.prune_below is not None:
                    cmd.append("--prune-below=" + args.prune_below)
                secs, rss = timed(cmd + ["--progress=never"])
                mb = os.path.getsize(page) / 1e6
                drawn, total = frames(page)
                shown = "%s of %s" % ("{:,}".format(drawn) if drawn is not None else "?",
                                      "{:,}".format(total) if total is not None else "?")
                opened = ""
                if args.chromium:
                    load, errors = open_page(page)
                    opened = "%.1f" % load + ("" if not errors else ", " + errors[0][:200])
                    if errors:
                        over.append("%s %s: console error" % (name, kind))
                print("%-11s %-6s %12s %10.1f %8.1f %9.0f  %-22s %s" % (
                    name, kind, "{:,}".format(paths), mb, secs, rss / 2**20, shown, opened),
                    flush=True)
                if mb > args.max_mb or secs > args.max_seconds or rss > args.max_rss_gib * 2**30:
                    over.append("%s %s" % (name, kind))
            os.remove(raw)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    if over:
        print("beyond the limits (%.0f MB, %.0f s, %.1f GiB): %s" % (
            args.max_mb, args.max_seconds, args.max_rss_gib, ", ".join(over)))
        return 1
    print("all within %.0f MB, %.0f s, %.1f GiB" % (args.max_mb, args.max_seconds, args.max_rss_gib))
    return 0


if __name__ == "__main__":
    sys.exit(main())
