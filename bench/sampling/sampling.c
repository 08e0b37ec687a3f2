// Sampling benchmark program (bench/sampling/run.py builds and runs it).
// Each scenario prints its ground truth from the program's own clocks:
//   shares     compute_A computes ~60% of wall time, block_B sleeps ~40%
//              (randomized lengths so nothing is periodic)
//   short      short_act computes 50 us at the start of every whole
//              millisecond of CLOCK_MONOTONIC, idle_rest sleeps the rest
//   threads    64 threads alternating ~0.2 ms of work and 2 ms asleep (the
//              sampler's own overhead is measured on this one)
// Output lines: "truth <function> <ns>" and "wall <ns>".
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static void spin_until(long long end) {
  while (now_ns() < end)
    for (int i = 0; i < 20; ++i)
      sink += i;
}

static unsigned long long rng = 88172645463325252ull;
static double uniform(void) { // [0, 1)
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (rng >> 11) * (1.0 / 9007199254740992.0);
}

NOINLINE void compute_A(long long ns) { spin_until(now_ns() + ns); }
NOINLINE void block_B(long long ns) {
  struct timespec d = {ns / 1000000000, ns % 1000000000};
  nanosleep(&d, 0);
}

static void shares(double seconds) {
  long long t0 = now_ns(), a = 0, b = 0;
  while (now_ns() - t0 < (long long)(seconds * 1e9)) {
    // 1.5 .. 4.5 ms of compute, then 2/3 as long asleep on average.
    long long len = 1500000 + (long long)(uniform() * 3000000);
    long long s = now_ns();
    compute_A(len);
    long long m = now_ns();
    block_B(len * 2 / 3);
    long long e = now_ns();
    a += m - s;
    b += e - m;
  }
  printf("truth compute_A %lld\ntruth block_B %lld\nwall %lld\n", a, b,
         now_ns() - t0);
}

NOINLINE void short_act(long long end) { spin_until(end); }
NOINLINE void idle_rest(long long until) {
  struct timespec d = {until / 1000000000, until % 1000000000};
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, 0);
}

static void short_activity(double seconds) {
  long long t0 = now_ns(), act = 0, idle = 0;
  long long period = 1000000;
  long long next = (t0 / period + 1) * period;
  idle_rest(next);
  long long start = now_ns();
  while (now_ns() - start < (long long)(seconds * 1e9)) {
    long long s = now_ns();
    short_act(s + 50000);
    long long m = now_ns();
    next += period;
    if (next < m) // overran (busy machine): resynchronize
      next = (m / period + 1) * period;
    idle_rest(next);
    long long e = now_ns();
    act += m - s;
    idle += e - m;
  }
  printf("truth short_act %lld\ntruth idle_rest %lld\nwall %lld\n", act, idle,
         now_ns() - start);
}

NOINLINE void thread_work(long long ns) { spin_until(now_ns() + ns); }
NOINLINE void thread_sleep(long long ns) {
  struct timespec d = {0, ns};
  nanosleep(&d, 0);
}

static double g_seconds;
static void *worker(void *arg) {
  long long end = now_ns() + (long long)(g_seconds * 1e9);
  long long work = 0;
  while (now_ns() < end) {
    long long s = now_ns();
    thread_work(200000);
    work += now_ns() - s;
    thread_sleep(2000000);
  }
  return (void *)(long)(work / 1000);
}

static void threads(double seconds, int n) {
  g_seconds = seconds;
  pthread_t t[256];
  long long t0 = now_ns(), work_us = 0;
  for (int i = 0; i < n; ++i)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < n; ++i) {
    void *r;
    pthread_join(t[i], &r);
    work_us += (long)r;
  }
  printf("work %lld\nwall %lld\n", work_us * 1000, now_ns() - t0);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s shares|short|threads SECONDS [THREADS]\n", argv[0]);
    return 2;
  }
  double s = atof(argv[2]);
  if (!strcmp(argv[1], "shares"))
    shares(s);
  else if (!strcmp(argv[1], "short"))
    short_activity(s);
  else if (!strcmp(argv[1], "threads"))
    threads(s, argc > 3 ? atoi(argv[3]) : 64);
  else
    return 2;
  return 0;
}
