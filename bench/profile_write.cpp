//===- profile_write.cpp - time to write a large profile ------------------===//
//
// Builds a large profile through the public probe ABI (a fake module of
// 4096 functions, 16 threads, each with 4096 x (1 + 4) calling contexts:
// about 26 MB of raw profile), then writes it with
// __activetime_write_profile() several times and prints the size and the
// time of one write (min and median): serialization of the in-memory image,
// its checksums (raw format v8) and the file write, i.e. what the program
// waits for at exit. docs/performance.md compares it with and without the
// checksums.
//
// usage: activetime-bench-profile-write [DIR] [REPS]   (DIR default /tmp)
//
//===----------------------------------------------------------------------===//

#include "activetime/abi.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

using activetime::abi::FuncDesc;
using activetime::abi::ModuleDesc;

extern "C" {
void __activetime_func_enter(const FuncDesc *, void *);
void __activetime_func_exit(const FuncDesc *, void *);
void __activetime_register_module(ModuleDesc *);
int __activetime_write_profile(void);
}

namespace {

constexpr unsigned kFuncs = 4096, kCallees = 4, kThreads = 16;

std::vector<std::string> Names;
std::vector<FuncDesc> Funcs;
ModuleDesc Module;

double NowMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

// One thread's calling contexts: every function under a root frame, each
// calling kCallees others (distinct per caller: distinct nodes).
void Calls() {
  char *Frame = (char *)__builtin_frame_address(0);
  for (unsigned I = 0; I < kFuncs; ++I) {
    __activetime_func_enter(&Funcs[I], Frame - 64);
    for (unsigned K = 1; K <= kCallees; ++K) {
      const FuncDesc *G = &Funcs[(I * 7 + K) % kFuncs];
      __activetime_func_enter(G, Frame - 128);
      __activetime_func_exit(G, Frame - 128);
    }
    __activetime_func_exit(&Funcs[I], Frame - 64);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string Dir = argc > 1 ? argv[1] : "/tmp";
  int Reps = argc > 2 ? atoi(argv[2]) : 7;
  std::string Path = Dir + "/activetime-bench-profile-write.raw";
  if (!getenv("ACTIVETIME_OPTIONS")) {
    // The runtime reads its options once, at start-up: run again with them.
    std::string Opts = "write_profile=0:code_samples=0:output=" + Path;
    setenv("ACTIVETIME_OPTIONS", Opts.c_str(), 1);
    execv("/proc/self/exe", argv);
    perror("execv /proc/self/exe");
    return 1;
  }
  Names.resize(kFuncs);
  Funcs.resize(kFuncs);
  for (unsigned I = 0; I < kFuncs; ++I) {
    Names[I] = "bench_function_" + std::to_string(I);
    Funcs[I] = {(const void *)(0x100000 + 64 * uintptr_t(I)), Names[I].c_str(),
                "bench.cpp", I + 1, 0};
  }
  Module = {activetime::abi::kAbiVersion, kFuncs, Funcs.data(), "bench.cpp",
            0x5eed, nullptr};
  __activetime_register_module(&Module);
  std::vector<std::thread> Ts;
  for (unsigned T = 0; T < kThreads; ++T)
    Ts.emplace_back(Calls);
  for (std::thread &T : Ts)
    T.join();

  std::vector<double> Ms;
  for (int R = 0; R < Reps; ++R) {
    double T0 = NowMs();
    if (__activetime_write_profile() != 0)
      return 1;
    Ms.push_back(NowMs() - T0);
  }
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    perror(Path.c_str());
    return 1;
  }
  std::sort(Ms.begin(), Ms.end());
  printf("profile: %u threads x %u contexts, %.1f MB (%s)\n", kThreads,
         kFuncs * (1 + kCallees), St.st_size / 1e6, Path.c_str());
  printf("write: min %.1f ms, median %.1f ms over %d writes\n", Ms.front(),
         Ms[Ms.size() / 2], Reps);
  unlink(Path.c_str());
  return 0;
}
