#!/usr/bin/env python3
"""Write an ActiveTime raw profile from a JSON description, for tests.

An independent implementation of the raw format's logic (it does not share
code with the C++ reader/writer, so the two check each other), plus
switches that corrupt the result to exercise the reader's validation. The
byte layout -- each record's fields, their offsets and sizes, the section
kinds, the version -- is not spelled here: rawlayout.py reads it from
include/activetime/RawData.inc, where the C++ structs come from too; this
file names the fields and decides their values.

JSON description (all fields optional except where noted):

  {"merged": false,
   "processes": [{
      "tick_rate": 1000000000, "start_tick": 0, "end_tick": 0,
      "start_unix_ns": 0, "pid": 1, "ppid": 0,
      "exe": "/bin/app", "build_id": "hex bytes",
      "num_modules": N, "num_threads": N, "num_traces": N,
      "exe_len": N, "num_strides": N,                      # overrides
      "tick_step256": 256,
      "overhead": {"enter": 3, "exit": 2.5,     # ticks (or "enter256"...)
                   "source": 0, "batches": 0, "spread_permille": 0,
                   "stable": 1, "fenced": 1, "measured": 0,
                   "pair": 0, "measured_enter": 0, "measured_exit": 0,
                   "flags": N},                 # raw flags, overrides
      "timing_threshold": 0,                    # ticks (v6)
      "code_sample_period_ns": 0, "code_sample_cost": 0,  # ticks (or
      "code_sample_cost256": 0,                           # ticks * 256)
      "code_sample_flags": ["disabled", "unavailable", "user_only",
                            "stacks", "cost_unmeasured",
                            "not_started"] or int,
      "num_block_counts": 0,                    # ProcessRecord::NumBlockCounts
      "mpi_rank": 0, "mpi_size": 0,             # v14 (size 0: no MPI run)
      "mpi": {"num_routines": N, "reserved": 0, # v14: the mpi section
              "routines": [{"func": f, "bytes": N, "reserved": 0}]},
      "modules": [{"hash": 0, "load_base": 0, "flags": 0,
                   "name": "a.c", "path": "/bin/app",
                   "functions": [{"name": "main", "file": "a.c", "line": 1,
                                  "addr": 0, "flags": 0}],
                   "inlined_away": [{"name": "sq", "file": "a.c",  # v9
                                     "line": 2, "flags": 1}]}],
      "threads": [{"tid": 1, "name": "main", "flags": 0,
                   "start_tick": 0, "end_tick": 0, "open_frames": 0,
                   "unmatched_exits": 0, "unwound_frames": 0,
                   "dropped_events": 0, "num_nodes": N,
                   "switch_source": 0, "switch_resolution": 0,
                   "off_cpu": 0, "voluntary": 0, "involuntary": 0,
                   "lost_switch_records": 0, "reserved": 0,
                   "num_counts": N, "num_code_samples": N,      # overrides
                   "lost_code_samples": 0,
                   "cpu_ns": N (version 10; default: unknown),
                   "nodes": [[parent, func, calls, incl, excl, min, max,
                              overhead, off_cpu, voluntary, involuntary,
                              call_site]],
                   "chain": {"funcs": [f...], "depth": D, "excl": E},
                   "counts": [{"func": f, "calls": N, "counted": false,
                               "flags": N}] or "nodes",
                   "code_samples": [{"node": 0, "flags": ["caller",
                                     "kernel", "counting"] or int,
                                     "addr": 0 or "func" or "func+N",
                                     "count": 1, "caller": 0 or "func+N"}],
                   "latency": [[node, bucket, count] or
                               {"node": 0, "ticks": T or "bucket": B,
                                "count": 1}] or "auto",     # version 9
                   "num_latency": N, "latency_sorted": true}],
      "traces": [{"tid": 1, "dropped_events": 0, "dropped_switches": 0,
                  "buffer_ticks": 0, "buffer_bytes": 0,         # version 8
                  "buffer_flags": 0, "reserved": 0,
                  "num_events": N, "num_switches": N,           # overrides
                  "events": [[tick, func, "enter"|"exit"|kind,
                              measured (optional), reserved (optional)]],
                  "switches": [[tick, old_tid, new_tid]]}],
      "samples": {"interval": T, "start_tick": 0, "end_tick": 0,
                  "num_samples": N, "sweeps": 0, "dropped": 0,   # override
                  "torn_retries": 0, "torn_discarded": 0, "unmapped": 0,
                  "proc_state": 0, "sampler_cpu_ns": 0, "flags": 1,
                  "wake_late_ns": 0,
                  "samples": [[tick, weight, thread, node, flags, depth]]},
      "parallel": {"status": 0, "lost_events": 0,
                   "regions": [{"address": 0, "path": "", "instances": 1,
                                "wall_ticks": 0, "max_workers": 1}],
                   "entries": [{"region": 0, "tid": 1, "state_ticks": [...],
                                "transitions": [[...]], "local_takes": 0,
                                "stolen_takes": 0, "tasks_created": 0,
                                "chunks": 0, "wait_entries": 0}]},
      "strides": [{"module": 0, "num_sites": N, "probe_gap_ticks": 0,
                   "sites": [{"hash": 0, "static_stride": 0, "line": 0,
                              "column": 0, "size": 8,
                              "flags": ["loop", "store", "static", "copy_unproven"] or int,
                              "loop_line": 0, "loop_depth": 0,
                              "executions": 0, "observations": 0,
                              "differences": 0, "adjacent": 0, "zero": 0,
                              "gcd": 0, "dominant": 0, "dominant_count": 0,
                              "iter_ticks": 0, "probe_ticks": 0,
                              "min_step_ticks": 0,
                              "copy_group": 0, "copy_offset": 0,  # v9
                              "copy_prev": 0, "prev_offset": 0,  # v16
                              "prev_pairs": 0, "prev_offset_count": 0,
                              "any_step_ticks": 0, "any_probe_ticks": 0,
                              "min_any_step_ticks": 0,            # v16
                              "min_address": 0, "max_address": 0, # v16
                              "probe_lead": 0, "lead_offset": 0,  # v19
                              "site_reserved": 0,                 # v19
                              "func": "f", "file": ""}]}]}]}

Every new version-2 field defaults to 0, except the overhead table's
"stable" (1) and "fenced" (1), and the process's "tick_step256" (version 5;
256, a counter that moves every tick). A node is a list (min and max
default to the active time per call, (incl - overhead - off_cpu) // calls;
the last four fields default to 0) or an object with keys parent, func,
calls, incl, excl, min, max, overhead, off_cpu, voluntary, involuntary;
parent -1 means no parent; func is a process-wide function id or a
function name (first match in the process). "chain" appends a D-deep chain
of nodes (each the child of the previous, cycling through funcs, exclusive
E ticks each) after "nodes", under the last listed node. "samples"
(version 3) writes the SK_Samples section after the traces; a sample's
node -1 means outside any instrumented function, its flags are
raw::SampleFlags (1 off-CPU, 2 preempted, 4 /proc state, 8 prior frame,
16 self-preempted).

Version 6 (the version written; the reader refuses older ones, --version
writes another number into the header only): every new field defaults to
0 -- the overhead table is not "measured" (OF_Measured: it is then the
probes' whole cost, as the older specs meant), "timing_threshold" 0 (every
call timed) -- except "code_sample_flags", CSF_Disabled when
"code_sample_period_ns" is 0 (no samples were taken). A thread's
"reserved" is ThreadRecord::Reserved (after NumCodeSamples); a process's
"num_block_counts" is ProcessRecord::NumBlockCounts (no block counts
sections are written). A thread without "counts" writes no CountRecords
(the tool then takes the calls from its nodes); "counts": "nodes" writes
one per function of its nodes with their summed calls. A count is an
object (func, calls, counted -> CR_Counted; "flags" sets the raw flags) or
a list [func, calls, counted]; func is an id or a name. A code sample is an
object or a list [node, flags, addr, count]: node -1 is kNoNode; flags are
raw::CodeSampleFlags (1 caller, 2 kernel, 4 counting) or a list of their
names; addr is an integer or a function name with an optional "+N": that
function's "addr" + N (the tool maps addresses it cannot symbolize, e.g.
of a module path that does not exist, to the nearest function start
below, so "func+N" lands in func); count defaults to 1.

Version 7: a node's "call_site" (12th list field) and a code sample's
"caller" (5th) are return addresses, integers or "func+N" like addr; both
default to 0 (unknown).

Version 8: checksums. The file header
ends with the XXH3-64 of its first 32 bytes; a section header is Checksum,
Kind, Size, the checksum the low 32 bits of the XXH3-64 of the section from
Kind to the end of its payload. They are computed with python3-xxhash (the
reference C library) after every corruption switch but --flip, --truncate
and --append, following the section headers as the reader does, so a
corruption reaches the check it is meant for; --flip changes bytes after
that, which the checksums must catch.
The v8 trace fields: a trace's "buffer_ticks", "buffer_bytes" and
"buffer_flags" (raw::TraceBufferFlags: 1 populate, 2 touch, 4 huge pages, 8
out of memory) say what making its buffers ready cost; "reserved" is
TraceRecord::Reserved. All default to 0.

Version 9 (the version written): latency histograms. A thread's "latency"
lists LatencyRecords: [node, bucket, count] or an object whose "ticks"
names the bucket by a value (the log-linear layout of
include/activetime/latency.h, 8 sub-buckets per power of two, reimplemented
here as bucket_of); "auto" gives every node with calls one call in the
bucket of its min, one in that of its max and the rest in that of its mean.
A thread with "latency" gets the TF_Latency flag (4) unless "flags" is
given. The records are sorted by (node, bucket) unless "latency_sorted" is
false; "num_latency" overrides their count (ThreadRecord::NumLatency, the
former Reserved; "reserved" still sets the same field).

Version 13: a trace's "buffer_flags" may hold TBF_Budget (16): the
process's trace buffers reached trace_memory_mb.

Version 12: a thread's "folded_threads" (ThreadRecord::FoldedThreads) makes
it the record of that many finished threads folded together; it gets the
TF_Folded flag (32) unless "flags" is given.

Also in version 9: a module's "inlined_away" list (same keys as
"functions", address 0) names the functions inlined away before
instrumentation; "num_inlined_away" and "reserved" override the record's
fields.

Also in version 9: a site's "copy_group" and "copy_offset"
(the unrolled copies of one source access the pass proved, bytes from the
group's first site), all 0 by default.

Version 19: a site's "probe_lead" and "lead_offset" (SiteRecord::ProbeLead,
LeadOffset: the site measured by an earlier site's probe, 1 + its index,
and the bytes from that site's address) and "site_reserved", all 0 by
default; a strides section's "probe_gap_ticks" (StridesRecord::
ProbeGapTicks, formerly two reserved words, the same in each section of a
process), 0 by default.

Version 18: a process's "threaded_by_runtime_us"
(ProcessRecord::ThreadedByRuntimeUs, formerly Reserved) defaults to
0xffffffff (the runtime's threads did not make it multi-threaded).

Version 16: a site's "copy_prev" (SiteRecord::CopyPrev, formerly Reserved:
an unproven copy's previous copy, 1 + its index; flag "copy_unproven"),
"prev_offset", "prev_pairs" and "prev_offset_count" (the offsets from the
previous copy the runtime observed), all 0 by default.

Version 16: a site's "any_step_ticks", "any_probe_ticks" and
"min_any_step_ticks" (every adjacent step whatever its difference: summed,
the probe's part, the shortest) and "min_address" and "max_address" (the
observed addresses' range), 0 by default.

"""

