// Block counts across fork: the child's profile starts from zero (its
// thread-local counters and the parent's totals are the parent's), and the
// parent's holds its own counts only, before and after the fork, on its
// main thread and on a thread that ended before the fork.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g $(%activetime pgo-flags train) %s -o train -lpthread
// RUN: ./train > pids.txt
// RUN: %activetime export --format=pgo -o parent.profdata activetime.train.$(sed -n 's/^parent //p' pids.txt).raw
// RUN: %activetime export --format=pgo -o child.profdata activetime.train.$(sed -n 's/^child //p' pids.txt).raw
// RUN: llvm-profdata show --function=work --counts parent.profdata | FileCheck --check-prefix=PARENT %s
// RUN: llvm-profdata show --function=work --counts child.profdata | FileCheck --check-prefix=CHILD %s
// work(n) counts [n - n/3 rounded up, n/3 rounded up, calls]:
// the parent ran 300 (a thread) + 600 + 900, the child 1500.
// PARENT: Block counts: [1200, 600, 3]
// CHILD: Block counts: [1000, 500, 1]

#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;

__attribute__((noinline)) void work(long n) {
  for (long i = 0; i < n; i++)
    if (i % 3 == 0)
      sink += i;
    else
      sink -= 1;
}

static void *thread_main(void *arg) {
  work((long)arg);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thread_main, (void *)300L);
  pthread_join(t, 0);
  work(600);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    work(1500);
    printf("child %d\n", (int)getpid());
    return 0;
  }
  waitpid(child, 0, 0);
  work(900);
  printf("parent %d\n", (int)getpid());
  return 0;
}
