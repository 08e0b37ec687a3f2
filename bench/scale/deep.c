// deep.c - inputs for the tool's scale checks (bench/scale/run.py,
// test/stress/): call trees where every call is a new call path.
//
//   deep chain DEPTH [SPIN_US]
//       rec() recursing DEPTH levels on a thread with a stack big enough for
//       them: DEPTH nested calls, each its own call-tree node (the path of
//       level k is k calls of rec). Each level spins SPIN_US microseconds
//       (default 0) after its callee returned, so samples (sample=1) land at
//       every depth, each one a different deep path.
//   deep broad FANOUT LEVELS [SPIN_US]
//       FANOUT functions (at most 8), each calling all of them again down to
//       LEVELS levels: a complete tree of FANOUT^1 + ... + FANOUT^LEVELS
//       nodes (4 10: 1,398,100), each leaf spinning SPIN_US microseconds
//       (default 0).
//
// With DEEP_RSS set it prints its resident memory at the end of main to
// stderr ("rss-at-exit N kB") and resets the kernel's peak (clear_refs);
// a destructor, which runs after the profiler's exit-time write (an atexit
// handler registered after libc's own), prints the peak since
// ("peak-after-write N kB"): the difference is the write's memory
// (bench/exitwrite/run.py).
//
// Run it with ACTIVETIME_OPTIONS=timing_ratio=0: calls this short would
// otherwise be switched to counting and leave the tree. It prints the
// number of calls made, which the tool's reports must account for.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long Sink;
static long SpinNs;
static unsigned long Calls;

static long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000L + T.tv_nsec;
}

static void spin(void) {
  if (!SpinNs)
    return;
  long End = nowNs() + SpinNs;
  while (nowNs() < End)
    Sink++;
}

// noinline and the work after the call keep every level a real call (no
// tail call, no inlining).
__attribute__((noinline)) static void rec(long Left) {
  ++Calls;
  if (Left > 1)
    rec(Left - 1);
  spin();
  Sink += (unsigned long)Left;
}

static int Fanout, Levels;

static void printStatus(const char *Field, const char *What) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  size_t L = strlen(Field);
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, Field, L))
      fprintf(stderr, "%s %ld kB\n", What, atol(Line + L));
  if (F)
    fclose(F);
}

static void printRss(void) {
  printStatus("VmRSS:", "rss-at-exit");
  FILE *F = fopen("/proc/self/clear_refs", "w");
  if (F) {
    fputs("5", F); // the peak resident set starts again from now
    fclose(F);
  }
}

__attribute__((destructor)) static void printPeak(void) {
  if (getenv("DEEP_RSS"))
    printStatus("VmHWM:", "peak-after-write");
}

#define BROAD_FN(I)                                                            \
  __attribute__((noinline)) static void f##I(int Level);
BROAD_FN(0) BROAD_FN(1) BROAD_FN(2) BROAD_FN(3)
BROAD_FN(4) BROAD_FN(5) BROAD_FN(6) BROAD_FN(7)
#undef BROAD_FN

static void (*const Fns[8])(int) = {f0, f1, f2, f3, f4, f5, f6, f7};

// Inlined, so that the tree is f -> f -> ..., not f -> children -> f.
__attribute__((always_inline)) static inline void children(int Level) {
  if (Level >= Levels) {
    spin();
    return;
  }
  for (int I = 0; I < Fanout; ++I)
    Fns[I](Level + 1);
}

#define BROAD_FN(I)                                                            \
  __attribute__((noinline)) static void f##I(int Level) {                      \
    ++Calls;                                                                   \
    children(Level);                                                           \
    Sink += (unsigned long)Level;                                              \
  }
BROAD_FN(0) BROAD_FN(1) BROAD_FN(2) BROAD_FN(3)
BROAD_FN(4) BROAD_FN(5) BROAD_FN(6) BROAD_FN(7)
#undef BROAD_FN

static long Depth;

static void *chainThread(void *Arg) {
  (void)Arg;
  rec(Depth);
  return NULL;
}

static void usage(void) {
  fprintf(stderr, "usage: deep chain DEPTH [SPIN_US]\n"
                  "       deep broad FANOUT LEVELS [SPIN_US]\n");
  exit(2);
}

int main(int Argc, char **Argv) {
  if (Argc < 3)
    usage();
  if (!strcmp(Argv[1], "chain")) {
    Depth = atol(Argv[2]);
    if (Depth < 1)
      usage();
    SpinNs = Argc > 3 ? atol(Argv[3]) * 1000L : 0;
    // A frame of rec is well under 256 bytes even with the probes' calls
    // (and a sanitizer's); 4 KiB a level and a megabyte's margin, address
    // space only until the recursion touches it.
    pthread_attr_t A;
    pthread_attr_init(&A);
    if (pthread_attr_setstacksize(&A, (size_t)Depth * 4096 + (1 << 20))) {
      fprintf(stderr, "deep: cannot set a %ld-level stack\n", Depth);
      return 1;
    }
    pthread_t T;
    if (pthread_create(&T, &A, chainThread, NULL)) {
      fprintf(stderr, "deep: cannot start the thread\n");
      return 1;
    }
    pthread_join(T, NULL);
  } else if (!strcmp(Argv[1], "broad")) {
    if (Argc < 4)
      usage();
    Fanout = atoi(Argv[2]);
    Levels = atoi(Argv[3]);
    if (Fanout < 1 || Fanout > 8 || Levels < 1)
      usage();
    SpinNs = Argc > 4 ? atol(Argv[4]) * 1000L : 0;
    children(0);
  } else {
    usage();
  }
  printf("calls %lu\n", Calls);
  if (getenv("DEEP_RSS"))
    printRss();
  return 0;
}
