/*===- bench/prefetch/is.c - NAS Parallel Benchmarks IS (integer sort) ------===*
 *
 * Part of ActiveTime's prefetch-feedback benchmark (bench/prefetch/run.py): a
 * memory-bound program that was not written for the tool.
 *
 * A reimplementation in standard C of the IS kernel of the NAS Parallel
 * Benchmarks, following the serial C version NPB3.3-SER/IS/is.c (NASA Ames
 * Research Center; D. H. Bailey et al., "The NAS Parallel Benchmarks",
 * RNR-94-007, 1994): the keys come from NPB's randlc generator (the sum of
 * four uniform deviates, seed 314159265, multiplier 5^13) as in create_seq;
 * rank() is NPB's bucketed counting sort (USE_BUCKETS, NPB's default: count
 * per bucket, scatter the keys into buckets, then per bucket the key
 * population key_buff1[key_buff2[k]]++ and its prefix sum) or, built with
 * -DIS_NO_BUCKETS, NPB's plain counting sort over the whole key range
 * (key_buff1[key_buff2[i]]++, the form Ainsworth & Jones, CGO 2017, prefetch);
 * NPB's partial verification runs every iteration and full_verify (the
 * scatter key_array[--key_buff_ptr_global[key_buff2[i]]] = key_buff2[i] and a
 * sortedness check) at the end. The timed section is NPB's: the
 * MAX_ITERATIONS calls of rank() after one untimed call.
 *
 * usage: is CLASS   (S, W, A, B, C: NPB's classes, verified against NPB's
 *                    published ranks; train, ref: this benchmark's sizes)
 * Prints the verification lines (deterministic) and `kernel_ns N`.
 *
 *===----------------------------------------------------------------------===*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int INT_TYPE;

#define MAX_ITERATIONS 10
#define TEST_ARRAY_SIZE 5
#define NUM_BUCKETS_LOG_2 10
#define NUM_BUCKETS (1 << NUM_BUCKETS_LOG_2)

static long NUM_KEYS;
static int MAX_KEY_LOG_2;
static long MAX_KEY;
static char CLASS;

static INT_TYPE *key_array, *key_buff1, *key_buff2, *key_buff_ptr_global;
#ifndef IS_NO_BUCKETS
static INT_TYPE bucket_size[NUM_BUCKETS], bucket_ptrs[NUM_BUCKETS];
#endif
static INT_TYPE partial_verify_vals[TEST_ARRAY_SIZE];
static INT_TYPE test_index_array[TEST_ARRAY_SIZE], test_rank_array[TEST_ARRAY_SIZE];
static int passed_verification, failed_verification;
static long rank_checksum; /* sizes without published ranks: the ranks found */

static const INT_TYPE S_test_index_array[] = {48427, 17148, 23627, 62548, 4431},
                      S_test_rank_array[] = {0, 18, 346, 64917, 65463},
                      W_test_index_array[] = {357773, 934767, 875723, 898999, 404505},
                      W_test_rank_array[] = {1249, 11698, 1039987, 1043896, 1048018},
                      A_test_index_array[] = {2112377, 662041, 5336171, 3642833, 4250760},
                      A_test_rank_array[] = {104, 17523, 123928, 8288932, 8388264},
                      B_test_index_array[] = {41869, 812306, 5102857, 18232239, 26860214},
                      B_test_rank_array[] = {33422937, 10244, 59149, 33135281, 99},
                      C_test_index_array[] = {44172927, 72999161, 74326391, 129606274,
                                              21736814},
                      C_test_rank_array[] = {61147, 882988, 266290, 133997595, 133525895};

/* NPB's randlc: x = a * x mod 2^46 in double precision, returns x / 2^46. */
static double randlc(double *X, const double *A) {
  static int KS = 0;
  static double R23, R46, T23, T46;
  double T1, T2, T3, T4, A1, A2, X1, X2, Z;
  int i, j;
  if (KS == 0) {
    R23 = 1.0; R46 = 1.0; T23 = 1.0; T46 = 1.0;
    for (i = 1; i <= 23; i++) { R23 = 0.50 * R23; T23 = 2.0 * T23; }
    for (i = 1; i <= 46; i++) { R46 = 0.50 * R46; T46 = 2.0 * T46; }
    KS = 1;
  }
  T1 = R23 * *A;
  j = T1;
  A1 = j;
  A2 = *A - T23 * A1;
  T1 = R23 * *X;
  j = T1;
  X1 = j;
  X2 = *X - T23 * X1;
  T1 = A1 * X2 + A2 * X1;
  j = R23 * T1;
  T2 = j;
  Z = T1 - T23 * T2;
  T3 = T23 * Z + A2 * X2;
  j = R46 * T3;
  T4 = j;
  *X = T3 - T46 * T4;
  return R46 * *X;
}

static void create_seq(double seed, double a) {
  double x;
  long i;
  INT_TYPE k = MAX_KEY / 4;
  for (i = 0; i < NUM_KEYS; i++) {
    x = randlc(&seed, &a);
    x += randlc(&seed, &a);
    x += randlc(&seed, &a);
    x += randlc(&seed, &a);
    key_array[i] = k * x;
  }
}

