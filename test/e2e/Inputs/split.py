#!/usr/bin/env python3
"""How code samples split self time: `split.py A B [--measured FILE]
< report.json` prints

  A how=HOW samples=yes|no sampled=yes|no
  share=S above50=yes|no below1=yes|no below25=yes|no
  provenance samples=yes|no
  measured=M close=yes|no                 (with --measured)

where "samples" says whether A's flat row has code samples, "sampled"
whether part of its self-active time came from them, S is A's self-active
time over the sum of A's and B's (printed for the log; tests check the
yes/no comparisons), the third line whether the profile's provenance block
counts any code sample, and the last compares S with the share M the program
measured itself (the number in FILE): close when they differ by at most
0.2."""
import json
import sys

doc = json.load(sys.stdin)
a, b = sys.argv[1], sys.argv[2]
fs = {f["name"]: f for f in doc["functions"]}
fa, fb = fs[a], fs[b]
yn = lambda c: "yes" if c else "no"
print("%s how=%s samples=%s sampled=%s" % (a, fa["how"], yn(fa["code_samples"] > 0),
                                           yn(fa["self_active_sampled_ns"] > 0)))
total = fa["self_active_ns"] + fb["self_active_ns"]
share = fa["self_active_ns"] / total if total > 0 else 0.0
print("share=%.3f above50=%s below1=%s below25=%s" % (share, yn(share > 0.5), yn(share < 0.01),
                                                      yn(share < 0.25)))
print("provenance samples=%s" % yn(doc["provenance"]["code_samples"] > 0))
if "--measured" in sys.argv:
    m = float(open(sys.argv[sys.argv.index("--measured") + 1]).read().split()[0])
    print("measured=%.3f close=%s" % (m, yn(abs(share - m) <= 0.2)))
