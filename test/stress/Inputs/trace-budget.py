# Reads `activetime report --json` of trace-budget.c's run on stdin: the
# trace buffers' bytes and the events kept within the 2 MiB budget.
import json
import sys

d = json.load(sys.stdin)
t = d["processes"][0]["trace"]
budget = 2 << 20
ok = (t["buffer_bytes"] <= budget and t["events"] * 24 <= budget
      and t["buffer_memory_budget"])
print("kept-within-budget", "yes" if ok else "no: %r" % t)
print("dropped-some", "yes" if t["dropped_events"] > 0 else "no")
