#===- bench/truth/threaded.py - the truth harness's multi-threaded programs -===#
#
# Part of ActiveTime. What bench/truth/run.py needs for programs with
# several threads: the programs and their workloads, perf's samples per
# thread *role* (tids differ between runs, roles do not), ActiveTime's
# figures per thread, the per-role figures, the largest excess of any
# function, and the check of the sampled view (sample=1) against the time
# report. run.py runs the rounds and prints; see its header for the figures.
#
# A thread's role: "main" for the process's first thread; otherwise the
# first role (in the program's order) one of whose marker functions the
# thread ran: in ActiveTime, a function of the thread with calls; in perf,
# an own frame anywhere in one of the thread's sampled call chains. A
# thread that shows none (perf saw no sample of it under a marker) is
# "other". Markers are functions whose address is taken (thread entries,
# jobs handed to a pool), so no build inlines them away.
#
#===----------------------------------------------------------------------===#

import collections
import hashlib
import json
import os
import random
import re
import statistics
import subprocess

SHARE_CUT = 0.01

# --- the programs ------------------------------------------------------------
# args: {db} is a directory of the program's own under the scratch
# directory, {input} the generated input (make_input). mask: what of stdout
# is compared (timings removed). digest: compare a hash (large outputs).
# libs: names of the build's outputs that are the program's own shared
# libraries (their frames count as the program's in perf's samples).

LEVELDB_ROLES = [("client", ["Benchmark10ThreadBody"]),
                 ("compaction", ["BackgroundThreadEntryPoint", "DBImpl14BackgroundCall"])]


def leveldb_mask(out):
    # db_bench prints "fillrandom :  3.456 micros/op;   32.0 MB/s": the
    # timings go, with the padding of their printf widths; the rest
    # (sizes, "(N of N found)") is deterministic.
    out = re.sub(rb" *[0-9.]+ micros/op", b" X micros/op", out)
    return re.sub(rb" *[0-9.]+ MB/s", b" X MB/s", out)


def leveldb(threads, num):
    return {"project": "leveldb", "binary": "db_bench",
            "args": ["--db={db}", "--benchmarks=fillrandom,readrandom",
                     "--num=%d" % num, "--threads=%d" % threads],
            "roles": LEVELDB_ROLES, "mask": leveldb_mask}


THREADED = collections.OrderedDict([
    # One client thread; the background compaction thread blocks in a
    # condition variable wait most of its life, and the main thread waits
    # for the client throughout.
    ("leveldb", leveldb(1, 100000)),
    ("leveldb-t2", leveldb(2, 50000)),
    # Four writers queue on the DB mutex and its writer condition
    # variables (group commit), four readers on the mutex and the block
    # cache's shards: contention on 2 cores.
    ("leveldb-t4", leveldb(4, 25000)),
    # zstd -T2: two compression workers in a pool, asynchronous read and
    # write threads, the main thread handing out jobs and waiting.
    ("zstd-T2", {"project": "zstd", "binary": "zstd",
                 "args": ["-6", "-T2", "-q", "-c", "--no-progress", "{input}"],
                 "roles": [("compress-worker", ["ZSTDMT_compressionJob"]),
                           ("io-read", ["AIO_ReadPool_executeReadJob"]),
                           ("io-write", ["AIO_WritePool_executeWriteJob"])],
                 "digest": True, "input": 48 << 20}),
    # pbzip2 -p4 -b1: four consumers on 2 cores take 100 kB blocks from one
    # queue and hand them to the writer, under a mutex and condition
    # variables (thousands of waits); a signal thread and a terminator
    # thread block all their lives.
    ("pbzip2-p4", {"project": "pbzip2", "binary": "pbzip2",
                   "args": ["-p4", "-b1", "-c", "{input}"],
                   "roles": [("consumer", ["consumer"]),
                             ("writer", ["fileWriter"]),
                             ("signal", ["signalHandlerProc"]),
                             ("terminator", ["terminatorThreadProc"])],
                   "digest": True, "input": 16 << 20}),
])


