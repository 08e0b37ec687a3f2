//===- strides.c - Stride profiling benchmark workloads --------------------===//
//
// Part of ActiveTime. Memory-heavy kernels for bench/strides/run.py. Each
// run prints the kernel's checksum and its own time (the set-up is not
// timed), so runs of different builds compare side by side.
//
//   strides WORKLOAD [SCALE]
//     chase-const  pointer chasing over nodes laid out at a constant stride
//                  chosen at run time (the compiler cannot see it)
//     chase-rand   the same nodes linked in a random order (irregular)
//     gather       sum of a[idx[i]], idx a random permutation (irregular)
//     index3       sum of a[idx[i]], idx[i] = 3 * i (constant, via an array)
//     struct48     s[idx[i]].c over 48-byte structs, idx[i] = i
//
//===----------------------------------------------------------------------===//

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

// Keeps the kernels impure, so a repeated call is never folded into one.
volatile int calls;

struct Node {
  struct Node *next;
  long value;
};

struct S48 {
  long a, b, c, d, e, f;
};

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

// A little work per node, as a real traversal would do.
NOINLINE long chase(struct Node *p) {
  calls++;
  long s = 0;
  while (p) {
    s += p->value * 3 + (s >> 7);
    p = p->next;
  }
  return s;
}

NOINLINE long gather(const long *a, const int *idx, long n) {
  calls++;
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[idx[i]];
  return s;
}

NOINLINE long gather48(const struct S48 *a, const int *idx, long n) {
  calls++;
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[idx[i]].c;
  return s;
}

static void shuffle(long *v, long n) {
  for (long i = n - 1; i > 0; --i) {
    long j = (long)(next_rand() % (uint64_t)(i + 1));
    long t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s chase-const|chase-rand|gather|index3|struct48 [SCALE]\n",
            argv[0]);
    return 2;
  }
  const char *w = argv[1];
  long scale = argc > 2 ? atol(argv[2]) : 1;
  long sum = 0, steps = 0;
  uint64_t t0 = 0, t1 = 0;
  if (!strcmp(w, "chase-const") || !strcmp(w, "chase-rand")) {
    // 2M nodes 320 bytes apart: 640 MB of address space, 128 MB of touched
    // lines, 4x the 32 MB LLC of the measurement machine.
    long n = 2000000 * scale;
    long stride = 320 + (argc > 3 ? atol(argv[3]) : 0);
    char *buf = malloc((size_t)n * stride);
    long *order = malloc(n * sizeof(long));
    for (long i = 0; i < n; ++i)
      order[i] = i;
    if (!strcmp(w, "chase-rand"))
      shuffle(order + 1, n - 1);
    for (long i = 0; i < n; ++i) {
      struct Node *nd = (struct Node *)(buf + order[i] * stride);
      nd->value = order[i] % 11;
      nd->next = i + 1 < n ? (struct Node *)(buf + order[i + 1] * stride) : NULL;
    }
    struct Node *head = (struct Node *)buf;
    t0 = now_ns();
    for (int r = 0; r < 4; ++r)
      sum += chase(head) + r;
    t1 = now_ns();
    steps = 4 * n;
  } else if (!strcmp(w, "gather") || !strcmp(w, "index3")) {
    long n = 8000000 * scale;
    long m = !strcmp(w, "index3") ? 3 * n : n;
    long *a = malloc(m * sizeof(long));
    int *idx = malloc(n * sizeof(int));
    long *perm = malloc(n * sizeof(long));
    for (long i = 0; i < m; ++i)
      a[i] = i % 13;
    for (long i = 0; i < n; ++i)
      perm[i] = i;
    if (!strcmp(w, "gather"))
      shuffle(perm, n);
    for (long i = 0; i < n; ++i)
      idx[i] = !strcmp(w, "index3") ? (int)(3 * i) : (int)perm[i];
    t0 = now_ns();
    for (int r = 0; r < 4; ++r)
      sum += gather(a, idx, n) + r;
    t1 = now_ns();
  } else if (!strcmp(w, "struct48")) {
    long n = 4000000 * scale;
    struct S48 *a = calloc(n, sizeof(struct S48));
    int *idx = malloc(n * sizeof(int));
    for (long i = 0; i < n; ++i) {
      a[i].c = i % 17;
      idx[i] = (int)i;
    }
    t0 = now_ns();
    for (int r = 0; r < 4; ++r)
      sum += gather48(a, idx, n) + r;
    t1 = now_ns();
  } else {
    fprintf(stderr, "unknown workload %s\n", w);
    return 2;
  }
  printf("checksum %ld\n", sum);
  printf("kernel_ns %llu\n", (unsigned long long)(t1 - t0));
  if (steps)
    printf("steps %ld\n", steps);
  return 0;
}
