"""Runs a command while this process holds a write lock (fcntl, as the
runtime takes on the temporary file it is writing) on a file.

usage: hold_lock.py FILE COMMAND [ARG...]"""
import fcntl
import subprocess
import sys

with open(sys.argv[1], "r+") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    sys.exit(subprocess.call(sys.argv[2:]))
