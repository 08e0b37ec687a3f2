// Block counts: the training build's counts, per thread and summed, are
// exactly those of LLVM's own IR PGO instrumentation on the same source:
// with -fprofile-update=atomic (exact under threads) for the threaded run,
// and plain -fprofile-generate for the single-threaded one. The records'
// names and CFG hashes are LLVM's, so clang -fprofile-instr-use takes the
// exported profile without a mismatch warning. Indirect call targets (a
// call through a table of static functions) and memcpy sizes are LLVM's
// value profiles, the same as the IR PGO run's.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g $(%activetime pgo-flags train) %s -o train -lpthread
// RUN: clang-%llvm_major -O2 -g -fprofile-generate -fprofile-update=atomic %s -o irpgo -lpthread
//
// Four threads: the sum over threads, with a fifth still running (blocked)
// when the process ends: its counts, in its own copies, are read from the
// exiting thread.
// RUN: env ACTIVETIME_OPTIONS=output=t4.raw ./train 4 | FileCheck --check-prefix=OUT %s
// RUN: env LLVM_PROFILE_FILE=ir4.profraw ./irpgo 4 | FileCheck --check-prefix=OUT %s
// OUT: done
// RUN: %activetime export --format=pgo -o t4.profdata t4.raw
// RUN: llvm-profdata merge -o ir4.profdata ir4.profraw
// RUN: llvm-profdata show --all-functions --counts --ic-targets --memop-sizes t4.profdata > t4.txt
// RUN: llvm-profdata show --all-functions --counts ir4.profdata | grep -E '^  [^ TV].*:$|Hash|Counters|Block counts' > ir4-counts.txt
// RUN: grep -E '^  [^ TV].*:$|Hash|Counters|Block counts' t4.txt > t4-counts.txt
// RUN: diff ir4-counts.txt t4-counts.txt
// The values are exact as well (LLVM's own value profiling is not, under
// threads): of the 336,003 calls through the table (the threads' loops and
// main's), the even multiples of 3 call triple, the odd ones next; every
// memcpy copies 1 to 5 bytes, sizes LLVM keeps one by one.
// One function at a time: the indexed profile lists functions in the order
// of their names' hashes, and a static function's name holds its file's
// path.
// RUN: llvm-profdata show --function=copy --counts --ic-targets --memop-sizes t4.profdata | FileCheck --check-prefix=COPY %s
// RUN: llvm-profdata show --function=work --counts --ic-targets --memop-sizes t4.profdata | FileCheck --check-prefix=WORK %s
// COPY-LABEL: {{^  }}copy:
// COPY: Indirect Call Site Count: 1
// COPY: Number of Memory Intrinsics Calls: 1
// COPY-DAG: block-counts.c;triple,      72002 ]
// COPY-DAG: block-counts.c;next,      72000 ]
// COPY-DAG: [  0,    1,      28803 ]
// COPY-DAG: [  0,    5,      28801 ]
// COPY-LABEL: Instrumentation level: IR
// WORK-LABEL: block-counts.c;work:
// WORK: Block counts: [671997, 336003, 144002, 6]
// WORK-DAG: block-counts.c;triple,     168002 ]
// WORK-DAG: block-counts.c;next,     168001 ]
// WORK-LABEL: Instrumentation level: IR
//
// Two runs merged add up (the single-threaded run's counts twice).
// RUN: env ACTIVETIME_OPTIONS=output=t1a.raw ./train 0
// RUN: env ACTIVETIME_OPTIONS=output=t1b.raw ./train 0
// RUN: env LLVM_PROFILE_FILE=ir1.profraw ./irpgo 0
// RUN: %activetime merge -o t1.raw t1a.raw t1b.raw
// RUN: %activetime export --format=pgo -o t1.profdata t1.raw
// RUN: llvm-profdata merge -weighted-input=2,ir1.profraw -o ir1.profdata
// RUN: llvm-profdata show --all-functions --counts --ic-targets --memop-sizes t1.profdata | sort > t1.txt
// RUN: llvm-profdata show --all-functions --counts --ic-targets --memop-sizes ir1.profdata | sort > ir1.txt
// RUN: diff ir1.txt t1.txt
//
// The optimized build takes it without a warning.
// RUN: %activetime pgo-flags use t4.profdata | FileCheck --check-prefix=USE %s
// USE: -fprofile-instr-use={{/.*}}/t4.profdata{{$}}
// RUN: clang-%llvm_major -O2 -g -Werror $(%activetime pgo-flags use t4.profdata) %s -o opt -lpthread
// RUN: ./opt 2 | FileCheck --check-prefix=OUT %s
//
// The training build has no timing probes; its report says so, with no
// probe cost or code samples (it calibrated none).
// RUN: %activetime report t4.raw | FileCheck --check-prefix=REPORT %s
// REPORT-NOT: probe cost
// REPORT: modules: 0
// REPORT: block counts: 1 linked object of a training build (activetime pgo-flags train), whose functions counted blocks and measured no time (export --format=pgo){{$}}
// REPORT-NOT: probe cost
// REPORT-NOT: code samples:

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int triple(int x) { return x * 3; }
static int next(int x) { return x + 1; }
static int pick3(int x) { return x % 3 == 0; }
volatile long sink;
char dst[64], src[64] = "abcdefgh";
// An indirect call and a memcpy in one function: LLVM numbers their value
// sites across kinds, the profile within each.
__attribute__((noinline)) void copy(size_t n, int (*check)(int)) {
  sink += check((int)n);
  memcpy(dst, src, n);
}
int (*const table[2])(int) = {triple, next};

static void *work(void *arg) {
  long n = (long)arg, s = 0;
  for (long i = 0; i < n; i++) {
    if (pick3((int)i))
      s += table[i & 1]((int)i);
    else
      s -= i;
    if (i % 7 == 0)
      copy((size_t)(i % 5) + 1, table[(i / 7) & 1]);
  }
  sink += s + dst[0];
  return 0;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int lingerer_done;

// Works, says so, and never ends.
static void *linger(void *arg) {
  work(arg);
  pthread_mutex_lock(&mu);
  lingerer_done = 1;
  pthread_cond_signal(&cv);
  for (;;)
    pthread_cond_wait(&cv, &mu);
}

int main(int argc, char **argv) {
  int nt = argc > 1 ? atoi(argv[1]) : 4;
  pthread_t t[16];
  for (int i = 0; i < nt && i < 16; i++)
    pthread_create(&t[i], 0, work, (void *)(100000L * (i + 1)));
  for (int i = 0; i < nt && i < 16; i++)
    pthread_join(t[i], 0);
  if (nt) {
    pthread_t l;
    pthread_create(&l, 0, linger, (void *)7000L);
    pthread_mutex_lock(&mu);
    while (!lingerer_done)
      pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
  }
  work((void *)1000);
  printf("done\n");
  return 0;
}
