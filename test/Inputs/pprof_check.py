#!/usr/bin/python3
"""Reads a pprof profile written by `activetime export --format=pprof`,
checks it the way pprof's Profile.CheckValid does, prints it readably for
FileCheck and, with --report, compares each function's flat (self) and cum
(inclusive) values with `activetime report --json` of the same profile.

Runs on Debian's python3 with python3-protobuf (scripts/install-deps.sh);
the message classes come from `protoc --python_out=DIR profile.proto`.

usage: pprof_check.py PB2_DIR PROFILE.pb.gz [--report REPORT.json] [--quiet]
                     [--stacks]
"""

import argparse
import gzip
import json
import re
import sys


def fail(msg):
    sys.exit("pprof_check: error: " + msg)


def check_valid(p):
    """The structure pprof requires: ids unique and non-zero, references
    resolve, one value per sample type, string indices in range."""
    st = p.string_table
    if not st or st[0] != "":
        fail("string_table[0] must be the empty string")

    def s(i, what):
        if not 0 <= i < len(st):
            fail("%s: string index %d out of range" % (what, i))
        return st[i]

    def ids(items, what):
        out = {}
        for x in items:
            if x.id == 0 or x.id in out:
                fail("%s id %d is zero or repeated" % (what, x.id))
            out[x.id] = x
        return out

    maps = ids(p.mapping, "mapping")
    funcs = ids(p.function, "function")
    locs = ids(p.location, "location")
    for f in p.function:
        for i in (f.name, f.system_name, f.filename):
            s(i, "function %d" % f.id)
    for l in p.location:
        if l.mapping_id and l.mapping_id not in maps:
            fail("location %d: unknown mapping %d" % (l.id, l.mapping_id))
        for ln in l.line:
            if ln.function_id not in funcs:
                fail("location %d: unknown function %d" % (l.id, ln.function_id))
    for smp in p.sample:
        if len(smp.value) != len(p.sample_type):
            fail("a sample has %d values for %d sample types"
                 % (len(smp.value), len(p.sample_type)))
        for i in smp.location_id:
            if i not in locs:
                fail("a sample refers to unknown location %d" % i)
        for lb in smp.label:
            s(lb.key, "label")
            s(lb.str, "label")
    for c in p.comment:
        s(c, "comment")
    return funcs, locs


def frames(p, funcs, locs, smp):
    """The sample's frames, outermost first, each (function, line); a
    location's lines are innermost first (inlined functions before the
    function they were inlined into)."""
    out = []
    for lid in reversed(smp.location_id):
        for ln in reversed(locs[lid].line):
            out.append((funcs[ln.function_id], ln.line))
    return out


def dump(p, funcs, locs):
    st = p.string_table
    print("sample_types: " + " ".join(
        "%s/%s" % (st[t.type], st[t.unit]) for t in p.sample_type))
    print("default_sample_type: " + st[p.default_sample_type])
    print("period: %d %s/%s" % (p.period, st[p.period_type.type],
                                st[p.period_type.unit]))
    print("time_nanos: %d duration_nanos: %d" % (p.time_nanos, p.duration_nanos))
    for c in p.comment:
        print("comment: " + st[c])
    for m in p.mapping:
        print("mapping %d: %s build_id=%s" % (m.id, st[m.filename], st[m.build_id]))
    for f in p.function:
        print("function: %s system_name=%s file=%s start_line=%d" % (
            st[f.name], st[f.system_name], st[f.filename], f.start_line))
    for smp in p.sample:
        stack = ";".join("%s:%d" % (st[f.name], line)
                         for f, line in frames(p, funcs, locs, smp))
        labels = " ".join(
            "%s=%s" % (st[lb.key], st[lb.str] if lb.str else lb.num)
            for lb in smp.label)
        print("sample: %s values=%s %s" % (
            stack, ",".join(str(v) for v in smp.value), labels))


def stacks(p, funcs, locs):
    """How deep the samples' stacks are and which were cut: a cut one has
    one "[N frames elided]" frame."""
    st = p.string_table
    # Per location: its frames, and how many it stands for if it is the
    # elided-frames marker (each location once: deep profiles are large).
    depth, marker = {}, {}
    for lid, loc in locs.items():
        depth[lid] = len(loc.line)
        for ln in loc.line:
            name = st[funcs[ln.function_id].name]
            if re.fullmatch(r"\[[0-9]+ frames? elided\]", name):
                marker[lid] = int(name[1:].split()[0])
    deepest, cut, elided = 0, 0, 0
    for smp in p.sample:
        deepest = max(deepest, sum(depth[i] for i in smp.location_id))
        marks = [marker[i] for i in smp.location_id if i in marker]
        if len(marks) > 1:
            fail("a sample with %d elided-frames frames" % len(marks))
        if marks:
            cut += 1
            elided = max(elided, marks[0])
    print("samples %d, deepest %d frames, %d cut, at most %d frames elided"
          % (len(p.sample), deepest, cut, elided))
    for c in p.comment:
        print("comment: " + st[c])