def make_input(work, size):
    """A deterministic text-like input of `size` bytes, made once in work:
    lines of words drawn (seeded) from a fixed vocabulary with a skewed
    distribution, a few repeated paragraphs and some binary runs, so that
    the compressor finds matches of all lengths without long verbatim
    repeats of the whole."""
    path = os.path.join(work, "threaded-input-%d" % size)
    if os.path.exists(path):
        return path
    rng = random.Random(20261127)
    syll = ["ka", "ro", "te", "mi", "sun", "dar", "el", "po", "qua", "zi", "len", "tor",
            "ab", "ix", "om", "ve", "ny", "sha", "gru", "fe"]
    vocab = ["".join(rng.choice(syll) for _ in range(rng.randint(1, 4))) for _ in range(5000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    paragraphs = []
    with open(path + ".tmp", "wb") as out:
        while out.tell() < size:
            r = rng.random()
            if r < 0.05 and paragraphs:
                out.write(rng.choice(paragraphs))
            elif r < 0.08:
                out.write(bytes(rng.getrandbits(8) for _ in range(rng.randint(64, 2048))))
            else:
                words = rng.choices(vocab, weights, k=rng.randint(40, 400))
                p = (" ".join(words) + ".\n").encode()
                if len(paragraphs) < 200:
                    paragraphs.append(p)
                out.write(p)
        out.truncate(size)
    os.rename(path + ".tmp", path)
    return path


def prepare_args(spec, name, work, scratch):
    """The program's arguments with {db} and {input} filled in."""
    db = os.path.join(scratch, name + "-db")
    inp = make_input(work, spec["input"]) if "input" in spec else None
    return [a.replace("{db}", db).replace("{input}", inp or "") for a in spec["args"]]


def comparable_stdout(spec, out):
    """What of a run's stdout must equal plain's."""
    if spec.get("mask"):
        out = spec["mask"](out)
    if spec.get("digest"):
        out = ("sha256 %s, %d bytes" % (hashlib.sha256(out).hexdigest(), len(out))).encode()
    return out


# --- perf, per thread --------------------------------------------------------

def role_of(markers_seen, roles):
    """The first role in program order whose markers the thread showed."""
    for role, markers in roles:
        if any(m in markers_seen for m in markers):
            return role
    return "other"


def markers_in(names, roles):
    found = set()
    for _, markers in roles:
        for m in markers:
            if any(m in n for n in names):
                found.add(m)
    return found


def perf_thread_samples(data, own_dsos, roles):
    """perf's samples of a run, per thread role: {role: {"weight": ns of
    cpu-clock, "threads": n, "self": {function: ns}, "dropped": ns}}, each
    sample charged to its innermost frame in one of own_dsos (as run.py
    does; a sample without one is dropped from the shares but counted in
    the role's CPU weight)."""
    r = subprocess.run(["perf", "script", "-i", data, "-F", "pid,tid,period,ip,sym,dso",
                        "--no-inline", "--no-demangle"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, errors="replace")
    if r.returncode != 0:
        raise RuntimeError("perf script failed")
    own = {os.path.realpath(d) for d in own_dsos}
    per_tid = collections.defaultdict(lambda: {"weight": 0, "self": collections.Counter(),
                                               "dropped": 0, "markers": set(), "pid": None})
    for pid, tid, period, frames in parse_samples(r.stdout):
        t = per_tid[tid]
        t["pid"] = pid
        t["weight"] += period
        mine = [f for f in (own_frame(l, own) for l in frames) if f]
        if mine:
            t["self"][mine[0]] += period
            t["markers"] |= markers_in(mine, roles)
        else:
            t["dropped"] += period
    return group_roles(per_tid, roles)


def group_roles(per_tid, roles):
    out = {}
    for tid, t in per_tid.items():
        role = "main" if tid == t["pid"] else role_of(t["markers"], roles)
        g = out.setdefault(role, {"weight": 0, "threads": 0, "self": collections.Counter(),
                                  "dropped": 0})
        g["weight"] += t["weight"]
        g["threads"] += 1
        g["self"].update(t["self"])
        g["dropped"] += t["dropped"]
    for g in out.values():
        g["self"] = dict(g["self"])
    return out


def parse_samples(text):
    """(pid, tid, period, [frame lines]) per sample of `perf script -F
    pid,tid,period,ip,sym,dso`: a header line "pid/tid period" followed by
    the call chain's lines, innermost first, and a blank line."""
    head, frames = None, []
    for line in text.splitlines() + [""]:
        if not line.strip():
            if head:
                yield head + (frames,)
            head, frames = None, []
        elif head is None:
            m = re.match(r"\s*(\d+)/(\d+)\s+(\d+)", line)
            if m:
                head = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        else:
            frames.append(line.strip())


def own_frame(line, own):
    """The symbol of a perf script frame line if it is in an own DSO."""
    if not line.endswith(")") or " (" not in line:
        return None
    head, dso = line[:-1].rsplit(" (", 1)
    parts = head.split(None, 1)
    if len(parts) < 2 or dso not in own:
        return None
    sym = parts[1]
    if sym == "[unknown]" or sym.endswith("@plt"):
        return None
    # perf appends "+0x1c" to the symbol with some field sets
    return re.sub(r"\+0x[0-9a-f]+$", "", sym)


def perf_program_shares(roles):
    """The whole program's self weights (all threads) from the roles'."""
    acc = collections.Counter()
    for g in roles.values():
        acc.update(g["self"])
    return acc


# --- ActiveTime, per thread --------------------------------------------------

def at_threads(doc):
    """Per thread of a `report --json` document: tid, pid, total self-active
    and self-active per linkage name, and the names it called."""
    names = [f.get("linkage_name") or f.get("name") for f in doc.get("functions", [])]
    out = []
    for t in doc.get("threads", []):
        self_ns, called = collections.Counter(), set()
        for f in t.get("functions", []):
            n = names[f["function"]]
            if f.get("self_active_ns") is not None:
                self_ns[n] += f["self_active_ns"]
            if f.get("calls"):
                called.add(n)
        out.append({"tid": t.get("tid"), "pid": t.get("pid"), "name": t.get("name"),
                    "total_self": t.get("total_self_active_ns"), "self": dict(self_ns),
                    "called": called})
    return out


def at_roles(threads, roles):
    """ActiveTime's threads grouped by role: {role: {"self_ns", "threads",
    "self": {function: ns}}}."""
    out = {}
    for t in threads:
        role = ("main" if t["tid"] == t["pid"] else
                role_of(markers_in(t["called"], roles), roles))
        g = out.setdefault(role, {"self_ns": 0, "threads": 0, "self": collections.Counter()})
        g["self_ns"] += t["total_self"] or 0
        g["threads"] += 1
        g["self"].update(t["self"])
    for g in out.values():
        g["self"] = dict(g["self"])
    return out


# --- figures -----------------------------------------------------------------

def normalize(weights):
    total = sum(weights.values())
    return {k: v / total for k, v in weights.items()} if total else {}


def share_distance(p, q):
    """Total variation distance in points; names under 1% in both pooled."""
    kept = {k for k in set(p) | set(q) if abs(p.get(k, 0)) >= SHARE_CUT or
            abs(q.get(k, 0)) >= SHARE_CUT}
    d = sum(abs(p.get(k, 0) - q.get(k, 0)) for k in kept)
    rest_p = sum(v for k, v in p.items() if k not in kept)
    rest_q = sum(v for k, v in q.items() if k not in kept)
    return 50.0 * (d + abs(rest_p - rest_q))


def excess(at, perf):
    """(points, function) of the function whose ActiveTime share most
    exceeds perf's: how time blocked inside a function shows up."""
    best = (None, None)
    for k in set(at) | set(perf):
        e = 100.0 * (at.get(k, 0) - perf.get(k, 0))
        if best[0] is None or e > best[0]:
            best = (e, k)
    return best


def mean_shares(dists):
    dists = [d for d in dists if d is not None]
    acc = collections.Counter()
    for d in dists:
        for k, v in d.items():
            acc[k] += v / len(dists)
    return dict(acc)


def summary(xs):
    """{"median", "min", "max", "values"} of the figures that exist."""
    v = [x for x in xs if x is not None]
    if not v:
        return {"median": None, "min": None, "max": None, "values": xs}
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "values": xs}


def group_figures(at_rounds, perf_rounds, cpu_rounds):
    """The figures of one group of threads (a role, or all of them), from
    per round: ActiveTime {"self_ns", "self"}, perf {"weight", "self"} and
    the plain build's CPU ms for the group (None when absent)."""
    ats = [normalize(a["self"]) if a else None for a in at_rounds]
    perfs = [normalize(p["self"]) if p else None for p in perf_rounds]
    n = len(perfs)
    ratio = [a["self_ns"] / 1e6 / c if a and c else None for a, c in zip(at_rounds, cpu_rounds)]
    dist = [share_distance(a, p) if a is not None and p is not None else None
            for a, p in zip(ats, perfs)]
    floor = [share_distance(perfs[i], perfs[(i + 1) % n])
             if n > 1 and perfs[i] is not None and perfs[(i + 1) % n] is not None else None
             for i in range(n)]
    exc = [excess(a, p) if a is not None and p is not None else (None, None)
           for a, p in zip(ats, perfs)]
    mean_exc = excess(mean_shares(ats), mean_shares(perfs))
    return {"self_cpu": summary(ratio), "share_dist": summary(dist),
            "perf_floor": summary(floor), "excess": summary([e for e, _ in exc]),
            "excess_functions": [f for _, f in exc],
            "mean_excess": mean_exc[0], "mean_excess_function": mean_exc[1],
            "cpu_ms": summary(cpu_rounds)}


def role_figures(prog):
    """Per role and for the whole program: self/CPU, share distance, perf
    floor and excess. A role's plain CPU time is the plain task-clock
    times its share of perf's cpu-clock weight in the same round."""
    spec_roles = [r for r, _ in prog.spec["roles"]]
    seen = set()
    for a, p in zip(prog.at, prog.runs["perf"]):
        seen |= set(a["roles"]) | set(p["roles"])
    order = ["main"] + spec_roles + ["other"]
    out = collections.OrderedDict()
    for role in [r for r in order if r in seen]:
        at_r, perf_r, cpu_r = [], [], []
        for a, p, cpu in zip(prog.at, prog.runs["perf"], prog.adjacent_plain):
            total_w = sum(g["weight"] for g in p["roles"].values())
            pr = p["roles"].get(role)
            at_r.append(a["roles"].get(role))
            perf_r.append(pr)
            cpu_r.append(cpu * pr["weight"] / total_w if pr and total_w else None)
        f = group_figures(at_r, perf_r, cpu_r)
        f["threads_at"] = [a["roles"][role]["threads"] if role in a["roles"] else 0
                           for a in prog.at]
        f["threads_perf"] = [p["roles"][role]["threads"] if role in p["roles"] else 0
                             for p in prog.runs["perf"]]
        out[role] = f
    return out


def program_figures(prog):
    at_r = [{"self_ns": a["total_self"] or 0, "self": a["self"]} for a in prog.at]
    perf_r = [{"weight": None, "self": p["program_self"]} for p in prog.runs["perf"]]
    f = group_figures(at_r, perf_r, prog.adjacent_plain)
    f["slowdown"] = summary([a / p if p else None for a, p in
                             zip(prog.runs["activetime"], prog.adjacent_plain)])
    f["roles"] = role_figures(prog)
    return f


# --- the sampled view against the time report --------------------------------

def sampled_check(tool, raws):
    """Every function the time report shows as counted with >= 1% share:
    its share of on-CPU samples (`activetime export --format=folded
    --off-cpu=exclude`, innermost frame) against the time report's."""
    rep = subprocess.run([tool, "report", "--json"] + raws, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if rep.returncode != 0:
        raise RuntimeError("activetime report failed: " + rep.stderr.strip()[-300:])
    doc = json.loads(rep.stdout)
    sampled, how = sampled_shares(tool, raws)
    samples = on_cpu_samples(tool, raws)
    rows = []
    for f in doc.get("functions", []):
        share = f.get("self_active_share")
        if f.get("how") != "counted" or share is None or share < SHARE_CUT:
            continue
        keys = [f.get("linkage_name"), f.get("name"), f.get("short_name")]
        s = next((sampled[k] for k in keys if k in sampled), 0.0)
        rows.append({"name": f.get("short_name") or f.get("name"), "time": 100 * share,
                     "sampled": 100 * s, "diff": 100 * (s - share)})
    return {"rows": rows, "source": how, "sampled_functions": len(sampled),
            "samples": samples}


def on_cpu_samples(tool, raws):
    """How many on-CPU samples the shares come from."""
    r = subprocess.run([tool, "export", "--format=folded", "--off-cpu=exclude",
                        "--value=samples", "-o", "-"] + raws,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("activetime export failed: " + r.stderr.strip()[-300:])
    return int(round(sum(float(line.rpartition(" ")[2]) for line in r.stdout.splitlines()
                         if line.strip())))


def sampled_shares(tool, raws):
    """{function: share of the on-CPU samples whose innermost frame it is}."""
    r = subprocess.run([tool, "export", "--format=folded", "--off-cpu=exclude",
                        "--no-demangle", "-o", "-"] + raws,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    how = "folded export, on-CPU, weights in us"
    if r.returncode != 0:
        raise RuntimeError("activetime export failed: " + r.stderr.strip()[-300:])
    acc = collections.Counter()
    for line in r.stdout.splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        leaf = stack.split(";")[-1]
        # A counted function's frame is marked (its time is estimated from
        # the code samples), as is a function's code outside its probes; it
        # is still that function.
        for mark in (COUNTED_MARK, OUTSIDE_PROBES_MARK):
            if leaf.endswith(mark):
                leaf = leaf[:-len(mark)]
        acc[leaf] += float(n)
    return normalize(acc), how


COUNTED_MARK = " [counted]"
OUTSIDE_PROBES_MARK = " [outside probes]"


# --- printing helpers --------------------------------------------------------

def fmt_num(x, spec):
    return "n/a" if x is None else spec % x


_SHORT = {}


def short(name):
    """A linkage name demangled, without parameters and template arguments
    (for the printed lines; the JSON keeps linkage names)."""
    if name is None:
        return "?"
    if name not in _SHORT:
        r = subprocess.run(["c++filt", name], stdout=subprocess.PIPE, text=True)
        d = r.stdout.strip() or name
        _SHORT[name] = strip_brackets(d)
    return _SHORT[name]


def strip_brackets(d):
    """'ns::f<int>(char const*) const' -> 'ns::f'; '(anonymous namespace)'
    becomes '{anon}'."""
    d = d.replace("(anonymous namespace)", "{anon}")
    out, depth = [], 0
    for c in d:
        if c in "<(":
            depth += 1
        elif c in ">)" and depth:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out).replace(" const", "").strip()
