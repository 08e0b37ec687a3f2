// A link that lost the runtime's collectors (a linker dropping their
// section, emulated by renaming it): the runtime says so in one line and
// the program runs as it would without the tool, threads and all, with no
// profile; the same program with the runtime intact is profiled.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -O1 -g -fpass-plugin=%pass_plugin -c %s -o prog.o
// RUN: llvm-objcopy-%llvm_major --rename-section activetime_collectors=activetime_renamed %rt_static lost.a
// RUN: %clang prog.o lost.a -lpthread -ldl -lm -o lost
// RUN: env ACTIVETIME_OPTIONS=output=lost.raw ./lost 2>err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < err
// RUN: not ls lost.raw
// ERR: ActiveTime: the runtime's collectors are missing from the program (the linker dropped the section activetime_collectors): it runs unprofiled
// OUT: sum 4950 4950
//
// RUN: %clang prog.o %rt_static -lpthread -ldl -lm -o kept
// RUN: env ACTIVETIME_OPTIONS=output=kept.raw ./kept | FileCheck --check-prefix=OUT %s
// RUN: %activetime report kept.raw | FileCheck --check-prefix=KEPT %s
// KEPT: work

#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) long work(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += i;
  return s;
}

static void *thread_main(void *arg) {
  *(long *)arg = work(100);
  return 0;
}

int main(void) {
  long r = 0;
  pthread_t t;
  pthread_create(&t, 0, thread_main, &r);
  pthread_join(t, 0);
  printf("sum %ld %ld\n", r, work(100));
  return 0;
}
