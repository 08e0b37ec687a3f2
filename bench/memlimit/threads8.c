// threads8.c - bench/memlimit's program: 8 threads of 20 million calls each
// (320 million trace events, 7.7 GB of them at 24 bytes), then five lines
// of output. Its trace cannot fit a 512 MiB memory limit; its profile must.
#include <pthread.h>
#include <stdio.h>
__attribute__((noinline)) long add(long a, long b) { return a + b; }
static void *work(void *Arg) {
  long s = 0;
  for (long i = 0; i < 20000000; i++) s = add(s, i);
  *(long *)Arg = s;
  return 0;
}
int main(void) {
  pthread_t T[8]; long S[8], Sum = 0;
  for (int I = 0; I < 8; ++I) pthread_create(&T[I], 0, work, &S[I]);
  for (int I = 0; I < 8; ++I) { pthread_join(T[I], 0); Sum += S[I]; }
  for (int I = 0; I < 5; ++I) printf("line %d sum %ld\n", I, Sum);
  return 0;
}
