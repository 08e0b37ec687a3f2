#!/usr/bin/env python3
#===- bench/truth/bounds.py - figures outside their own +-95% ---------------===#
#
# Part of ActiveTime. A measurement, not a test: counts the figures of
# `activetime report --json` documents whose +-95% interval does not reach
# the range the figure can lie in, and lists them. Such a figure means the
# error model behind its +-95% misses something (docs/user-guide.md, "What
# +-95% includes"). It checks the *measured* value: a figure the report
# printed clamped carries it in its row's "clamped" object.
#
#   figure                       its +-95%                   feasible range
#   active_ns                    active_uncertainty_ns       [0, elapsed_ns]
#   self_active_ns               self_active_uncertainty_ns  [0, active + its +-95%]
#   elapsed, overhead, off-CPU,  none (0)                    [0, inf)
#   min/max per call, latency
#   self_active_share,           none                        [0, 1]
#   active_share, share
#   a thread's                   total_self_active_err_ns    [0, cpu_ns]
#   total_self_active_ns                                     (when read)
#
# in "functions", "tree.nodes", "threads[].functions", the arcs of
# "call_graph" (active_ns), "call_sites" and "bottom_up.nodes"; a time printed
# as "-0" anywhere in the document counts as one more. Inputs: JSON files
# ("-": stdin), or raw profiles, which are reported with
# `activetime report --json --callers --call-sites --bottom-up` (the
# activetime binary from --activetime, else PATH). Prints the count, each
# offender, and the figures clamped; exits 0 whatever it finds.
#
# Usage: bounds.py [--activetime BIN] [--quiet] FILE...
#
#===----------------------------------------------------------------------===#

import argparse
import json
import math
import re
import shutil
import signal
import subprocess
import sys

RAW_MAGIC = b"\x7fATPROF\n"
INF = math.inf
# A number printed as minus zero: "-0", "-0.0", not "-0.5" or "-0e3".
MINUS_ZERO = re.compile(r'(?<![\w.])-0(?:\.0*)?(?![\d.eE])')
TIMES = ("elapsed_ns", "self_elapsed_ns", "overhead_ns", "off_cpu_ns",
         "min_active_ns", "max_active_ns")
SHARES = ("self_active_share", "active_share", "share")


