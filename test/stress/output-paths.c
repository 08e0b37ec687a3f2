// What is at the output path is replaced by a whole profile or left exactly
// as it was, and a failed write never changes how the program ends: a
// device is written through (output=/dev/null discards the profile), a
// FIFO without a reader, a symbolic link and a directory are refused
// (output-size-limit.c: a file-size limit). Errors are one line, in words,
// and the profile is not lost: it goes to the default name in the working
// directory instead, as a second line says. A missing directory is made at
// start-up; one that cannot be made is a warning at start-up naming where
// the profile will go.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o op
// RUN: env ACTIVETIME_OPTIONS=output=/dev/null:verbosity=1 ./op 2>&1 | FileCheck --check-prefix=NULL %s
// RUN: test -c /dev/null
// NULL: done
// NULL: ActiveTime: wrote profile /dev/null
// RUN: env ACTIVETIME_OPTIONS=output=/dev/full ./op 2>&1 | FileCheck --check-prefix=FULL %s
// RUN: test -c /dev/full
// FULL: done
// FULL: ActiveTime: ERROR: cannot write profile '/dev/full': write failed: No space left on device
// FULL-NEXT: ActiveTime: the profile was written to 'activetime.op.{{[0-9]+}}.raw' instead
// RUN: %activetime report activetime.op.*.raw | FileCheck --check-prefix=REG %s
// RUN: rm activetime.op.*.raw
// RUN: mkfifo fifo
// RUN: env ACTIVETIME_OPTIONS=output=fifo ./op 2>&1 | FileCheck --check-prefix=FIFO %s
// RUN: test -p fifo
// FIFO: done
// FIFO: ActiveTime: ERROR: cannot write profile 'fifo': open failed: No such device or address
// FIFO-NEXT: ActiveTime: the profile was written to 'activetime.op.{{[0-9]+}}.raw' instead
// RUN: rm activetime.op.*.raw
// RUN: ln -s target.raw link.raw
// RUN: env ACTIVETIME_OPTIONS=output=link.raw ./op 2>&1 | FileCheck --check-prefix=LINK %s
// RUN: test -L link.raw
// RUN: not ls target.raw
// LINK: done
// LINK: ActiveTime: ERROR: cannot write profile 'link.raw': it is a symbolic link, left as it is (give its target as output=)
// LINK-NEXT: ActiveTime: the profile was written to 'activetime.op.{{[0-9]+}}.raw' instead
// RUN: rm activetime.op.*.raw
// RUN: mkdir adir
// RUN: env ACTIVETIME_OPTIONS=output=adir ./op 2>&1 | FileCheck --check-prefix=DIR %s
// RUN: test -d adir
// DIR: ActiveTime: ERROR: cannot write profile 'adir': it is a directory
// DIR-NEXT: ActiveTime: the profile was written to 'activetime.op.{{[0-9]+}}.raw' instead
// RUN: rm activetime.op.*.raw
// A missing directory is made at start-up, and the profile written there.
// RUN: env ACTIVETIME_OPTIONS=output=new/sub/p.raw ./op
// RUN: %activetime report new/sub/p.raw | FileCheck --check-prefix=REG %s
// One that cannot be made (under a regular file): one warning at start-up,
// before the program's own output, and the profile goes to the default
// name in the working directory.
// RUN: echo x > afile
// RUN: env ACTIVETIME_OPTIONS=output=afile/sub/p.raw ./op 2>&1 | FileCheck --check-prefix=NODIR %s
// NODIR: ActiveTime: WARNING: output='afile/sub/p.raw': cannot create directory 'afile' (Not a directory); the profile will be written to 'activetime.op.{{[0-9]+}}.raw' instead
// NODIR-NEXT: done
// NODIR-NOT: ERROR
// RUN: %activetime report activetime.op.*.raw | FileCheck --check-prefix=REG %s
// A regular file is replaced, as before.
// RUN: echo old > reg.raw
// RUN: env ACTIVETIME_OPTIONS=output=reg.raw ./op
// RUN: %activetime report reg.raw | FileCheck --check-prefix=REG %s
// REG: ActiveTime profile: 1 process, 1 thread
#include <stdio.h>

__attribute__((noinline)) int work(int x) { return x * 2 + 1; }

int main(void) {
  volatile int s = 0;
  for (int i = 0; i < 100; ++i)
    s += work(i);
  printf("done\n");
  fflush(stdout);
  return 0;
}
