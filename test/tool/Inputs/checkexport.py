"""Prints the figures of `activetime export --format=json` documents for
FileCheck; --same-report A B checks A's "report" equals the document B."""
import json
import sys

if sys.argv[1] == "--same-report":
    a = json.load(open(sys.argv[2]))
    b = json.load(open(sys.argv[3]))
    assert a["report"] == b, "export's report differs from report --json"
    helper = next(f for f in b["functions"] if f["name"] == "helper()")
    print("report identical; helper() calls %d; samples %d" % (
        helper["calls"], a["samples"]["samples"]))
    sys.exit(0)
for path in sys.argv[1:]:
    d = json.load(open(path))
    print("schema %s %d report %s %d parallel %s" % (
        d["schema"], d["version"], d["report"]["schema"],
        d["report"]["version"], d["parallel"]["schema"]))
    if d["samples"]["processes"]:
        print("functions " + " ".join(f["name"] for f in d["report"]["functions"]))
        s = d["samples"]
        print("samples %d on %d off %d" % (s["samples"], s["on_cpu_ns"], s["off_cpu_ns"]))
        sp = s["split"]
        print("split on=%d counted=%d +-%.1f outside=%d unsplit=%d frames "
              "own=%d pooled=%d unsplit=%d no-code-samples=%d" % (
                  sp["split_on_cpu_ns"], sp["counted_on_cpu_ns"],
                  sp["counted_uncertainty_ns"], sp["outside_probes_on_cpu_ns"],
                  sp["unsplit_on_cpu_ns"], sp["own_ratio_frames"],
                  sp["pooled_ratio_frames"], sp["unsplit_frames"],
                  sp["processes_without_code_samples"]))
        fns = d["report"]["functions"]
        for p in s["paths"]:
            # A frame's function id names the report's function of that name.
            for name, fid in zip(p["frames"], p["functions"]):
                assert fid is None or fns[fid]["name"] == name, (name, fid)
            print("path %s%s on=%d +-%.1f off=%d on_samples=%d preempted=%d" % (
                ";".join(p["frames"]), " [counted]" if p["counted"] else "",
                p["on_cpu_ns"], p["on_cpu_uncertainty_ns"], p["off_cpu_ns"],
                p["on_cpu_samples"], p["preempted_samples"]))
    for t in d["traces"]:
        print("traces %d:%d events=%d switches=%d dropped=%d/%d" % (
            t["pid"], t["tid"], t["events"], t["switches"], t["dropped_events"],
            t["dropped_switches"]))