class Checker:
    def __init__(self):
        self.checked = 0
        self.offenders = []
        self.clamped = []

    def measured(self, row, key):
        """The measured value of row[key]: the clamped one when clamped."""
        return (row.get("clamped") or {}).get(key, row.get(key))

    def check(self, where, key, value, err, lo, hi):
        if value is None:
            return
        self.checked += 1
        err = err or 0.0
        if value + err < lo or value - err > hi:
            self.offenders.append(
                "%s: %s = %s +- %s outside [%s, %s]" %
                (where, key, fmt(value), fmt(err), fmt(lo), fmt(hi)))

    def row(self, where, row):
        """A row of figures: a function, a tree node, a thread's function."""
        for key in (row.get("clamped") or {}):
            self.clamped.append("%s: %s printed %s, measured %s" % (
                where, key, fmt(row.get(key)), fmt(row["clamped"][key])))
        elapsed = row.get("elapsed_ns")
        active = self.measured(row, "active_ns")
        active_err = row.get("active_uncertainty_ns") or 0.0
        self.check(where, "active_ns", active, active_err, 0.0,
                   INF if elapsed is None else elapsed)
        self_hi = INF if active is None else active + active_err
        self.check(where, "self_active_ns",
                   self.measured(row, "self_active_ns"),
                   row.get("self_active_uncertainty_ns"), 0.0, self_hi)
        for key in TIMES:
            self.check(where, key, row.get(key), 0.0, 0.0, INF)
        for key in SHARES:
            self.check(where, key, row.get(key), 0.0, 0.0, 1.0)
        lat = row.get("latency") or {}
        for key in ("p50", "p90", "p99", "max"):
            self.check(where, "latency." + key, lat.get(key), 0.0, 0.0, INF)

    def arc(self, where, arc):
        """A caller/callee arc of the call graph, or a call-site row."""
        for key in (arc.get("clamped") or {}):
            self.clamped.append("%s: %s printed %s, measured %s" % (
                where, key, fmt(arc.get(key)), fmt(arc["clamped"][key])))
        self.check(where, "active_ns", self.measured(arc, "active_ns"),
                   arc.get("active_uncertainty_ns"), 0.0,
                   INF if arc.get("elapsed_ns") is None else arc["elapsed_ns"])

    def document(self, name, text):
        for m in MINUS_ZERO.finditer(text):
            self.checked += 1
            line = text.count("\n", 0, m.start()) + 1
            self.offenders.append("%s: line %d: a number printed as %r" %
                                  (name, line, m.group(0)))
        doc = json.loads(text)
        if "report" in doc and "functions" not in doc:  # the json export
            doc = doc["report"]
        fns = doc.get("functions", [])
        label = lambda i: fns[i].get("name", "?") if 0 <= i < len(fns) else "?"
        for i, f in enumerate(fns):
            self.row("%s: functions[%d] %s" % (name, i, f.get("name")), f)
        for n in (doc.get("tree") or {}).get("nodes", []):
            self.row("%s: tree node %d %s" % (name, n["id"], label(n["function"])),
                     n)
        for t in doc.get("threads", []):
            # Its own CPU clock (raw v10; null: not read) bounds the
            # thread's total self-active time (the report's exceeds_cpu).
            if t.get("cpu_ns") is not None:
                self.check("%s: thread %s" % (name, t.get("tid")),
                           "total_self_active_ns",
                           t.get("total_self_active_ns"),
                           t.get("total_self_active_err_ns"), 0.0,
                           t["cpu_ns"])
            for f in t.get("functions", []):
                self.row("%s: thread %s %s" % (name, t.get("tid"),
                                               label(f["function"])), f)
        for g in doc.get("call_graph", []):
            for side in ("callers", "callees"):
                for a in g.get(side, []):
                    self.arc("%s: call_graph %s %s %s" % (
                        name, g.get("name"), side, a.get("name")), a)
        for s in doc.get("call_sites", []):
            self.arc("%s: call_sites %s <- %s" % (name, s.get("callee"),
                                                  s.get("caller")), s)
        for n in (doc.get("bottom_up") or {}).get("nodes", []):
            where = "%s: bottom_up node %d %s" % (name, n["id"],
                                                  label(n["function"]))
            self.check(where, "self_active_ns", n.get("self_active_ns"), 0.0,
                       0.0, INF)
            self.check(where, "share", n.get("share"), 0.0, 0.0, 1.0)


def fmt(v):
    if v is None:
        return "null"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.6g" % v


def read_input(path, activetime):
    if path == "-":
        return sys.stdin.read()
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(RAW_MAGIC):
        return data.decode()
    if not activetime:
        raise ValueError("a raw profile needs the activetime binary "
                         "(--activetime BIN, or activetime on PATH)")
    cmd = [activetime, "report", "--json", "--callers", "--call-sites",
           "--bottom-up", path]
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def main():
    # Piped into head: stop quietly.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(
        description="Counts the figures of activetime report --json "
        "documents outside their own +-95%.")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--activetime", default=shutil.which("activetime"),
                    help="the activetime binary, for raw profiles")
    ap.add_argument("--quiet", action="store_true",
                    help="print the counts only")
    args = ap.parse_args()
    c = Checker()
    for path in args.files:
        try:
            c.document(path, read_input(path, args.activetime))
        except (OSError, ValueError, subprocess.CalledProcessError,
                TypeError) as e:
            print("bounds: %s: cannot check: %s" % (path, e))
    print("bounds: %d of %d figures outside their own +-95%% in %d "
          "profile(s); %d printed clamped" %
          (len(c.offenders), c.checked, len(args.files), len(c.clamped)))
    if not args.quiet:
        for o in c.offenders:
            print("  outside: " + o)
        for o in c.clamped:
            print("  clamped: " + o)
    return 0


if __name__ == "__main__":
    sys.exit(main())
