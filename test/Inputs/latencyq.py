#!/usr/bin/env python3
"""Summarizes the latency objects of `activetime report --json` or of the
export document (`export --format=json`) on stdin, one
line per function (sorted by name) and per call-tree node, for tests:

  NAME calls=N timed=T p50=X p90=X p99=X max=X buckets=[lo-hi:count ...]
  node DEPTH NAME timed=T p50=X p99=X

Times are ns, printed as integers when they are (mkraw inputs at 1 GHz) or
with three decimals. A row without percentiles prints "missing=REASON".
With --modes: per function with percentiles, the split of its calls into
two modes at the widest gap (in ns) between neighbouring non-empty buckets,
the calls below and above it, and on which side p50 and p99 lie:
"NAME timed=T short=S long=L p50=short p99=long" (T counts every timed call;
" apart=A" follows when A of them, sampled, are in no bucket). These are the
facts an
end-to-end test of a bimodal function can check without a threshold on the
machine's speed.
"""
import json
import sys


def num(v):
    if v is None:
        return "null"
    return "%d" % v if float(v).is_integer() else "%.3f" % v


doc = json.load(sys.stdin)
doc = doc.get("report", doc)  # the export document embeds the report
modes = len(sys.argv) > 1 and sys.argv[1] == "--modes"


def side(v, split):
    return "short" if v < split else "long"


for f in sorted(doc["functions"], key=lambda f: f["name"]):
    lat = f["latency"]
    if modes:
        b = lat["buckets"]
        if lat["p50"] is None or len(b) < 2:
            print("%s timed=%d one mode" % (f["name"], lat["timed_calls"]))
            continue
        gap = max(range(1, len(b)), key=lambda i: b[i][0] - b[i - 1][1])
        split = b[gap][0]
        short = sum(c for _, _, c in b[:gap])
        apart = lat.get("sampled_apart", 0)
        print("%s timed=%d short=%d long=%d p50=%s p99=%s%s" % (
            f["name"], lat["timed_calls"] + apart, short,
            lat["timed_calls"] - short, side(lat["p50"], split),
            side(lat["p99"], split), " apart=%d" % apart if apart else ""))
        continue
    line = "%s calls=%d timed=%d" % (f["name"], f["calls"], lat["timed_calls"])
    if lat["p50"] is None:
        print(line + " missing=" + lat["missing"])
        continue
    line += " p50=%s p90=%s p99=%s max=%s" % (num(lat["p50"]), num(lat["p90"]),
                                              num(lat["p99"]), num(lat["max"]))
    line += " buckets=[%s]" % " ".join(
        "%s-%s:%d" % (num(lo), num(hi), c) for lo, hi, c in lat["buckets"])
    print(line)
if not modes:
    names = [f["name"] for f in sorted(doc["functions"], key=lambda f: f["id"])]
    for n in doc["tree"]["nodes"]:
        lat = n.get("latency")
        if lat is None:
            continue
        name = names[n["function"]]
        if lat["p50"] is None:
            print("node %d %s timed=%d missing=%s" % (n["depth"], name,
                                                    lat["timed_calls"], lat["missing"]))
        else:
            print("node %d %s timed=%d p50=%s p99=%s" % (
                n["depth"], name, lat["timed_calls"], num(lat["p50"]), num(lat["p99"])))