static void full_verify(void) {
  long i, j;
  INT_TYPE k; (void)k;
#ifndef IS_NO_BUCKETS
  long k1;
  /* Buckets are already sorted; sort the keys within each bucket. */
  for (j = 0; j < NUM_BUCKETS; j++) {
    k1 = (j > 0) ? bucket_ptrs[j - 1] : 0;
    for (i = k1; i < bucket_ptrs[j]; i++) {
      k = --key_buff_ptr_global[key_buff2[i]];
      key_array[k] = key_buff2[i];
    }
  }
#else
  for (i = 0; i < NUM_KEYS; i++)
    key_buff2[i] = key_array[i];
  for (i = 0; i < NUM_KEYS; i++)
    key_array[--key_buff_ptr_global[key_buff2[i]]] = key_buff2[i];
#endif
  /* Confirm the keys are sorted: count the keys out of order. */
  j = 0;
  for (i = 1; i < NUM_KEYS; i++)
    if (key_array[i - 1] > key_array[i])
      j++;
  if (j != 0) {
    failed_verification++;
    printf("Full_Verify: number of keys out of sort: %ld\n", j);
  } else
    passed_verification++;
}

static void rank(int iteration) {
  long i, k;
  INT_TYPE *key_buff_ptr, *key_buff_ptr2;
#ifndef IS_NO_BUCKETS
  int shift = MAX_KEY_LOG_2 - NUM_BUCKETS_LOG_2;
  INT_TYPE key;
  long num_bucket_keys = 1L << shift;
  long k1, k2, m;
#endif

  key_array[iteration] = iteration;
  key_array[iteration + MAX_ITERATIONS] = MAX_KEY - iteration;

  /* Where the partial verify test keys are. */
  for (i = 0; i < TEST_ARRAY_SIZE; i++)
    partial_verify_vals[i] = key_array[test_index_array[i]];

#ifndef IS_NO_BUCKETS
  for (i = 0; i < NUM_BUCKETS; i++)
    bucket_size[i] = 0;
  /* The number of keys in each bucket. */
  for (i = 0; i < NUM_KEYS; i++)
    bucket_size[key_array[i] >> shift]++;
  /* Accumulated bucket sizes are the bucket pointers. */
  bucket_ptrs[0] = 0;
  for (i = 1; i < NUM_BUCKETS; i++)
    bucket_ptrs[i] = bucket_ptrs[i - 1] + bucket_size[i - 1];
  /* Sort into the buckets. */
  for (i = 0; i < NUM_KEYS; i++) {
    key = key_array[i];
    key_buff2[bucket_ptrs[key >> shift]++] = key;
  }
  /* The bucket pointers now point to the end of each bucket. Rank the keys
     bucket by bucket: population, then the running sum. */
  key_buff_ptr2 = key_buff2;
  key_buff_ptr = key_buff1;
  for (i = 0; i < NUM_BUCKETS; i++) {
    k1 = i * num_bucket_keys;
    k2 = k1 + num_bucket_keys;
    for (k = k1; k < k2; k++)
      key_buff_ptr[k] = 0;
    m = (i > 0) ? bucket_ptrs[i - 1] : 0;
    for (k = m; k < bucket_ptrs[i]; k++)
      key_buff_ptr[key_buff_ptr2[k]]++;
    key_buff_ptr[k1] += m;
    for (k = k1 + 1; k < k2; k++)
      key_buff_ptr[k] += key_buff_ptr[k - 1];
  }
#else
  for (i = 0; i < NUM_KEYS; i++)
    key_buff2[i] = key_array[i];
  for (i = 0; i < MAX_KEY; i++)
    key_buff1[i] = 0;
  key_buff_ptr2 = key_buff2;
  key_buff_ptr = key_buff1;
  /* The keys themselves index their population. */
  for (i = 0; i < NUM_KEYS; i++)
    key_buff_ptr[key_buff_ptr2[i]]++;
  /* Ranks: the running sum of the populations. */
  for (i = 0; i < MAX_KEY - 1; i++)
    key_buff_ptr[i + 1] += key_buff_ptr[i];
#endif

  /* Partial verification (NPB's per-class expectations). */
  for (i = 0; i < TEST_ARRAY_SIZE; i++) {
    k = partial_verify_vals[i];
    if (0 < k && k <= NUM_KEYS - 1) {
      INT_TYPE key_rank = key_buff_ptr[k - 1];
      int failed = 0;
      switch (CLASS) {
      case 'S':
        if (i <= 2) failed = key_rank != test_rank_array[i] + iteration;
        else failed = key_rank != test_rank_array[i] - iteration;
        break;
      case 'W':
        if (i < 2) failed = key_rank != test_rank_array[i] + (iteration - 2);
        else failed = key_rank != test_rank_array[i] - iteration;
        break;
      case 'A':
        if (i <= 2) failed = key_rank != test_rank_array[i] + (iteration - 1);
        else failed = key_rank != test_rank_array[i] - (iteration - 1);
        break;
      case 'B':
        if (i == 1 || i == 2 || i == 4)
          failed = key_rank != test_rank_array[i] + iteration;
        else failed = key_rank != test_rank_array[i] - iteration;
        break;
      case 'C':
        if (i <= 2) failed = key_rank != test_rank_array[i] + iteration;
        else failed = key_rank != test_rank_array[i] - iteration;
        break;
      default: /* no published ranks: checksum the ranks found */
        rank_checksum = rank_checksum * 31 + key_rank;
        break;
      }
      if (failed) {
        failed_verification++;
        printf("Failed partial verification: iteration %d, test key %ld\n", iteration, i);
      } else
        passed_verification++;
    }
  }
  if (iteration == MAX_ITERATIONS)
    key_buff_ptr_global = key_buff_ptr;
}

