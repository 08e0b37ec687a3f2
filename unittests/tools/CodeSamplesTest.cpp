//===- CodeSamplesTest.cpp - Code sample addresses to functions ------------===//
//
// Part of ActiveTime. profile::resolveCodeSamples on this test binary
// itself: the profile's function table holds the run-time addresses of a
// few functions defined below, the module's path is this executable, and
// sample addresses inside them must map to them through the ELF symbol
// table (load bias found from those addresses). A symbol named like the
// pass's timed copy ("<name>.activetime.timed", made here with an asm
// label) maps to the original; a runtime symbol ("__activetime...") is
// Runtime; any other code is Outside. When the symbols cannot be used the
// addresses fall back to the nearest function start below, with a warning.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

// Functions with real symbols (and sizes) in this executable. Each does
// some work so that it is longer than a few bytes and not folded with
// another.
extern "C" {
__attribute__((noinline, used)) int activetime_test_resolve_a(int N) {
  volatile int S = 0;
  for (int I = 0; I < N; ++I)
    S = S + I * 3;
  return S;
}
__attribute__((noinline, used)) int activetime_test_resolve_b(int N) {
  volatile int S = 1;
  for (int I = 0; I < N; ++I)
    S = S * (I + 7);
  return S;
}
__attribute__((noinline, used)) int activetime_test_not_in_profile(int N) {
  volatile int S = 5;
  for (int I = 0; I < N; ++I)
    S = S - I * 11;
  return S;
}
}

// What the pass emits for a small function: its timed copy, a separate
// symbol "<name>.activetime.timed".
__attribute__((noinline, used)) int timedCopyOfA(int N) __asm__(
    "activetime_test_resolve_a.activetime.timed");
int timedCopyOfA(int N) {
  volatile int S = 9;
  for (int I = 0; I < N; ++I)
    S = S ^ (I + 13);
  return S;
}

// A runtime function: its samples are probe time, already removed.
__attribute__((noinline, used)) int runtimeProbe(int N) __asm__(
    "__activetime_test_probe");
int runtimeProbe(int N) {
  volatile int S = 3;
  for (int I = 0; I < N; ++I)
    S = S + (I ^ 17);
  return S;
}

namespace {

uint64_t addrOf(int (*F)(int)) { return uint64_t(reinterpret_cast<uintptr_t>(F)); }

std::string selfPath() {
  return sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&addrOf));
}

/// The size of symbol Name in the ELF file at Path (0 if not found).
uint64_t symbolSize(const std::string &Path, StringRef Name) {
  auto Bin = object::ObjectFile::createObjectFile(Path);
  if (!Bin) {
    consumeError(Bin.takeError());
    return 0;
  }
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Bin->getBinary());
  if (!Elf)
    return 0;
  for (const object::ELFSymbolRef &S : Elf->symbols()) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      continue;
    }
    if (*N == Name)
      return S.getSize();
  }
  return 0;
}

/// One process whose module is the object at Path with functions a and b
/// (ids 0 and 1) at their run-time addresses, and one thread with a node of
/// a holding the samples.
Profile makeProfile(const std::string &Path,
                    std::vector<CodeSample> Samples) {
  Profile Prof;
  Process P;
  P.TickRate = 1000000000;
  P.Pid = 77;
  P.Exe = Path;
  P.Modules.push_back({1, 0, 0, "t.c", Path});
  P.Functions.push_back({0, addrOf(&activetime_test_resolve_a), 1, 0,
                         "activetime_test_resolve_a", "t.c"});
  P.Functions.push_back({0, addrOf(&activetime_test_resolve_b), 2, 0,
                         "activetime_test_resolve_b", "t.c"});
  P.Functions.push_back({0, 0, 3, 0, "never_called", "t.c"});
  Thread T;
  T.Tid = 77;
  T.EndTick = 1000;
  T.Nodes.push_back({raw::kNoParent, 0, 1, 1000, 1000, 1000, 1000});
  T.CodeSamples = std::move(Samples);
  P.Threads.push_back(std::move(T));
  Prof.Processes.push_back(std::move(P));
  return Prof;
}

CodeSample sample(uint64_t Addr, uint32_t Flags = 0) {
  CodeSample S;
  S.Node = 0;
  S.Flags = Flags;
  S.Addr = Addr;
  S.Count = 1;
  return S;
}

