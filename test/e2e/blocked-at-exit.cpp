// A detached thread that works, then waits on a condition variable until the
// program ends: its frames are open when the profile is written, and it has
// been off CPU since it blocked. That wait is switched-out time of the open
// frames (up to the write), not active time: the waiting function's active
// time is about its thread's CPU time, not the ~300 ms it waited.
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cxx -O2 -g %s -o blocked -lpthread
// RUN: ./blocked > out.txt
// RUN: %activetime report --json activetime.blocked.*.raw > r.json
// RUN: python3 %S/Inputs/blocked-check.py out.txt r.json | FileCheck %s
// CHECK: waiter active within 2x of its thread's CPU time
// CHECK: waiter off-cpu covers the wait
// CHECK: no thread over its CPU time
// RUN: %activetime report activetime.blocked.*.raw | FileCheck --check-prefix=TEXT %s
// TEXT: CPU time: {{.*}} on the threads' own clocks
// TEXT-NOT: OVER CPU TIME
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <thread>

static std::mutex &mu = *new std::mutex;
// Never destroyed: glibc's destructor would wait for the blocked waiter.
static std::condition_variable &cv = *new std::condition_variable;
static bool ready;
volatile double sink;

static unsigned long long thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

__attribute__((noinline)) void compute() {
  double x = 0;
  for (long i = 0; i < 20000000; ++i)
    x += i * 0.5;
  sink = x;
}

__attribute__((noinline)) void waiter() {
  unsigned long long c0 = thread_cpu_ns();
  compute();
  std::printf("cpu_ns %llu\n", thread_cpu_ns() - c0);
  std::fflush(stdout);
  std::unique_lock<std::mutex> l(mu);
  ready = true;
  cv.notify_all();
  cv.wait(l, [] { return false; });
}

int main() {
  std::thread(waiter).detach();
  {
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [] { return ready; });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::puts("bye");
}