static void set_class(const char *c) {
  const INT_TYPE *ti = NULL, *tr = NULL;
  if (!strcmp(c, "S")) { NUM_KEYS = 1L << 16; MAX_KEY_LOG_2 = 11; ti = S_test_index_array; tr = S_test_rank_array; }
  else if (!strcmp(c, "W")) { NUM_KEYS = 1L << 20; MAX_KEY_LOG_2 = 16; ti = W_test_index_array; tr = W_test_rank_array; }
  else if (!strcmp(c, "A")) { NUM_KEYS = 1L << 23; MAX_KEY_LOG_2 = 19; ti = A_test_index_array; tr = A_test_rank_array; }
  else if (!strcmp(c, "B")) { NUM_KEYS = 1L << 25; MAX_KEY_LOG_2 = 21; ti = B_test_index_array; tr = B_test_rank_array; }
  else if (!strcmp(c, "C")) { NUM_KEYS = 1L << 27; MAX_KEY_LOG_2 = 23; ti = C_test_index_array; tr = C_test_rank_array; }
  /* This benchmark's sizes: a key range of 2^25 values, whose key_buff1
     (128 MiB) is far beyond the caches this program gets (the time per key
     of the unbucketed count grows from 2.4 ns at class A's 2 MiB range to
     20 ns here), 2^23 keys for ref (class A's count) and 2^21 for train,
     the profiling run. */
  else if (!strcmp(c, "train")) { NUM_KEYS = 1L << 21; MAX_KEY_LOG_2 = 25; }
  else if (!strcmp(c, "ref")) { NUM_KEYS = 1L << 23; MAX_KEY_LOG_2 = 25; }
  else {
    fprintf(stderr, "usage: is S|W|A|B|C|train|ref\n");
    exit(2);
  }
  CLASS = ti ? c[0] : 'U';
  MAX_KEY = 1L << MAX_KEY_LOG_2;
  for (int i = 0; i < TEST_ARRAY_SIZE; i++) {
    /* Custom sizes: test keys spread evenly over the keys. */
    test_index_array[i] = ti ? ti[i] : (INT_TYPE)((NUM_KEYS / 7) * (i + 1) + 12345);
    test_rank_array[i] = tr ? tr[i] : 0;
  }
}

static long long now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  long i;
  int iteration;
  long long t0, t1;
  if (argc != 2) {
    fprintf(stderr, "usage: is S|W|A|B|C|train|ref\n");
    return 2;
  }
  set_class(argv[1]);
  key_array = malloc(NUM_KEYS * sizeof(INT_TYPE));
  key_buff1 = malloc(MAX_KEY * sizeof(INT_TYPE));
  key_buff2 = malloc(NUM_KEYS * sizeof(INT_TYPE));
  if (!key_array || !key_buff1 || !key_buff2) {
    fprintf(stderr, "is: out of memory\n");
    return 1;
  }
  printf("NAS IS: class %s, %ld keys, key range 2^%d, %d iterations, %s\n", argv[1],
         NUM_KEYS, MAX_KEY_LOG_2, MAX_ITERATIONS,
#ifndef IS_NO_BUCKETS
         "bucketed"
#else
         "no buckets"
#endif
  );
  create_seq(314159265.00, 1220703125.00);
  /* One untimed iteration, as NPB: touches every page and table. */
  rank(1);
  passed_verification = 0;
  failed_verification = 0;
  rank_checksum = 0;

  t0 = now_ns();
  for (iteration = 1; iteration <= MAX_ITERATIONS; iteration++)
    rank(iteration);
  t1 = now_ns();

  full_verify();
  long sum = 0;
  for (i = 0; i < NUM_KEYS; i += NUM_KEYS / 1024)
    sum = sum * 31 + key_array[i];
  /* NPB's classes check 5 keys per iteration and the full sort; the custom
     sizes only the test keys below NUM_KEYS. */
  int ok = !failed_verification &&
           (CLASS == 'U' || passed_verification == 5 * MAX_ITERATIONS + 1);
  printf("verification %s: %d checks passed, %d failed\n", ok ? "SUCCESSFUL" : "FAILED",
         passed_verification, failed_verification);
  printf("checksum %ld %ld\n", rank_checksum, sum);
  printf("kernel_ns %lld\n", t1 - t0);
  return ok ? 0 : 1;
}
