// A program without MPI (test/mpi/link.c: %r outside an MPI job).
#include <stdio.h>

__attribute__((noinline)) static int work(int n) { return n * 2; }

int main(void) {
  printf("%d\n", work(21));
  return 0;
}
