// Every single-byte change of a real profile is refused: the runtime writes
// a checksum of the file header and of every section (raw format v8), the
// reader checks them before it parses a section. raw-flips changes each byte
// of the profile of this two-thread program in turn (each of its 8 bits,
// and all of them) and reads the result with the tool's reader: none may be
// accepted. `activetime report` on one damaged file names the section.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o flips -lpthread
// RUN: env ACTIVETIME_OPTIONS=output=flips.raw ./flips | FileCheck --check-prefix=OUT %s
// OUT: sum {{[0-9]+}}
// RUN: %raw_flips flips.raw | FileCheck --check-prefix=FLIPS %s
// FLIPS-NOT: accepted: offset
// FLIPS-NOT: multi-line error
// FLIPS: flips: {{[1-9][0-9]*}}, accepted: 0, checksum errors: {{[0-9]+}}, other errors: {{[0-9]+}}, multi-line errors: 0
//
// A byte of the second section's payload (the first module section: the
// process section comes first, its 16-byte header and 160-byte record then
// the executable name; a module section follows). The offset is taken from
// the file itself: byte 40 + 16 + process size + 16 + 8.
// RUN: python3 -c "import struct,sys; d=bytearray(open('flips.raw','rb').read()); o=40+16+struct.unpack_from('<Q',d,40+8)[0]+16+8; d[o]^=1; open('bad.raw','wb').write(d)"
// RUN: not %activetime report bad.raw 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: not %activetime report bad.raw 2>&1 | count 1
// BAD: activetime: error: {{.*}}bad.raw: section 1 (module): checksum does not match its contents (the file is corrupt or was modified)
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
static _Thread_local volatile long sink;

NOINLINE void leaf(long i) { sink += i; }
NOINLINE void middle(long n) {
  for (long i = 0; i < n; ++i)
    leaf(i);
}
NOINLINE long outer(long n) {
  for (long i = 0; i < 4; ++i)
    middle(n);
  return sink;
}
NOINLINE void *worker(void *arg) {
  outer(1000);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  long s = outer(500);
  pthread_join(t, 0);
  printf("sum %ld\n", s >= 0 ? s : -s);
  return 0;
}