TEST(CodeSamples, ResolvedThroughThisBinarysSymbols) {
  std::string Self = selfPath();
  ASSERT_FALSE(Self.empty());
  uint64_t A = addrOf(&activetime_test_resolve_a);
  uint64_t B = addrOf(&activetime_test_resolve_b);
  uint64_t SizeA = symbolSize(Self, "activetime_test_resolve_a");
  uint64_t SizeCopy =
      symbolSize(Self, "activetime_test_resolve_a.activetime.timed");
  ASSERT_GT(SizeA, 4u) << "no symbol table in " << Self;
  ASSERT_GT(SizeCopy, 1u);
  std::string CopyName =
      std::string("activetime_test_resolve_a") + activetime::abi::kTimedCopySuffix;
  ASSERT_EQ(CopyName, "activetime_test_resolve_a.activetime.timed");

  Profile Prof = makeProfile(
      Self, {sample(A + 1),                              // 0: inside a
             sample(A + SizeA - 1),                      // 1: its last byte
             sample(B + 2),                              // 2: inside b
             sample(addrOf(&timedCopyOfA) + 1),          // 3: a's timed copy
             sample(addrOf(&runtimeProbe) + 1),          // 4: the runtime
             sample(addrOf(&activetime_test_not_in_profile) + 1), // 5
             sample(0, raw::CSR_Caller | raw::CSR_Kernel),        // 6
             // 7: a return address just past a's end: the call in a.
             sample(A + SizeA, raw::CSR_Caller)});
  std::vector<std::string> W = resolveCodeSamples(Prof);
  EXPECT_TRUE(W.empty()) << W.front();
  const Process &P = Prof.Processes[0];
  EXPECT_FALSE(P.CodeResolvedByNearest);
  const std::vector<CodeSample> &S = P.Threads[0].CodeSamples;
  EXPECT_EQ(S[0].Kind, CodeKind::Function);
  EXPECT_EQ(S[0].Func, 0u);
  EXPECT_EQ(S[1].Kind, CodeKind::Function);
  EXPECT_EQ(S[1].Func, 0u);
  EXPECT_EQ(S[2].Kind, CodeKind::Function);
  EXPECT_EQ(S[2].Func, 1u);
  EXPECT_EQ(S[3].Kind, CodeKind::Function) << "timed copy";
  EXPECT_EQ(S[3].Func, 0u) << "timed copy";
  EXPECT_EQ(S[4].Kind, CodeKind::Runtime);
  EXPECT_EQ(S[5].Kind, CodeKind::Outside);
  EXPECT_EQ(S[6].Kind, CodeKind::Outside);
  EXPECT_EQ(S[7].Kind, CodeKind::Function);
  EXPECT_EQ(S[7].Func, 0u);
}

TEST(CodeSamples, NoSamplesNothingRead) {
  // Without code samples nothing is looked up, not even a missing file.
  Profile Prof = makeProfile("/nonexistent/activetime-test/app", {});
  EXPECT_TRUE(resolveCodeSamples(Prof).empty());
  EXPECT_FALSE(Prof.Processes[0].CodeResolvedByNearest);
}

TEST(CodeSamples, UnreadableObjectFallsBackToNearestStart) {
  uint64_t A = addrOf(&activetime_test_resolve_a);
  uint64_t B = addrOf(&activetime_test_resolve_b);
  uint64_t Lo = std::min(A, B), Hi = std::max(A, B);
  Profile Prof = makeProfile("/nonexistent/activetime-test/app",
                             {sample(Lo + 1), sample(Hi + 3), sample(Lo - 1),
                              sample(Hi, raw::CSR_Caller), sample(0)});
  std::vector<std::string> W = resolveCodeSamples(Prof);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("code samples of pid 77: cannot read the symbols of "
                      "/nonexistent/activetime-test/app ("),
            std::string::npos)
      << W[0];
  EXPECT_NE(W[0].find("mapping them to the nearest function start below"),
            std::string::npos)
      << W[0];
  const Process &P = Prof.Processes[0];
  EXPECT_TRUE(P.CodeResolvedByNearest);
  const std::vector<CodeSample> &S = P.Threads[0].CodeSamples;
  uint32_t LoId = Lo == A ? 0 : 1, HiId = 1 - LoId;
  EXPECT_EQ(S[0].Kind, CodeKind::Function);
  EXPECT_EQ(S[0].Func, LoId);
  EXPECT_EQ(S[1].Kind, CodeKind::Function);
  EXPECT_EQ(S[1].Func, HiId);
  EXPECT_EQ(S[2].Kind, CodeKind::Outside); // below every function
  // A return address at Hi's start: the call before it, in Lo's range.
  EXPECT_EQ(S[3].Kind, CodeKind::Function);
  EXPECT_EQ(S[3].Func, LoId);
  EXPECT_EQ(S[4].Kind, CodeKind::Outside);
}

TEST(CodeSamples, WrongBuildIdFallsBackToNearestStart) {
  // The executable at the recorded path is not the profiled one.
  std::string Self = selfPath();
  uint64_t B = addrOf(&activetime_test_resolve_b);
  Profile Prof = makeProfile(Self, {sample(B + 2)});
  Prof.Processes[0].BuildId = std::string("\x01\x02\x03", 3);
  std::vector<std::string> W = resolveCodeSamples(Prof);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("its build id is not the profiled program's"),
            std::string::npos)
      << W[0];
  EXPECT_TRUE(Prof.Processes[0].CodeResolvedByNearest);
  EXPECT_EQ(Prof.Processes[0].Threads[0].CodeSamples[0].Kind,
            CodeKind::Function);
  EXPECT_EQ(Prof.Processes[0].Threads[0].CodeSamples[0].Func, 1u);
}

} // namespace