def measured(p, smp, active):
    """The sample's values with its measured self-active time where the
    export printed it clamped (label measured_self_active)."""
    v = list(smp.value)
    if v[active] < 0:
        fail("a sample's active value is negative")
    for lb in smp.label:
        if p.string_table[lb.key] == "measured_self_active":
            v[active] = lb.num
    return v


def totals(p, funcs, locs):
    """Per function name: flat (the leaf's values) and cum (every sample the
    function is on, once per sample), of the measured values, and the
    number of samples."""
    st = p.string_table
    n = len(p.sample_type)
    active = [st[t.type] for t in p.sample_type].index("active")
    flat, cum, count = {}, {}, {}
    for smp in p.sample:
        fr = frames(p, funcs, locs, smp)
        leaf = st[fr[-1][0].name]
        flat.setdefault(leaf, [0] * n)
        count[leaf] = count.get(leaf, 0) + 1
        values = measured(p, smp, active)
        for i, v in enumerate(values):
            flat[leaf][i] += v
        for name in {st[f.name] for f, _ in fr}:
            cum.setdefault(name, [0] * n)
            count[name] = count.get(name, 0) + 1
            for i, v in enumerate(values):
                cum[name][i] += v
    return flat, cum, count


def compare(p, funcs, locs, report):
    st = p.string_table
    idx = {st[t.type]: i for i, t in enumerate(p.sample_type)}
    flat, cum, count = totals(p, funcs, locs)
    bad = 0

    def agree(name, what, got, want, samples=None):
        nonlocal bad
        # Each sample's value is rounded to whole nanoseconds.
        n = count.get(name, 0) if samples is None else samples
        tol = 0.5 * n + 1e-9 * abs(want) + 0.01
        ok = abs(got - want) <= tol
        if not ok:
            bad += 1
        print("%s %s: pprof %d report %s%s" % (
            name, what, got, ("%.3f" % want).rstrip("0").rstrip("."),
            "" if ok else "  MISMATCH"))

    n = len(p.sample_type)
    for fn in report["functions"]:
        name = fn["name"]
        fl, cu = flat.get(name, [0] * n), cum.get(name, [0] * n)
        # The report's measured figures (its "clamped" values where it
        # printed them clamped), against the samples' measured ones.
        meas = fn.get("clamped", {})
        agree(name, "flat active", fl[idx["active"]],
              meas.get("self_active_ns", fn["self_active_ns"]))
        agree(name, "flat calls", fl[idx["calls"]],
              fn["calls"] - fn["counted_calls"])
        if fn["active_ns"] is not None:
            agree(name, "cum active", cu[idx["active"]],
                  meas.get("active_ns", fn["active_ns"]))
        if fn["off_cpu_ns"] is not None:
            agree(name, "cum off_cpu", cu[idx["off_cpu"]], fn["off_cpu_ns"])
        if fn["overhead_ns"] is not None:
            agree(name, "cum overhead", cu[idx["overhead"]], fn["overhead_ns"])
    total = sum(measured(p, smp, idx["active"])[idx["active"]]
                for smp in p.sample)
    agree("all", "active", total, report["total_self_active_ns"],
          len(p.sample))
    if bad:
        fail("%d figures differ from the report" % bad)
    print("pprof check: %d functions agree with the report"
          % len(report["functions"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pb2_dir")
    ap.add_argument("profile")
    ap.add_argument("--report")
    ap.add_argument("--quiet", action="store_true", help="no dump")
    ap.add_argument("--stacks", action="store_true",
                    help="no dump: a line on the samples' stacks instead")
    a = ap.parse_args()
    sys.path.insert(0, a.pb2_dir)
    import profile_pb2
    with gzip.open(a.profile, "rb") as f:  # fails unless it is gzip
        data = f.read()
    p = profile_pb2.Profile()
    p.ParseFromString(data)
    funcs, locs = check_valid(p)
    if a.stacks:
        stacks(p, funcs, locs)
    elif not a.quiet:
        dump(p, funcs, locs)
    if a.report:
        with open(a.report) as f:
            compare(p, funcs, locs, json.load(f))


if __name__ == "__main__":
    main()
