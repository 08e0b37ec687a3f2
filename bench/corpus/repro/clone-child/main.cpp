// What googletest's death tests do (ExecDeathTestSpawnChild): clone() a
// child process, without CLONE_VM, onto a fresh mmap'ed stack.
#include "child.h"
#include <sched.h>
#include <csignal>
#include <cstdio>
#include <sys/mman.h>
#include <sys/wait.h>

int main() {
  const size_t size = 64 * 1024;
  void* stack = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_ANON | MAP_PRIVATE, -1, 0);
  char* top = static_cast<char*>(stack) + size - 64;
  char msg[] = "hello";
  pid_t pid = clone(child_main, top, SIGCHLD, msg);
  int st = 0;
  waitpid(pid, &st, 0);
  if (WIFSIGNALED(st))
    std::printf("child killed by signal %d\n", WTERMSIG(st));
  else
    std::printf("child exited %d\n", WEXITSTATUS(st));
  return 0;
}
