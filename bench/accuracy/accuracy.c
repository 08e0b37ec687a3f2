//===- accuracy.c - Workloads for the active-time accuracy benchmark ------===//
//
// Part of ActiveTime. Built twice by run.py, with the plugin and without, and
// run once per scenario. Each scenario prints its own ground truth, measured
// by the program itself without help from the profiler:
//
//   preempt   three CPU-bound threads pinned to one CPU: each thread's CPU
//             time (CLOCK_THREAD_CPUTIME_ID) around its busy() call;
//   blocking  a function that sleeps about half of its time: its CPU time;
//   atexit    a detached thread that works, then waits until the program
//             ends, open frames and all, when the profile is written: its
//             CPU time (the wait is no part of it);
//   overhead  a parent calling a tiny child millions of times (flat) or
//   deep      through an 8-deep call path: the parent's CPU time.
// The figures of the build without the plugin are the truth for the
// instrumented build (whose own CPU clocks also hold what its profiling
// costs).
//
// Output lines: "truth <scenario> <tid> <function> <ns>".
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

static uint64_t now_ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
static long gettid_(void) { return (long)syscall(SYS_gettid); }

// A dependent chain of xorshift-multiply steps: about 1 ns per step here,
// and nothing the optimizer can fold.
static inline uint64_t mix(uint64_t x, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
  }
  return x;
}

// About 1 ms of work per call (kChunk steps); no calls inside.
enum { kChunk = 600000 };
NOINLINE void spin_chunk(uint64_t n) { sink = mix(sink + 1, n); }

// ---- preempt --------------------------------------------------------------
NOINLINE void busy(int chunks) {
  for (int i = 0; i < chunks; ++i)
    spin_chunk(kChunk);
}

static void *preempt_thread(void *arg) {
  int chunks = (int)(intptr_t)arg;
  uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  busy(chunks);
  uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("truth preempt %ld busy %llu\n", gettid_(), (unsigned long long)(c1 - c0));
  return 0;
}

static void scenario_preempt(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(0, &set);
  // Pin the whole process to one CPU: three runnable threads share it.
  sched_setaffinity(0, sizeof(set), &set);
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], 0, preempt_thread, (void *)(intptr_t)150);
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], 0);
}

// ---- blocking -------------------------------------------------------------
// Half of the time asleep: about 2 ms of work, then a 2 ms sleep.
NOINLINE void half_asleep(int rounds) {
  struct timespec ts = {0, 2000000};
  for (int i = 0; i < rounds; ++i) {
    spin_chunk(2 * kChunk);
    nanosleep(&ts, 0);
  }
}

static void scenario_blocking(void) {
  uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  uint64_t w0 = now_ns(CLOCK_MONOTONIC);
  half_asleep(60);
  uint64_t w1 = now_ns(CLOCK_MONOTONIC);
  uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("truth blocking %ld half_asleep %llu\n", gettid_(), (unsigned long long)(c1 - c0));
  printf("wall blocking %ld half_asleep %llu\n", gettid_(), (unsigned long long)(w1 - w0));
}

// ---- atexit ---------------------------------------------------------------
// About 20 ms of work, then a wait that ends only with the process.
static pthread_mutex_t wait_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_cv = PTHREAD_COND_INITIALIZER;
static volatile int reported;

NOINLINE void work_then_wait(void) {
  uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  spin_chunk(20 * kChunk);
  uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("truth atexit %ld work_then_wait %llu\n", gettid_(),
         (unsigned long long)(c1 - c0));
  fflush(stdout);
  pthread_mutex_lock(&wait_mu);
  reported = 1;
  for (;;) // never signalled: blocked until exit
    pthread_cond_wait(&wait_cv, &wait_mu);
}

static void *atexit_thread(void *arg) {
  (void)arg;
  work_then_wait();
  return 0;
}

static void scenario_atexit(void) {
  pthread_t t;
  pthread_create(&t, 0, atexit_thread, 0);
  pthread_detach(t);
  while (!reported)
    usleep(1000);
  usleep(200000); // the waiter blocked 200 ms before the exit
}

// ---- overhead -------------------------------------------------------------
// A child costing less than the probes themselves (~8 steps of mix).
NOINLINE void tiny(uint64_t i) { sink = mix(sink + i, 8); }

NOINLINE void flat_parent(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    tiny(i);
}

// An 8-deep call path, each level with a little work of its own.
NOINLINE void d8(uint64_t i) { sink = mix(sink + i, 8); }
#define LEVEL(N, NEXT)                                                         \
  NOINLINE void N(uint64_t i) {                                                \
    NEXT(i);                                                                   \
    sink = mix(sink, 4);                                                       \
  }
LEVEL(d7, d8)
LEVEL(d6, d7)
LEVEL(d5, d6)
LEVEL(d4, d5)
LEVEL(d3, d4)
LEVEL(d2, d3)
LEVEL(d1, d2)
NOINLINE void deep_parent(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    d1(i);
}

// Not a scenario of run.py: the deep path in 16 chunks of 20,000 iterations,
// each timed with the TSC (probes included) and printed in ticks per
// iteration, to see whether the probes' cost moves within one process.
static void drift(void) {
  for (int c = 0; c < 16; ++c) {
    uint64_t t0 = __builtin_ia32_rdtsc();
    deep_parent(20000);
    printf("%.0f ", (double)(__builtin_ia32_rdtsc() - t0) / 20000);
  }
  printf("\n");
}

static void run_timed(const char *scenario, const char *name, void (*f)(uint64_t), uint64_t n) {
  uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  f(n);
  uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("truth %s %ld %s %llu\n", scenario, gettid_(), name, (unsigned long long)(c1 - c0));
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (!strcmp(s, "preempt"))
    scenario_preempt();
  else if (!strcmp(s, "blocking"))
    scenario_blocking();
  else if (!strcmp(s, "atexit"))
    scenario_atexit();
  else if (!strcmp(s, "overhead"))
    run_timed("overhead", "flat_parent", flat_parent, 5000000);
  else if (!strcmp(s, "deep"))
    run_timed("deep", "deep_parent", deep_parent, 1000000);
  else if (!strcmp(s, "drift"))
    drift();
  else {
    fprintf(stderr, "usage: %s preempt|blocking|atexit|overhead|deep|drift\n",
            argv[0]);
    return 2;
  }
  return 0;
}
