"""Runs an activetime command that writes OUTPUT, and as soon as the
command has written into its temporary file for OUTPUT
("OUTPUT.activetime-tmp-*"), sends it SIGNAL; then says how the command
ended and what it left. Bytes in the temporary mean the command is past
creating it (and registering it for removal on a signal).

usage: kill_output.py SIGNAL[:ignored] OUTPUT COMMAND [ARG...]

With ":ignored" the command starts with SIGNAL ignored (nohup, a background
job of a non-interactive shell).

Exits 1, saying so, if the command ends before its temporary was written
(the input must then be made bigger) or none is within a minute."""
import glob
import os
import signal
import subprocess
import sys
import time

name, _, how = sys.argv[1].partition(":")
sig = getattr(signal, name)
output = sys.argv[2]
pattern = glob.escape(output) + ".activetime-tmp-*"


def written():
    for f in glob.glob(pattern):
        try:
            if os.path.getsize(f):
                return True
        except OSError:  # renamed meanwhile
            pass
    return False


def dispositions():
    # SIGINT as an interactive shell leaves it: lit's workers ignore it,
    # which the command would inherit.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if how == "ignored":
        signal.signal(sig, signal.SIG_IGN)


proc = subprocess.Popen(sys.argv[3:], preexec_fn=dispositions)
deadline = time.monotonic() + 60
while not written():
    if proc.poll() is not None:
        sys.exit("kill_output.py: the command ended (%d) before its "
                 "temporary was written" % proc.returncode)
    if time.monotonic() > deadline:
        proc.kill()
        sys.exit("kill_output.py: no temporary of %s written within a "
                 "minute" % output)
    time.sleep(0.001)
proc.send_signal(sig)
rc = proc.wait()
print("ended by %s" % (signal.Signals(-rc).name if rc < 0 else "exit %d" % rc))
print("temporaries left: %d" % len(glob.glob(pattern)))
print("output written: %s" % ("yes" if os.path.exists(output) else "no"))
