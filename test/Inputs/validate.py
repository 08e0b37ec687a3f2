#!/usr/bin/env python3
"""Check exported files against what their consumers require.

  validate.py schema SCHEMA.json FILE   JSON Schema validation (python3-jsonschema)
  validate.py chrome FILE               Chrome trace-event format: the keys each
                                        phase needs (the format is documented but
                                        has no official schema), balanced B/E and
                                        no timestamp before the process start
  validate.py folded FILE               every line "frame;frame;... N"
  validate.py speedscope SCHEMA.json FILE
                                        schema validation, and every evented
                                        profile's events in time order, each
                                        close matching the open frame
  validate.py chrome --summary FILE     chrome, but only the summary line

Prints a one-line summary and exits non-zero on the first problem.
"""
import json
import re
import sys


def fail(msg):
    sys.exit("validate.py: " + msg)


def schema(schema_path, path):
    import jsonschema
    s = json.load(open(schema_path))
    d = json.load(open(path))
    cls = jsonschema.validators.validator_for(s)
    cls.check_schema(s)
    errors = sorted(cls(s).iter_errors(d), key=lambda e: list(e.path))
    for e in errors[:5]:
        print("error at %s: %s" % ("/".join(map(str, e.path)), e.message[:200]))
    if errors:
        fail("%s: %d schema violations" % (path, len(errors)))
    print("valid against %s" % s.get("title", schema_path.split("/")[-1]))


NEEDS = {"B": ["name", "ts"], "E": ["ts"], "X": ["name", "ts", "dur"],
         "C": ["name", "ts", "args"], "M": ["name", "args"], "i": ["name", "ts"]}


def check_nesting(events):
    """Per thread, call slices (X but off-CPU ones) nest: each lies within
    the one around it or after it."""
    by_thread = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") != "off-cpu":
            by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, slices in by_thread.items():
        slices.sort(key=lambda e: (e["ts"], -e["dur"]))
        ends = []
        for e in slices:
            end = e["ts"] + e["dur"]
            while ends and ends[-1] <= e["ts"]:
                ends.pop()
            # 1e-6 us: the file's times are whole nanoseconds.
            if ends and end > ends[-1] + 1e-6:
                fail("slice %r ends after the one around it on %r" % (e, key))
            ends.append(end)


def chrome(path, summary_path=None):
    summary_only = path == "--summary"
    if summary_only:
        path = summary_path
    d = json.load(open(path))
    events = d["traceEvents"] if isinstance(d, dict) else d
    counts, depth = {}, {}
    for e in events:
        ph = e.get("ph")
        if ph not in NEEDS:
            fail("unknown phase %r in %r" % (ph, e))
        for k in ["pid", "tid"] + NEEDS[ph]:
            if k not in e:
                fail("%s event without %r: %r" % (ph, k, e))
        if "ts" in e and not isinstance(e["ts"], (int, float)):
            fail("non-numeric ts: %r" % e)
        # Timestamps count from the earliest process start.
        if "ts" in e and e["ts"] < 0:
            fail("negative ts: %r" % e)
        if ph == "X" and e["dur"] < 0:
            fail("negative duration: %r" % e)
        key = (e["pid"], e["tid"])
        if ph == "B":
            depth[key] = depth.get(key, 0) + 1
        elif ph == "E":
            depth[key] = depth.get(key, 0) - 1
            if depth[key] < 0:
                fail("E without B on %r" % (key,))
        # Calls and off-CPU slices are both X: counted apart by category.
        kind = ph + ("/" + e["cat"] if "cat" in e else "")
        counts[kind] = counts.get(kind, 0) + 1
    if any(depth.values()):
        fail("unbalanced B/E: %r" % depth)
    check_nesting(events)
    # One normalized line per event, for FileCheck.
    for e in events if not summary_only else []:
        print(" ".join(str(x) for x in [
            e["ph"], e["pid"], e["tid"], repr(e.get("name", "")),
            "ts=%.6g" % e["ts"] if "ts" in e else "",
            "dur=%.6g" % e["dur"] if "dur" in e else "",
            json.dumps(e.get("args", {}), sort_keys=True)]))
    print("chrome trace ok: " + " ".join("%s=%d" % kv for kv in sorted(counts.items())))


def folded(path):
    n = 0
    for line in open(path):
        if not re.fullmatch(r"[^ ;][^;\n]*(;[^;\n]+)* [0-9]+\n", line):
            fail("bad folded line: %r" % line)
        n += 1
    print("folded ok: %d lines" % n)


def speedscope(schema_path, path):
    schema(schema_path, path)
    d = json.load(open(path))
    frames = d["shared"]["frames"]
    for p in d["profiles"]:
        if p["type"] != "evented":
            continue
        stack, last, opens, deepest = [], p["startValue"], 0, 0
        for e in p["events"]:
            if e["at"] < last:
                fail("%s: event at %r before %r" % (p["name"], e["at"], last))
            last = e["at"]
            if not 0 <= e["frame"] < len(frames):
                fail("%s: no frame %r" % (p["name"], e["frame"]))
            if e["type"] == "O":
                stack.append(e["frame"])
                opens += 1
                deepest = max(deepest, len(stack))
            elif not stack or stack.pop() != e["frame"]:
                fail("%s: close of frame %r that is not open on top" %
                     (p["name"], e["frame"]))
        if stack:
            fail("%s: %d frames left open" % (p["name"], len(stack)))
        if last > p["endValue"] * (1 + 1e-9) + 1e-6:
            fail("%s: event at %r after endValue %r" % (p["name"], last,
                                                        p["endValue"]))
        print("evented %r: %d frames opened, %d deep, end %g" % (
            p["name"], opens, deepest, p["endValue"]))


if __name__ == "__main__":
    mode = sys.argv[1]
    {"schema": schema, "chrome": chrome, "folded": folded,
     "speedscope": speedscope}[mode](*sys.argv[2:])
