"""Checks `activetime report --parallel --json` of spawn.c: every created
task was run once (taken from a queue, stolen, or run at once by its
creator: U->U), and the diagnosis is the one the documented rules give for
the region's own figures and thresholds (docs/user-guide.md, OpenMP)."""
import json
import sys

doc = json.load(sys.stdin)
t = doc["thresholds"]
(r,) = doc["regions"]
run = r["local_takes"] + r["stolen_takes"] + r["transitions"]["U->U"]
assert r["tasks_created"] == 2000, r["tasks_created"]
assert run == 2000, f"tasks run {run}, created 2000"

fine = r["task_rate"] > t["max_task_rate"]
if r["overhead_share"] <= t["min_overhead_share"] and not fine:
    want = "none"
elif fine:
    want = "granularity too fine"
elif r["stolen_ratio"] > t["max_stolen_ratio"]:
    want = "linear spawn"
elif r["inactive_share"] > t["min_inactive_share"]:
    want = ("not enough tasks"
            if r["fruitless_per_take"] >= t["min_fruitless_per_take"]
            else "imbalance / granularity too coarse")
else:
    want = "overhead without a diagnosed cause"
assert r["diagnosis"] == want, f"diagnosis {r['diagnosis']!r}, rules give {want!r}"
print("ok:", r["diagnosis"])
