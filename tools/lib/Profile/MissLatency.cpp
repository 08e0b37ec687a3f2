//===- MissLatency.cpp - The machine's memory latency ----------------------===//
//
// Part of ActiveTime. See measureMissLatency in activetime/Profile/Strides.h.
//
// A prefetch has to be issued one miss latency before its load. The latency
// is the machine's, not the program's, so it is measured the way lmbench's
// lat_mem_rd does: a chain of dependent loads, each to a cache line chosen
// so that neither the caches nor the hardware prefetchers can guess it. The
// walk is a full-period linear congruential sequence over the lines of a
// buffer well beyond the last-level cache, so it needs no shuffled index
// array and visits every line once. The loads include their TLB misses, as
// the program's irregular loads do.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Strides.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <memory>
#include <new>

using namespace activetime;
using namespace activetime::profile;

static double threadCpuNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return double(T.tv_sec) * 1e9 + double(T.tv_nsec);
}

MissLatency profile::measureMissLatency(uint64_t BufferBytes, uint64_t Loads) {
  MissLatency R;
  R.BufferBytes = BufferBytes;
  constexpr uint64_t Line = 64, Words = Line / sizeof(uint64_t);
  // A power of two of lines: any odd increment and a multiplier = 1 mod 4
  // give the LCG its full period.
  uint64_t Lines = 1;
  while (Lines * 2 * Line <= BufferBytes)
    Lines *= 2;
  if (Lines < 1024 || !Loads)
    return R;
  std::unique_ptr<uint64_t[]> Buf(new (std::nothrow) uint64_t[Lines * Words]);
  if (!Buf)
    return R;
  const uint64_t Mask = Lines - 1;
  auto Next = [Mask](uint64_t I) {
    return (I * 6364136223846793005ull + 1442695040888963407ull) & Mask;
  };
  for (uint64_t I = 0; I < Lines; ++I)
    Buf[I * Words] = Next(I) * Words;
  // A first lap over part of the buffer settles the page tables; the timed
  // walk starts where it ended. It is timed on the thread's CPU clock, in
  // segments, and the fastest segment counts: time the thread spent
  // switched out, or sharing the memory with a burst of another process,
  // is not the machine's latency.
  volatile uint64_t Sink;
  uint64_t P = 0;
  for (uint64_t I = 0; I < Lines / 8; ++I)
    P = Buf[P];
  constexpr unsigned Segments = 8;
  uint64_t PerSegment = (Loads + Segments - 1) / Segments;
  double Best = 0;
  for (unsigned Seg = 0; Seg < Segments; ++Seg) {
    double T0 = threadCpuNs();
    for (uint64_t I = 0; I < PerSegment; ++I)
      P = Buf[P];
    double Ns = (threadCpuNs() - T0) / double(PerSegment);
    if (Seg == 0 || Ns < Best)
      Best = Ns;
  }
  Sink = P;
  (void)Sink;
  Loads = PerSegment * Segments;
  R.BufferBytes = Lines * Line;
  R.Loads = Loads;
  R.Ns = Best;
  return R;
}

uint64_t profile::cacheBytes() {
  uint64_t Best = 0;
  for (unsigned I = 0; I < 8; ++I) {
    std::string Dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(I) + "/";
    std::ifstream Level(Dir + "level"), Type(Dir + "type"), Size(Dir + "size");
    unsigned L = 0;
    std::string T, S;
    if (!(Level >> L) || !(Type >> T) || !(Size >> S) || L > 2 ||
        T == "Instruction")
      continue;
    uint64_t N = std::strtoull(S.c_str(), nullptr, 10);
    char Unit = S.empty() ? 0 : S.back();
    N <<= Unit == 'K' ? 10 : Unit == 'M' ? 20 : Unit == 'G' ? 30 : 0;
    Best = std::max(Best, N);
  }
  return Best ? Best : uint64_t(1) << 20;
}
