// forks.c - many small profiles for bench/merge/run.py: forks N children
// one after another; each runs a little call tree (a few functions, some
// recursion) and exits, writing its own profile (output=DIR/%p.raw).
//
//   forks N
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

volatile unsigned long sink;

__attribute__((noinline)) void leaf(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
}

__attribute__((noinline)) void walk(int depth, int seed) {
  leaf(200 + seed % 50);
  if (depth > 0) {
    walk(depth - 1, seed * 7 + 1);
    if (seed & 1)
      walk(depth - 2, seed + 3);
  }
}

__attribute__((noinline)) void child(int i) {
  walk(6 + i % 3, i);
  leaf(1000);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  for (int i = 0; i < n; i++) {
    pid_t p = fork();
    if (p == 0) {
      child(i);
      exit(0); // exit, not _exit: the profile is written at exit
    }
    int st;
    if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st)) {
      fprintf(stderr, "child %d failed\n", i);
      return 1;
    }
  }
  printf("%d children\n", n);
  return 0;
}
