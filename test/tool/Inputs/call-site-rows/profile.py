#!/usr/bin/env python3
"""Writes the mkraw.py description of a profile of sites.c's binary (argv[1],
linked without PIE: run-time addresses are its link-time ones): main -> f,
f's calls of g timed 10, 20 and 30 times from its three call instructions,
the timed copy's 1, 2 and 3 times from its own three, and 100 counted calls
of g whose 4 code samples returned into the copy's first call. The return
addresses come from llvm-objdump's disassembly."""
import json
import re
import subprocess
import sys

exe = sys.argv[1]
dis = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", exe],
                     check=True, stdout=subprocess.PIPE,
                     universal_newlines=True).stdout
addr, returns, fn = {}, {}, None
lines = dis.splitlines()
for i, line in enumerate(lines):
    m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
    if m:
        fn = m.group(2)
        addr[fn] = int(m.group(1), 16)
        returns[fn] = []
        continue
    m = re.match(r"^\s*([0-9a-f]+):\s+(?:callq?|bl)\s+\S+ <(.*)>", line)
    if m and fn:
        nxt = re.match(r"^\s*([0-9a-f]+):", lines[i + 1])
        returns[fn].append((m.group(2), int(nxt.group(1), 16)))
g_f = [r for t, r in returns["f"] if t == "g"]
g_copy = [r for t, r in returns["f.activetime.timed"] if t == "g"]
main_f = [r for t, r in returns["main"] if t == "f"][0]
assert len(g_f) == 3 and len(g_copy) == 3, (g_f, g_copy)

nodes = [[-1, "main", 1, 100000, 100000 - 7600]]
nodes.append([0, "f", 2, 7600, 7600 - 6600, None, None, 0, 0, 0, 0, main_f])
for calls, ret in zip([10, 20, 30, 1, 2, 3], g_f + g_copy):
    nodes.append([1, "g", calls, calls * 100, calls * 100, 100, 100, 0, 0, 0,
                  0, ret])
desc = {"processes": [{
    "tick_rate": 1000000000, "start_tick": 0, "end_tick": 200000, "pid": 42,
    "exe": exe, "timing_threshold": 1000, "code_sample_period_ns": 100000,
    "code_sample_cost": 0, "code_sample_flags": ["stacks"],
    "modules": [{"name": "sites.c", "path": exe, "functions": [
        {"name": n, "file": "sites.c", "line": 1, "addr": addr[n]}
        for n in ("main", "f", "g")]}],
    "threads": [{"tid": 42, "start_tick": 0, "end_tick": 200000,
                 "switch_source": 1, "nodes": nodes,
                 "counts": [{"func": "main", "calls": 1},
                            {"func": "f", "calls": 2},
                            {"func": "g", "calls": 166, "counted": True}],
                 "code_samples": [{"node": 1, "addr": addr["g"] + 1,
                                   "count": 4, "caller": g_copy[0]}]}]}]}
json.dump(desc, sys.stdout, indent=1)
