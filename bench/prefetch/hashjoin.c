/*===- bench/prefetch/hashjoin.c - no-partitioning hash join (NPO) ---------===*
 *
 * Part of ActiveTime's prefetch-feedback benchmark (bench/prefetch/run.py): a
 * memory-bound program that was not written for the tool.
 *
 * A reimplementation in standard C of the single-threaded no-partitioning
 * hash join of Balkesen, Teubner, Alonso and Ozsu, "Main-memory hash joins
 * on multi-core CPUs: tuning to the underlying hardware" (ICDE 2013; their
 * npj code: bucket_t, build_hashtable_st, probe_hashtable), the form that
 * Ainsworth and Jones, "Software prefetching for indirect memory accesses"
 * (CGO 2017), benchmark as HJ-2 and HJ-8 (2 and 8 tuples per bucket): a
 * bucket-chained table of BUCKET_SIZE tuples per bucket, num_buckets = |R| /
 * BUCKET_SIZE rounded up to a power of two, hashed by the key's low bits
 * (HASH(X, MASK, SKIP) = (X & MASK) >> SKIP), overflow buckets chained
 * through next; build over R (primary keys 1..|R|, shuffled), probe with S
 * (foreign keys: every key of R |S|/|R| times, shuffled), the hot load the
 * bucket of each S key: ht->buckets[HASH(s[i].key)]. The relations are made
 * as their generator does (create_relation_pk / create_relation_fk, a
 * Knuth shuffle), with a fixed 64-bit generator (splitmix64) in place of
 * rand() so that every libc makes the same relations. The probe also sums
 * the matched R payloads (their code counts matches without materializing),
 * so the output checks more than the count. Timed: build and probe, as
 * their NPO_st.
 *
 * Build with -DBUCKET_SIZE=N (default 2).
 * usage: hashjoin CLASS   (small, train, ref)
 * Prints the result (deterministic), `build_ns`, `probe_ns` and `kernel_ns`.
 *
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BUCKET_SIZE
#define BUCKET_SIZE 2
#endif

#define HASH(X, MASK, SKIP) (((X) & (MASK)) >> (SKIP))

typedef uint32_t intkey_t;
typedef uint32_t value_t;
typedef struct tuple_t {
  intkey_t key;
  value_t payload;
} tuple_t;
typedef struct relation_t {
  tuple_t *tuples;
  uint32_t num_tuples;
} relation_t;
typedef struct bucket_t {
  volatile char latch;
  uint32_t count;
  tuple_t tuples[BUCKET_SIZE];
  struct bucket_t *next;
} bucket_t;
typedef struct hashtable_t {
  bucket_t *buckets;
  uint32_t num_buckets;
  uint32_t hash_mask;
  uint32_t skip_bits;
} hashtable_t;

static uint64_t rng_state = 12345;
static uint64_t splitmix64(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
/* A uniform integer in [0, n). */
static uint32_t rand_range(uint32_t n) { return (uint32_t)((splitmix64() >> 32) * n >> 32); }

static void knuth_shuffle(relation_t *rel) {
  for (uint32_t i = rel->num_tuples - 1; i > 0; i--) {
    uint32_t j = rand_range(i + 1);
    tuple_t tmp = rel->tuples[i];
    rel->tuples[i] = rel->tuples[j];
    rel->tuples[j] = tmp;
  }
}

/* Primary keys 1..n in random order, payload the row id. */
static void create_relation_pk(relation_t *rel, uint32_t n) {
  rel->num_tuples = n;
  rel->tuples = malloc((size_t)n * sizeof(tuple_t));
  if (!rel->tuples) { fprintf(stderr, "hashjoin: out of memory\n"); exit(1); }
  for (uint32_t i = 0; i < n; i++) {
    rel->tuples[i].key = i + 1;
    rel->tuples[i].payload = i;
  }
  knuth_shuffle(rel);
}

/* Foreign keys into 1..maxid: each key n / maxid times, the rest at random,
   then shuffled. */
static void create_relation_fk(relation_t *rel, uint32_t n, uint32_t maxid) {
  uint32_t i = 0;
  rel->num_tuples = n;
  rel->tuples = malloc((size_t)n * sizeof(tuple_t));
  if (!rel->tuples) { fprintf(stderr, "hashjoin: out of memory\n"); exit(1); }
  while (n - i >= maxid)
    for (uint32_t k = 0; k < maxid; k++, i++) {
      rel->tuples[i].key = k + 1;
      rel->tuples[i].payload = i;
    }
  for (; i < n; i++) {
    rel->tuples[i].key = rand_range(maxid) + 1;
    rel->tuples[i].payload = i;
  }
  knuth_shuffle(rel);
}

