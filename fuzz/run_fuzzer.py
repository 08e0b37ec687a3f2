#!/usr/bin/env python3
"""Runs one libFuzzer target for a bounded number of executions.

usage: run_fuzzer.py FUZZER WORKDIR RUNS [SEED...]

Seeds (files or directories) are copied into WORKDIR/corpus, which the fuzzer
extends; a crashing input is written to WORKDIR/crash-*. Prints the number of
executions run; exits non-zero if the fuzzer found a crash.
"""
import os
import re
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    fuzzer, work, runs, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    corpus = os.path.join(work, "corpus")
    os.makedirs(corpus, exist_ok=True)
    for s in seeds:
        if os.path.isdir(s):
            for f in os.listdir(s):
                shutil.copy(os.path.join(s, f), corpus)
        elif os.path.isfile(s):
            shutil.copy(s, corpus)
    p = subprocess.run([fuzzer, "-runs=" + runs, "-max_len=65536",
                        "-artifact_prefix=" + work + "/", corpus],
                       capture_output=True, text=True)
    done = re.findall(r"Done (\d+) runs", p.stderr)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        print("FAIL %s: crash after %s executions; input in %s" %
              (os.path.basename(fuzzer), done[-1] if done else "?", work))
        return 1
    print("ok %s: %s executions without a crash" %
          (os.path.basename(fuzzer), done[-1] if done else "?"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
