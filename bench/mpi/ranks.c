// Known per-rank work for bench/mpi/run.py: in each of ITER rounds rank r
// computes (r+1)*W units, then all ranks meet in MPI_Barrier. The program
// measures itself with clocks the profiler does not touch: its main
// thread's CPU clock around compute() and over the whole of main, and
// MPI_Wtime around compute() and around the barrier, and the CPU clock
// inside the MPI calls (what a rank spends there depends on how long it
// waited: its time outside MPI is what compares between runs). Each rank
// prints one line of them after MPI_Finalize.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

volatile double sink;

static long long cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// Dependent additions: no vectorization, a steady cost per unit.
NOINLINE static void compute(long units) {
  double x = 0;
  for (long i = 0; i < units * 1000000L; ++i)
    x += (double)i * 0.5;
  sink = x;
}

NOINLINE static void sync_ranks(void) { MPI_Barrier(MPI_COMM_WORLD); }

int main(int argc, char **argv) {
  long units = argc > 1 ? atol(argv[1]) : 20;
  int iters = argc > 2 ? atoi(argv[2]) : 3;
  long long main_cpu0 = cpu_ns(), mpi_cpu = 0, c;
  c = cpu_ns();
  MPI_Init(&argc, &argv);
  mpi_cpu += cpu_ns() - c;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long compute_cpu = 0;
  double compute_wall = 0, barrier_wall = 0;
  for (int it = 0; it < iters; ++it) {
    double w0 = MPI_Wtime();
    long long c0 = cpu_ns();
    compute((rank + 1) * units);
    compute_cpu += cpu_ns() - c0;
    double w1 = MPI_Wtime();
    c = cpu_ns();
    sync_ranks();
    mpi_cpu += cpu_ns() - c;
    double w2 = MPI_Wtime();
    compute_wall += w1 - w0;
    barrier_wall += w2 - w1;
  }
  c = cpu_ns();
  MPI_Finalize();
  mpi_cpu += cpu_ns() - c;
  printf("rank %d of %d: outside_mpi_cpu_ns %lld compute_cpu_ns %lld "
         "compute_wall_ns %.0f barrier_wall_ns %.0f\n",
         rank, size, cpu_ns() - main_cpu0 - mpi_cpu, compute_cpu, compute_wall * 1e9,
         barrier_wall * 1e9);
  return 0;
}
