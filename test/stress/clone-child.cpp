// A child process made by clone() without CLONE_VM and without the fork
// handlers (what googletest's death tests do): the kernel does not copy the
// parent's perf rings into it, and its copies of the runtime's state are
// not its own. Its probes find the probe gate's page zeroed (MADV_WIPEONFORK)
// and let go: it runs as without ActiveTime, through exit() as well as
// _exit(), writes no profile, and the parent's profile is whole.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clangxx -O2 -g %s -o plain && ./plain > plain.out 2>&1
// RUN: %at_cxx -O2 -g %s -o at && ./at > at.out 2>&1
// RUN: diff plain.out at.out
// RUN: ls activetime.at.*.raw | count 1
// RUN: %activetime report activetime.at.*.raw | FileCheck %s
// The parent's calls only: the children's are theirs, and not profiled.
// CHECK-DAG: {{^ +1 .*}} child_main(...)
// CHECK-DAG: {{^ +2 .*}} work(...)
// CHECK-DAG: {{^ +1 .*}} main
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int work(int x) {
  volatile int s = 0;
  for (int i = 0; i < 1000; ++i)
    s += i * x;
  return s;
}

// Runs in the parent once and in each clone child.
__attribute__((noinline)) int child_main(void *arg) {
  int how = *static_cast<int *>(arg);
  std::printf("child %d: %d\n", how, work(how) != 0);
  std::fflush(stdout);
  if (how == 1)
    _exit(3);
  if (how == 2)
    std::exit(4); // atexit handlers, the runtime's among them
  return 0;
}

static int run_child(int how) {
  const size_t size = 256 * 1024;
  void *stack = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_ANON | MAP_PRIVATE, -1, 0);
  pid_t pid = clone(child_main, static_cast<char *>(stack) + size - 64,
                    SIGCHLD, &how);
  int st = 0;
  waitpid(pid, &st, 0);
  munmap(stack, size);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main() {
  int zero = 0;
  child_main(&zero);
  std::printf("_exit child: %d\n", run_child(1));
  std::printf("exit child: %d\n", run_child(2));
  std::printf("parent: %d\n", work(3) != 0);
  return 0;
}
