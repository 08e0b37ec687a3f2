#!/usr/bin/env python3
"""Reads the `report --json` of each rank of test/mpi/imbalance.c (in rank
order) and prints what the test checks: the ranks, MPI_Barrier's calls per
rank, whether ranks 0 and 1 spent longer inside MPI_Barrier than rank 3
(elapsed), and the barrier's call path (the same in every rank)."""
import json
import sys

docs = [json.load(open(path)) for path in sys.argv[1:]]
ranks = [d["processes"][0]["mpi_rank"] for d in docs]
print("ranks", " ".join(str(r) for r in ranks), "of",
      docs[0]["processes"][0]["mpi_size"])
barrier = []
for d in docs:
    r = [x for x in d["mpi"]["routines"] if x["name"] == "MPI_Barrier"]
    barrier.append(r[0] if r else {"calls": 0, "elapsed_ns": 0})
print("barrier calls", " ".join(str(b["calls"]) for b in barrier))
for r in (0, 1):
    print("rank %d waits longer than rank 3: %s" % (
        r, "yes" if barrier[r]["elapsed_ns"] > barrier[3]["elapsed_ns"]
        else "no (%s vs %s ns)" % (barrier[r]["elapsed_ns"],
                                   barrier[3]["elapsed_ns"])))
paths = set()
for d in docs:
    names = {f["id"]: f["name"] for f in d["functions"]}
    nodes = {n["id"]: n for n in d["tree"]["nodes"]}
    for n in d["tree"]["nodes"]:
        if n["calls"] and names[n["function"]] == "MPI_Barrier":
            path, cur = [], n
            while cur is not None:
                path.append(names[cur["function"]])
                cur = nodes.get(cur["parent"]) if cur["parent"] is not None else None
            paths.add(" > ".join(reversed(path)))
print("path:", " | ".join(sorted(paths)))
