//===- demo.c - ActiveTime quick-start example -----------------------------===//
//
// Part of ActiveTime. A small program whose profile is easy to predict:
//
//   main thread: main -> run_pipeline -> load      -> fill_random     cheap
//                                     -> transform -> smooth          cheap
//                                                  -> convolve        hot
//                                     -> summarize -> quicksort       recursive
//                                                  -> histogram
//   thread 1:    matrix_worker -> multiply -> dot          (many small calls)
//   thread 2:    primes_worker -> count_primes -> is_prime (many small calls)
//
// Build and run it through the wrapper, e.g.
//   activetime-clang -O2 -g demo.c -o demo -lpthread && ./demo
//
// Helpers are noinline so they stay visible as functions at -O2; the final
// checksum keeps the optimizer from discarding the work.
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

enum { N = 1 << 16, ROUNDS = 40, TAPS = 48, MAT = 200, MAT_ROUNDS = 20 };

// Tiny and called for every element: not worth a probe, and a chance to
// show that no_instrument_function keeps a function out of the profile.
__attribute__((no_instrument_function)) static inline uint32_t
next_random(uint64_t *State) {
  *State ^= *State << 13;
  *State ^= *State >> 7;
  *State ^= *State << 17;
  return (uint32_t)(*State >> 32);
}

//===--- Main thread: a three-stage pipeline ------------------------------===//

NOINLINE static void fill_random(uint32_t *V, size_t N_, uint64_t *Seed) {
  for (size_t I = 0; I < N_; ++I)
    V[I] = next_random(Seed) % 100000;
}

NOINLINE static void load(uint32_t *V, uint64_t *Seed) { fill_random(V, N, Seed); }

// One pass over the data: cheap.
NOINLINE static void smooth(uint32_t *V) {
  for (size_t I = 1; I + 1 < N; ++I)
    V[I] = (V[I - 1] + 2 * V[I] + V[I + 1]) / 4;
}

// TAPS passes over the data: this is where the main thread's time goes.
NOINLINE static uint64_t convolve(const uint32_t *V) {
  uint64_t Sum = 0;
  for (size_t I = 0; I + TAPS < N; ++I) {
    uint64_t Acc = 0;
    for (int T = 0; T < TAPS; ++T)
      Acc += (uint64_t)V[I + T] * (uint64_t)(T + 1);
    Sum ^= Acc + (Sum << 1);
  }
  return Sum;
}

NOINLINE static uint64_t transform(uint32_t *V) {
  smooth(V);
  return convolve(V);
}

// Recursive: shows up as a call chain of quicksort frames.
NOINLINE static void quicksort(uint32_t *V, long Lo, long Hi) {
  if (Hi - Lo < 16) { // insertion sort for short ranges
    for (long I = Lo + 1; I <= Hi; ++I)
      for (long J = I; J > Lo && V[J - 1] > V[J]; --J) {
        uint32_t T = V[J]; V[J] = V[J - 1]; V[J - 1] = T;
      }
    return;
  }
  uint32_t Pivot = V[Lo + (Hi - Lo) / 2];
  long I = Lo, J = Hi;
  while (I <= J) {
    while (V[I] < Pivot) ++I;
    while (V[J] > Pivot) --J;
    if (I <= J) {
      uint32_t T = V[I]; V[I] = V[J]; V[J] = T;
      ++I, --J;
    }
  }
  quicksort(V, Lo, J);
  quicksort(V, I, Hi);
}

NOINLINE static uint64_t histogram(const uint32_t *V) {
  uint32_t Buckets[64] = {0};
  for (size_t I = 0; I < N; ++I)
    ++Buckets[V[I] % 64];
  uint64_t H = 0;
  for (int B = 0; B < 64; ++B)
    H = H * 31 + Buckets[B];
  return H;
}

NOINLINE static uint64_t summarize(uint32_t *V) {
  quicksort(V, 0, N - 1);
  return histogram(V) + V[N / 2];
}

NOINLINE static uint64_t run_pipeline(void) {
  uint32_t *V = malloc(N * sizeof *V);
  uint64_t Seed = 0x9e3779b97f4a7c15ull, Sum = 0;
  for (int R = 0; R < ROUNDS; ++R) {
    load(V, &Seed);
    Sum += transform(V);
    Sum += summarize(V);
  }
  free(V);
  return Sum;
}

//===--- Worker 1: dense matrix multiplication ----------------------------===//

static double A[MAT][MAT], B[MAT][MAT], C[MAT][MAT];

NOINLINE static double dot(int Row, int Col) {
  double S = 0;
  for (int K = 0; K < MAT; ++K)
    S += A[Row][K] * B[K][Col];
  return S;
}

NOINLINE static void multiply(void) {
  for (int I = 0; I < MAT; ++I)
    for (int J = 0; J < MAT; ++J)
      C[I][J] = dot(I, J);
}

static void *matrix_worker(void *Out) {
  for (int I = 0; I < MAT; ++I)
    for (int J = 0; J < MAT; ++J) {
      A[I][J] = (I + J) % 7 * 0.5;
      B[I][J] = (I * J) % 5 * 0.25;
    }
  double Trace = 0;
  for (int R = 0; R < MAT_ROUNDS; ++R) {
    multiply();
    for (int I = 0; I < MAT; ++I)
      Trace += C[I][I];
  }
  *(uint64_t *)Out = (uint64_t)Trace;
  return NULL;
}

//===--- Worker 2: counting primes by trial division ----------------------===//

NOINLINE static int is_prime(uint32_t X) {
  if (X < 2)
    return 0;
  for (uint32_t D = 2; D * D <= X; ++D)
    if (X % D == 0)
      return 0;
  return 1;
}

NOINLINE static uint64_t count_primes(uint32_t From, uint32_t To) {
  uint64_t Count = 0;
  for (uint32_t X = From; X < To; ++X)
    Count += is_prime(X);
  return Count;
}

static void *primes_worker(void *Out) {
  uint64_t Total = 0;
  for (uint32_t Block = 0; Block < 8; ++Block)
    Total += count_primes(Block * 160000, (Block + 1) * 160000);
  *(uint64_t *)Out = Total;
  return NULL;
}

int main(void) {
  pthread_t Matrix, Primes;
  uint64_t MatrixSum = 0, PrimeCount = 0;
  pthread_create(&Matrix, NULL, matrix_worker, &MatrixSum);
  pthread_create(&Primes, NULL, primes_worker, &PrimeCount);
  uint64_t PipelineSum = run_pipeline();
  pthread_join(Matrix, NULL);
  pthread_join(Primes, NULL);
  printf("pipeline %016llx  matrix %llu  primes %llu\n",
         (unsigned long long)PipelineSum, (unsigned long long)MatrixSum,
         (unsigned long long)PrimeCount);
  printf("checksum %016llx\n",
         (unsigned long long)(PipelineSum ^ (MatrixSum << 20) ^ PrimeCount));
  return 0;
}