static void allocate_hashtable(hashtable_t *ht, uint32_t nbuckets) {
  uint32_t n = 1;
  while (n < nbuckets)
    n <<= 1;
  ht->num_buckets = n;
  ht->buckets = calloc(n, sizeof(bucket_t));
  if (!ht->buckets) { fprintf(stderr, "hashjoin: out of memory\n"); exit(1); }
  ht->skip_bits = 0;
  ht->hash_mask = (n - 1) << ht->skip_bits;
}

static void build_hashtable_st(hashtable_t *ht, relation_t *rel) {
  const uint32_t hashmask = ht->hash_mask;
  const uint32_t skipbits = ht->skip_bits;
  for (uint32_t i = 0; i < rel->num_tuples; i++) {
    tuple_t *dest;
    bucket_t *curr, *nxt;
    int32_t idx = HASH(rel->tuples[i].key, hashmask, skipbits);
    /* Into the bucket; when it is full, into the overflow bucket after it,
       a new one when that is full too. */
    curr = ht->buckets + idx;
    nxt = curr->next;
    if (curr->count == BUCKET_SIZE) {
      if (!nxt || nxt->count == BUCKET_SIZE) {
        bucket_t *b = calloc(1, sizeof(bucket_t));
        if (!b) { fprintf(stderr, "hashjoin: out of memory\n"); exit(1); }
        curr->next = b;
        b->next = nxt;
        b->count = 1;
        dest = b->tuples;
      } else {
        dest = nxt->tuples + nxt->count;
        nxt->count++;
      }
    } else {
      dest = curr->tuples + curr->count;
      curr->count++;
    }
    *dest = rel->tuples[i];
  }
}

static int64_t probe_hashtable(hashtable_t *ht, relation_t *rel, uint64_t *payloads) {
  int64_t matches = 0;
  uint64_t sum = 0;
  const uint32_t hashmask = ht->hash_mask;
  const uint32_t skipbits = ht->skip_bits;
  for (uint32_t i = 0; i < rel->num_tuples; i++) {
    intkey_t idx = HASH(rel->tuples[i].key, hashmask, skipbits);
    bucket_t *b = ht->buckets + idx;
    do {
      for (uint32_t j = 0; j < b->count; j++)
        if (rel->tuples[i].key == b->tuples[j].key) {
          matches++;
          sum += b->tuples[j].payload;
        }
      b = b->next; /* the overflow chain */
    } while (b);
  }
  *payloads = sum;
  return matches;
}

static long long now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  uint32_t nr, ns;
  /* |R| tuples of 8 bytes; the table |R| / BUCKET_SIZE buckets of 32 (HJ-2)
     or 80 (HJ-8) bytes. ref's table (128 MiB at HJ-2) and relations (64 and
     128 MiB) are far beyond the caches this program gets; train, the
     profiling run, a quarter of that; small, whose table fits in L2, shows
     what the same probes cost when they hit. */
  if (argc == 2 && !strcmp(argv[1], "small")) { nr = 1u << 14; ns = 1u << 24; }
  else if (argc == 2 && !strcmp(argv[1], "train")) { nr = 1u << 21; ns = 1u << 22; }
  else if (argc == 2 && !strcmp(argv[1], "ref")) { nr = 1u << 23; ns = 1u << 24; }
  else {
    fprintf(stderr, "usage: hashjoin small|train|ref\n");
    return 2;
  }
  relation_t R, S;
  hashtable_t ht;
  create_relation_pk(&R, nr);
  create_relation_fk(&S, ns, nr);
  printf("hash join (NPO, %d tuples per bucket): |R| %u, |S| %u\n", BUCKET_SIZE, nr, ns);

  long long t0 = now_ns();
  allocate_hashtable(&ht, nr / BUCKET_SIZE);
  build_hashtable_st(&ht, &R);
  long long t1 = now_ns();
  uint64_t payloads;
  int64_t matches = probe_hashtable(&ht, &S, &payloads);
  long long t2 = now_ns();

  printf("buckets %u, matches %lld, matched payload sum %llu\n", ht.num_buckets,
         (long long)matches, (unsigned long long)payloads);
  printf("verification %s\n", matches == (int64_t)ns ? "SUCCESSFUL" : "FAILED");
  printf("build_ns %lld\n", t1 - t0);
  printf("probe_ns %lld\n", t2 - t1);
  printf("kernel_ns %lld\n", t2 - t0);
  return matches == (int64_t)ns ? 0 : 1;
}