import argparse
import json
import os
import struct
import sys

try:
    import xxhash
except ImportError:
    # A python3 on PATH other than Debian's (pyenv, a virtualenv) does not
    # see Debian's python3-xxhash: run under Debian's if that one has it.
    SYSTEM_PYTHON = "/usr/bin/python3"
    if (os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON)
            and os.access(SYSTEM_PYTHON, os.X_OK)
            and not os.environ.get("MKRAW_REEXEC")):
        os.environ["MKRAW_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    sys.exit("mkraw.py: error: the Python module xxhash is missing (Debian "
             "package python3-xxhash; scripts/install-deps.sh installs it)")

import rawlayout

RAW = rawlayout.load()
MAGIC = b"\x7fATPROF\n"
VERSION = RAW.version
CPU_UNKNOWN = (1 << 64) - 1  # raw::kCpuUnknown
HEADER_SIZE = RAW.size("FileHeader")
HEADER_CHECKSUMMED = RAW.offset("FileHeader", "Checksum")  # bytes before it
SECTION_HEADER_SIZE = RAW.size("SectionHeader")
SECTION_CHECKSUM_FROM = RAW.offset("SectionHeader", "Kind")
NO_PARENT = 0xFFFFFFFF
TF_LATENCY = 4
TF_FOLDED = 32
SK_PROCESS, SK_MODULE, SK_THREAD = (RAW.kind("Process"), RAW.kind("Module"),
                                    RAW.kind("Thread"))
SK_TRACE, SK_STRIDES = RAW.kind("Trace"), RAW.kind("Strides")
SK_SAMPLES, SK_PARALLEL = RAW.kind("Samples"), RAW.kind("Parallel")
SK_MPI = RAW.kind("Mpi")
NO_NODE = 0xFFFFFFFF
SITE_FLAGS = {"store": 1, "static": 2, "loop": 4, "copy_unproven": 8}
OF_STABLE, OF_FENCED, OF_MEASURED = 1, 2, 4
CSF_NAMES = {"disabled": 1, "unavailable": 2, "user_only": 4, "stacks": 8,
             "cost_unmeasured": 16, "not_started": 32}
CSF_DISABLED = 1
CR_COUNTED = 1
CSR_NAMES = {"caller": 1, "kernel": 2, "counting": 4}
KINDS = {"enter": 0, "exit": 1}


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def func_id(proc, ref):
    if isinstance(ref, int):
        return ref
    i = 0
    for m in proc.get("modules", []):
        for f in m.get("functions", []):
            if f["name"] == ref:
                return i
            i += 1
    sys.exit("mkraw: no function named %r" % ref)


def flag_bits(v, names):
    if isinstance(v, list):
        return sum(names[f] for f in v)
    return v


def ticks256(d, key, default=0):
    """d[key + "256"] as is, or d[key] in ticks scaled by 256."""
    if key + "256" in d:
        return d[key + "256"]
    return round(d.get(key, default) * 256)


def func_addr(proc, ref):
    """An address: an integer, or "name" / "name+N" (function addr + N)."""
    if isinstance(ref, int):
        return ref
    name, _, off = ref.partition("+")
    for m in proc.get("modules", []):
        for f in m.get("functions", []):
            if f["name"] == name:
                return f.get("addr", 0) + (int(off, 0) if off else 0)
    sys.exit("mkraw: no function named %r" % name)


def thread_counts(proc, t):
    counts = t.get("counts", [])
    if counts == "nodes":
        calls = {}
        for n in t.get("nodes", []):
            func = n["func"] if isinstance(n, dict) else n[1]
            c = n.get("calls", 1) if isinstance(n, dict) else n[2]
            f = func_id(proc, func)
            calls[f] = calls.get(f, 0) + c
        counts = [[f, calls[f], False] for f in sorted(calls) if calls[f]]
    out = []
    for c in counts:
        if isinstance(c, dict):
            func, calls = c["func"], c.get("calls", 1)
            flags = c.get("flags", CR_COUNTED if c.get("counted") else 0)
        else:
            func, calls = c[0], c[1]
            flags = CR_COUNTED if len(c) > 2 and c[2] else 0
        out.append(RAW.pack("CountRecord", Func=func_id(proc, func),
                            Flags=flags, Calls=calls))
    return out


def thread_code_samples(proc, t):
    out = []
    for c in t.get("code_samples", []):
        if isinstance(c, dict):
            node, flags = c.get("node", 0), c.get("flags", 0)
            addr, count = c.get("addr", 0), c.get("count", 1)
            caller = c.get("caller", 0)
        else:
            node, flags, addr, count, caller = (list(c) + [1, 0][len(c) - 3:])[:5]
        out.append(RAW.pack("CodeSampleRecord",
                            Node=NO_NODE if node < 0 else node,
                            Flags=flag_bits(flags, CSR_NAMES),
                            Addr=func_addr(proc, addr), Count=count,
                            Caller=func_addr(proc, caller)))
    return out


def bucket_of(v):
    """The latency bucket of v ticks (include/activetime/latency.h)."""
    shift = (v | 8).bit_length() - 1 - 3
    return (shift << 3) + (v >> shift)


def thread_latency(proc, t, nodes):
    spec = t.get("latency")
    if spec is None:
        return []
    recs = []
    if spec == "auto":
        for i, n in enumerate(nodes):
            r = RAW.unpack("NodeRecord", n)
            calls, incl, mn, mx = (r["Calls"], r["InclTicks"], r["MinTicks"],
                                   r["MaxTicks"])
            oh, off = r["OverheadTicks"], r["OffCpuTicks"]
            if not calls:
                continue
            mean = max(incl - oh - off, 0) // calls
            parts = [(mn, 1), (mx, 1), (mean, calls - 2)] if calls > 1 \
                else [(mn, 1)]
            for v, c in parts:
                if c:
                    recs.append([i, bucket_of(v), c])
    else:
        for r in spec:
            if isinstance(r, dict):
                b = bucket_of(r["ticks"]) if "ticks" in r else r["bucket"]
                r = [r["node"], b, r.get("count", 1)]
            recs.append(list(r))
    if t.get("latency_sorted", True):
        merged = {}
        for node, b, c in recs:
            merged[(node, b)] = merged.get((node, b), 0) + c
        recs = [[n, b, c] for (n, b), c in sorted(merged.items())]
    return [RAW.pack("LatencyRecord", Node=n, Bucket=b, Count=c)
            for n, b, c in recs]


def node_bytes(n):
    parent, func, calls, incl, excl, mn, mx, oh, off, vol, inv, site = n
    return RAW.pack("NodeRecord", Parent=parent & 0xFFFFFFFF, Func=func,
                    Calls=calls, InclTicks=incl, ExclTicks=excl, MinTicks=mn,
                    MaxTicks=mx, OverheadTicks=oh, OffCpuTicks=off,
                    VoluntarySwitches=vol, InvoluntarySwitches=inv,
                    CallSite=site)


def thread_nodes(proc, t):
    out = []
    for n in t.get("nodes", []):
        if isinstance(n, dict):
            n = [n.get("parent", -1), n["func"], n.get("calls", 1),
                 n.get("incl", 0), n.get("excl", 0), n.get("min"),
                 n.get("max"), n.get("overhead", 0), n.get("off_cpu", 0),
                 n.get("voluntary", 0), n.get("involuntary", 0),
                 n.get("call_site", 0)]
        n = list(n) + [None] * (12 - len(n))
        parent, func, calls, incl, excl = n[:5]
        oh, off, vol, inv = [v or 0 for v in n[7:11]]
        site = func_addr(proc, n[11] or 0)
        avg = max(incl - oh - off, 0) // calls if calls else 0
        mn = avg if n[5] is None else n[5]
        mx = avg if n[6] is None else n[6]
        out.append(node_bytes((NO_PARENT if parent < 0 else parent,
                               func_id(proc, func), calls, incl, excl, mn,
                               mx, oh, off, vol, inv, site)))
    chain = t.get("chain")
    if chain:
        funcs = [func_id(proc, f) for f in chain["funcs"]]
        depth, excl = chain["depth"], chain.get("excl", 1)
        base = len(out)
        for d in range(depth):
            parent = base + d - 1 if d or base else NO_PARENT
            incl = excl * (depth - d)
            out.append(node_bytes((parent, funcs[d % len(funcs)], 1, incl,
                                   excl, incl, incl, 0, 0, 0, 0, 0)))
    return out


def parallel_section(par):
    """SK_Parallel: the record, the regions, their threads, the paths."""
    regions, entries = par.get("regions", []), par.get("entries", [])
    strings, recs = b"", b""
    for r in regions:
        path = r.get("path", "").encode()
        recs += RAW.pack("RegionRecord", Address=r.get("address", 0),
                         PathOffset=len(strings), PathLen=len(path),
                         Instances=r.get("instances", 1),
                         WallTicks=r.get("wall_ticks", 0),
                         MaxWorkers=r.get("max_workers", 1))
        strings += path
    for e in entries:
        recs += RAW.pack("RegionThreadRecord", Region=e.get("region", 0),
                         Tid=e.get("tid", 1),
                         StateTicks=e.get("state_ticks", []),
                         Transitions=e.get("transitions", []),
                         LocalTakes=e.get("local_takes", 0),
                         StolenTakes=e.get("stolen_takes", 0),
                         TasksCreated=e.get("tasks_created", 0),
                         Chunks=e.get("chunks", 0),
                         WaitEntries=e.get("wait_entries", 0))
    head = RAW.pack("ParallelRecord", Status=par.get("status", 0),
                    NumRegions=len(regions), NumEntries=len(entries),
                    StringBytes=len(strings),
                    LostEvents=par.get("lost_events", 0))
    return pad8(head + recs + strings)


def build_sections(desc):
    sections = []
    for p in desc["processes"]:
        exe = p.get("exe", "").encode()
        bid = bytes.fromhex(p.get("build_id", ""))
        host = p.get("host", "").encode()
        mods, threads = p.get("modules", []), p.get("threads", [])
        traces = p.get("traces", [])
        oh = p.get("overhead", {})
        enter256 = ticks256(oh, "enter")
        exit256 = ticks256(oh, "exit")
        oflags = oh.get("flags",
                        (OF_STABLE if oh.get("stable", 1) else 0) |
                        (OF_FENCED if oh.get("fenced", 1) else 0) |
                        (OF_MEASURED if oh.get("measured", 0) else 0))
        period = p.get("code_sample_period_ns", 0)
        csflags = flag_bits(p.get("code_sample_flags",
                                  0 if period else CSF_DISABLED), CSF_NAMES)
        overhead = dict(
            Enter256=enter256, Exit256=exit256, Source=oh.get("source", 0),
            Batches=oh.get("batches", 0),
            SpreadPermille=oh.get("spread_permille", 0), Flags=oflags,
            Pair256=ticks256(oh, "pair"),
            MeasuredEnter256=ticks256(oh, "measured_enter"),
            MeasuredExit256=ticks256(oh, "measured_exit"),
            ReadyTick=oh.get("ready_tick", 0))
        rec = RAW.pack(
            "ProcessRecord", TickRate=p.get("tick_rate", 1000000000),
            StartTick=p.get("start_tick", 0), EndTick=p.get("end_tick", 0),
            StartUnixNs=p.get("start_unix_ns", 0), Pid=p.get("pid", 1),
            ParentPid=p.get("ppid", 0),
            NumModules=p.get("num_modules", len(mods)),
            NumThreads=p.get("num_threads", len(threads)),
            NumTraces=p.get("num_traces", len(traces)),
            ExeLen=p.get("exe_len", len(exe)), BuildIdLen=len(bid),
            NumStrides=p.get("num_strides", len(p.get("strides", []))),
            Overhead=overhead, TickStep256=p.get("tick_step256", 256),
            TimingThreshold=p.get("timing_threshold", 0),
            CodeSamplePeriodNs=period,
            CodeSampleCost256=ticks256(p, "code_sample_cost"),
            CodeSampleFlags=csflags, NumBlockCounts=p.get("num_block_counts", 0),
            MpiRank=p.get("mpi_rank", 0), MpiSize=p.get("mpi_size", 0),
            HostLen=p.get("host_len", len(host)),
            ThreadedByRuntimeUs=p.get("threaded_by_runtime_us", 0xffffffff))
        sections.append((SK_PROCESS, pad8(rec + exe + bid + host)))
        for m in mods:
            name, path = m.get("name", "").encode(), m.get("path", "").encode()
            fns = m.get("functions", [])
            away = m.get("inlined_away", [])
            b = RAW.pack("ModuleRecord", Hash=m.get("hash", 0),
                         LoadBase=m.get("load_base", 0),
                         NumFuncs=m.get("num_funcs", len(fns)),
                         NameLen=len(name), PathLen=len(path),
                         Flags=m.get("flags", 0),
                         NumInlinedAway=m.get("num_inlined_away", len(away)),
                         Reserved=m.get("reserved", 0)) + name + path
            for f in fns + away:
                fname, ffile = f["name"].encode(), f.get("file", "").encode()
                b += RAW.pack("FuncRecord", Addr=f.get("addr", 0),
                              Line=f.get("line", 0), Flags=f.get("flags", 0),
                              NameLen=len(fname),
                              FileLen=len(ffile)) + fname + ffile
            sections.append((SK_MODULE, pad8(b)))
        for t in threads:
            nodes = thread_nodes(p, t)
            counts = thread_counts(p, t)
            code = thread_code_samples(p, t)
            lat = thread_latency(p, t, nodes)
            tflags = t.get("flags", (TF_LATENCY if "latency" in t else 0) |
                           (TF_FOLDED if t.get("folded_threads") else 0))
            b = RAW.pack(
                "ThreadRecord", Tid=t.get("tid", 1),
                StartTick=t.get("start_tick", 0),
                EndTick=t.get("end_tick", 0),
                NumNodes=t.get("num_nodes", len(nodes)), Flags=tflags,
                OpenFrames=t.get("open_frames", 0),
                UnmatchedExits=t.get("unmatched_exits", 0),
                UnwoundFrames=t.get("unwound_frames", 0),
                DroppedEvents=t.get("dropped_events", 0),
                Name=t.get("name", "").encode(),  # NUL-padded, cut
                SwitchSource=t.get("switch_source", 0),
                NumCounts=t.get("num_counts", len(counts)),
                SwitchResolution=t.get("switch_resolution", 0),
                OffCpuTicks=t.get("off_cpu", 0),
                VoluntarySwitches=t.get("voluntary", 0),
                InvoluntarySwitches=t.get("involuntary", 0),
                LostSwitchRecords=t.get("lost_switch_records", 0),
                NumCodeSamples=t.get("num_code_samples", len(code)),
                NumLatency=t.get("num_latency", t.get("reserved", len(lat))),
                LostCodeSamples=t.get("lost_code_samples", 0),
                CpuNs=t.get("cpu_ns", CPU_UNKNOWN),
                FoldedThreads=t.get("folded_threads", 0))
            sections.append((SK_THREAD,
                             b + b"".join(nodes + counts + code + lat)))
        for t in traces:
            evs, sws = t.get("events", []), t.get("switches", [])
            b = RAW.pack("TraceRecord", Tid=t.get("tid", 1),
                         NumEvents=t.get("num_events", len(evs)),
                         NumSwitches=t.get("num_switches", len(sws)),
                         DroppedEvents=t.get("dropped_events", 0),
                         DroppedSwitches=t.get("dropped_switches", 0),
                         BufferTicks=t.get("buffer_ticks", 0),
                         BufferBytes=t.get("buffer_bytes", 0),
                         BufferFlags=t.get("buffer_flags", 0),
                         Reserved=t.get("reserved", 0))
            for ev in evs:
                tick, func, kind = ev[:3]
                measured = ev[3] if len(ev) > 3 else 0
                reserved = ev[4] if len(ev) > 4 else 0
                b += RAW.pack("TraceEvent", Tick=tick, Func=func_id(p, func),
                              Kind=KINDS.get(kind, kind), Measured=measured,
                              Reserved=reserved)
            for tick, old, new in sws:
                b += RAW.pack("SwitchEvent", Tick=tick, OldTid=old,
                              NewTid=new)
            sections.append((SK_TRACE, b))
        for st in p.get("strides", []):
            sites = st.get("sites", [])
            b = RAW.pack("StridesRecord", Module=st.get("module", 0),
                         NumSites=st.get("num_sites", len(sites)),
                         ProbeGapTicks=st.get("probe_gap_ticks", 0))
            for x in sites:
                fl = x.get("flags", ["loop"])
                if isinstance(fl, list):
                    fl = sum(SITE_FLAGS[f] for f in fl)
                fn, fi = x.get("func", "f").encode(), x.get("file", "").encode()
                b += RAW.pack(
                    "SiteRecord", Hash=x.get("hash", 0),
                    StaticStride=x.get("static_stride", 0),
                    Line=x.get("line", 0), Column=x.get("column", 0),
                    AccessSize=x.get("size", 8), Flags=fl,
                    LoopLine=x.get("loop_line", 0),
                    LoopDepth=x.get("loop_depth", 0),
                    Executions=x.get("executions", 0),
                    Observations=x.get("observations", 0),
                    Differences=x.get("differences", 0),
                    Adjacent=x.get("adjacent", 0),
                    ZeroDiffs=x.get("zero", 0), Gcd=x.get("gcd", 0),
                    Dominant=x.get("dominant", 0),
                    DominantCount=x.get("dominant_count", 0),
                    IterTicks=x.get("iter_ticks", 0),
                    ProbeTicks=x.get("probe_ticks", 0),
                    MinStepTicks=x.get("min_step_ticks", 0),
                    FuncLen=len(fn), FileLen=len(fi),
                    CopyGroup=x.get("copy_group", 0),
                    CopyPrev=x.get("copy_prev", 0),
                    CopyOffset=x.get("copy_offset", 0),
                    PrevOffset=x.get("prev_offset", 0),
                    PrevPairs=x.get("prev_pairs", 0),
                    PrevOffsetCount=x.get("prev_offset_count", 0),
                    AnyStepTicks=x.get("any_step_ticks", 0),
                    AnyProbeTicks=x.get("any_probe_ticks", 0),
                    MinAnyStepTicks=x.get("min_any_step_ticks", 0),
                    MinAddress=x.get("min_address", 0),
                    MaxAddress=x.get("max_address", 0),
                    ProbeLead=x.get("probe_lead", 0),
                    LeadOffset=x.get("lead_offset", 0),
                    SiteReserved=x.get("site_reserved", 0)) + fn + fi
            sections.append((SK_STRIDES, pad8(b)))
        if "parallel" in p:
            sections.append((SK_PARALLEL, parallel_section(p["parallel"])))
        if "mpi" in p:
            mp = p["mpi"]
            routines = mp.get("routines", [])
            b = RAW.pack("MpiRecord",
                         NumRoutines=mp.get("num_routines", len(routines)),
                         Reserved=mp.get("reserved", 0))
            for r in routines:
                b += RAW.pack("MpiRoutineRecord", Func=func_id(p, r["func"]),
                              Reserved=r.get("reserved", 0),
                              Bytes=r.get("bytes", 0))
            sections.append((SK_MPI, b))
        if "samples" in p:
            sm = p["samples"]
            recs = sm.get("samples", [])
            b = RAW.pack("SamplesRecord",
                         IntervalTicks=sm.get("interval", 1000),
                         StartTick=sm.get("start_tick", 0),
                         EndTick=sm.get("end_tick", 0),
                         NumSamples=sm.get("num_samples", len(recs)),
                         Sweeps=sm.get("sweeps", 0),
                         Dropped=sm.get("dropped", 0),
                         TornRetries=sm.get("torn_retries", 0),
                         TornDiscarded=sm.get("torn_discarded", 0),
                         Unmapped=sm.get("unmapped", 0),
                         ProcStateSamples=sm.get("proc_state", 0),
                         SamplerCpuNs=sm.get("sampler_cpu_ns", 0),
                         Flags=sm.get("flags", 1),
                         WakeLateNs=sm.get("wake_late_ns", 0))
            for tick, weight, thread, node, flags, depth in recs:
                b += RAW.pack("SampleRecord", Tick=tick, Weight=weight,
                              Thread=thread,
                              Node=NO_NODE if node < 0 else node, Flags=flags,
                              Depth=depth)
            sections.append((SK_SAMPLES, b))
    return sections


def assemble(sections, flags, num_sections=None):
    body = b"".join(RAW.pack("SectionHeader", Kind=k, Size=len(p)) + p
                    for k, p in sections)
    size = HEADER_SIZE + len(body)
    n = len(sections) if num_sections is None else num_sections
    return bytearray(RAW.pack("FileHeader", Magic=MAGIC, Version=VERSION,
                              HeaderSize=HEADER_SIZE, FileSize=size,
                              NumSections=n, Flags=flags) + body)


def section_offsets(sections):
    off, offs = HEADER_SIZE, []
    for _, p in sections:
        offs.append(off)
        off += SECTION_HEADER_SIZE + len(p)
    return offs


def seal(data):
    """Sets every checksum to what the bytes hash to (raw_format.h), following
    the section headers as far as they lie inside the file."""
    if len(data) < HEADER_SIZE:
        return
    n = RAW.get(data, "FileHeader", "NumSections", 0)
    off = HEADER_SIZE
    for _ in range(n):
        if len(data) - off < SECTION_HEADER_SIZE:
            break
        size = RAW.get(data, "SectionHeader", "Size", off)
        end = off + SECTION_HEADER_SIZE + size
        if end > len(data):
            break
        h = xxhash.xxh3_64_intdigest(bytes(data[off + SECTION_CHECKSUM_FROM:
                                                end]))
        RAW.put(data, "SectionHeader", "Checksum", off, h & 0xFFFFFFFF)
        off = end
    RAW.put(data, "FileHeader", "Checksum", 0,
            xxhash.xxh3_64_intdigest(bytes(data[:HEADER_CHECKSUMMED])))


def pair(s):
    a, b = s.split(":")
    return int(a, 0), int(b, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", help="JSON description ('-' for stdin)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--set", action="append", default=[], metavar="K=V",
                    help="change the description before writing: a dotted "
                    "path of keys and list indices, and a JSON value, e.g. "
                    "processes.0.threads.0.nodes.1.0=5")
    g = ap.add_argument_group("corruptions")
    g.add_argument("--bad-magic", action="store_true")
    g.add_argument("--version", type=int, help="file format version field")
    g.add_argument("--header-size", type=int)
    g.add_argument("--file-size", type=int, help="FileSize field")
    g.add_argument("--flags", type=int, help="file header flags field")
    g.add_argument("--num-sections", type=int)
    g.add_argument("--truncate", type=int, metavar="N",
                   help="keep only the first N bytes")
    g.add_argument("--append", type=int, metavar="N",
                   help="append N garbage bytes (header FileSize unchanged)")
    g.add_argument("--drop-section", type=int, metavar="I", action="append",
                   default=[], help="leave out section I (sizes adjusted)")
    g.add_argument("--section-kind", type=pair, metavar="I:KIND",
                   action="append", default=[])
    g.add_argument("--section-size", type=pair, metavar="I:SIZE",
                   action="append", default=[],
                   help="set the size field only (payload unchanged)")
    g.add_argument("--flip", type=pair, metavar="OFF:MASK", action="append",
                   default=[], help="XOR the byte at a file offset with MASK "
                   "after the checksums are computed")
    g.add_argument("--poke32", type=pair, metavar="OFF:V", action="append",
                   default=[], help="overwrite a u32 at a file offset")
    g.add_argument("--poke64", type=pair, metavar="OFF:V", action="append",
                   default=[], help="overwrite a u64 at a file offset")
    a = ap.parse_args()

    src = sys.stdin if a.input == "-" else open(a.input)
    desc = json.load(src)
    for kv in a.set:
        key, val = kv.split("=", 1)
        *path, last = [int(k) if k.isdigit() else k for k in key.split(".")]
        obj = desc
        for k in path:
            obj = obj[k]
        obj[last] = json.loads(val)
    secs = [[k, p] for k, p in build_sections(desc)]
    secs = [s for i, s in enumerate(secs) if i not in a.drop_section]
    for i, k in a.section_kind:
        secs[i][0] = k
    data = assemble(secs, 1 if desc.get("merged") else 0, a.num_sections)
    offs = section_offsets(secs)
    for i, v in a.section_size:
        RAW.put(data, "SectionHeader", "Size", offs[i], v)
    if a.bad_magic:
        data[0:len(MAGIC)] = b"NOTAPROF"
    if a.version is not None:
        RAW.put(data, "FileHeader", "Version", 0, a.version)
    if a.header_size is not None:
        RAW.put(data, "FileHeader", "HeaderSize", 0, a.header_size)
    if a.file_size is not None:
        RAW.put(data, "FileHeader", "FileSize", 0, a.file_size)
    if a.flags is not None:
        RAW.put(data, "FileHeader", "Flags", 0, a.flags)
    for off, v in a.poke32:
        struct.pack_into("<I", data, off, v)
    for off, v in a.poke64:
        struct.pack_into("<Q", data, off, v)
    seal(data)
    for off, mask in a.flip:
        data[off] ^= mask
    if a.truncate is not None:
        data = data[:a.truncate]
    if a.append:
        data += b"\xa5" * a.append
    with open(a.output, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
