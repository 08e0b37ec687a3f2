import json
import sys

d = json.load(open(sys.argv[1]))
assert d["schema"] == "activetime-report" and d["version"] == 3
fns = d["functions"]
assert [f["id"] for f in fns] == list(range(len(fns)))
print("functions", " ".join(f["name"] for f in fns))
fib = next(f for f in fns if f["linkage_name"] == "_Z3fibi")
print("%s calls=%d incl=%d excl=%d" % (fib["name"], fib["calls"],
                                      fib["elapsed_ns"], fib["self_elapsed_ns"]))
nodes = d["tree"]["nodes"]
for n in nodes:
    assert n["parent"] is None or nodes[n["parent"]]["depth"] == n["depth"] - 1
print("tree", " ".join("%s@%d" % (fns[n["function"]]["name"], n["depth"])
                       for n in nodes))
for t in d["threads"]:
    print("threads %d:%s running=%s wall=%s functions=%d source=%s" % (
        t["tid"], t["name"], t["running"], t["wall_ns"], len(t["functions"]),
        t["switch_source"]))
