#!/usr/bin/env python3
"""Reads the data island of an HTML page (report --html, diff --html) and
checks each flame graph as the page draws it (docs/exports.md): drawn
frames in pre-order, each parent before its children, the [other] and
[deeper] frames last; widths made up as the page's script does
(common.js, flameData) add up to the graph's total; the pruned counts
match the [other] and [deeper] frames. Prints per graph one line for
FileCheck; --doc KEY prints the document's KEY as JSON instead.

usage: checkhtml.py PAGE.html [--doc KEY]
"""
import json
import re
import sys


def island(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="activetime-data">(.*?)</script>',
                  text, re.S)
    return json.loads(m.group(1))


def widths(flame, mode, own):
    """The frames' widths as common.js's flameData makes them."""
    nodes = flame["nodes"]
    sums = [0.0] * len(nodes)
    top = 0.0
    for i in range(len(nodes) - 1, -1, -1):
        n = nodes[i]
        w = max(n["width_ns"][min(mode, len(n["width_ns"]) - 1)] if "other" in n else own(n), 0)
        v = w + sums[i] if flame["self_widths"] else max(w, sums[i])
        if n["parent"] is None:
            top += v
        else:
            assert n["parent"] < i, "parent before child"
            sums[n["parent"]] += v
    return top


def check(name, flame, own_modes):
    nodes, p = flame["nodes"], flame["pruned"]
    drawn = [n for n in nodes if "other" not in n]
    others = [n for n in nodes if "other" in n]
    assert nodes[:len(drawn)] == drawn, "drawn frames first"
    assert len(drawn) == p["frames_drawn"]
    for kind, deeper in (("narrow", False), ("deeper", True)):
        o = [n["other"] for n in others if n["other"]["deeper"] == deeper]
        assert sum(x["tops"] for x in o) == p[kind]["tops"], kind
        assert sum(x["frames"] for x in o) == p[kind]["frames"], kind
    total_frames = len(drawn) + p["narrow"]["frames"] + p["deeper"]["frames"]
    assert total_frames == p["frames_in_graph"], (total_frames, p["frames_in_graph"])
    for mode, own in enumerate(own_modes):
        t, want = widths(flame, mode, own), flame["total_ns"][mode]
        assert abs(t - want) <= 1e-9 * max(abs(want), 1) + 1e-6, (name, mode, t, want)
    print("%s: drawn %d of %d; narrow %d tops %d frames %g ns; deeper %d tops %d frames "
          "%d levels; cap %s; others %d; widths add up" % (
              name, len(drawn), p["frames_in_graph"], p["narrow"]["tops"], p["narrow"]["frames"],
              p["narrow"]["width_ns"][0], p["deeper"]["tops"], p["deeper"]["frames"],
              p["deeper"]["levels"], "hit" if p["frame_cap_hit"] else "no", len(others)))


def main():
    doc = island(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--doc":
        print(json.dumps(doc[sys.argv[3]], indent=2, sort_keys=True))
        return
    print("schema", doc["schema"], doc["version"])
    if doc["schema"] == "activetime-diff-html":
        check("diff", doc["flame"], [
            lambda n: n["active"]["new_ns"] if n["active"]["new_ns"] is not None
            else (n["self_active"]["new_ns"] or 0)])
        return
    active = lambda n: n["active_ns"] or 0
    elapsed = lambda n: n["active_ns"] or 0 if n["elapsed_ns"] is None else n["elapsed_ns"]
    check("call_tree", doc["call_tree"], [active, elapsed])
    check("bottom_up", doc["bottom_up"]["flame"], [lambda n: n["self_active_ns"]])
    check("on_cpu", doc["samples"]["on_cpu"], [lambda n: n.get("on_cpu_ns", 0)])
    check("off_cpu", doc["samples"]["off_cpu"], [lambda n: n.get("off_cpu_ns", 0)])


if __name__ == "__main__":
    main()
