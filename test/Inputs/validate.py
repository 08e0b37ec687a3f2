#!/usr/bin/env python3
"""Check exported files against what their consumers require.

  validate.py schema SCHEMA.json FILE   JSON Schema validation (python3-jsonschema)
  validate.py chrome FILE               Chrome trace-event format: the keys each
                                        phase needs (the format is documented but
                                        has no official schema), balanced B/E and
                                        no timestamp before the process start
  validate.py folded FILE               every line "frame;frame;... N"

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


def chrome(path):
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
        counts[ph] = counts.get(ph, 0) + 1
    if any(depth.values()):
        fail("unbalanced B/E: %r" % depth)
    # One normalized line per event, for FileCheck.
    for e in events:
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


if __name__ == "__main__":
    mode = sys.argv[1]
    {"schema": schema, "chrome": chrome, "folded": folded}[mode](*sys.argv[2:])
