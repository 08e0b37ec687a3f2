//===- raw_reader_fuzzer.cpp - libFuzzer target: raw/merged profiles -------===//
//
// Part of ActiveTime. Any byte string given to the reader is either rejected
// with an error or parsed into a profile that the writer serializes and the
// reader reads back identically (so a merged file, which is written by the
// same writer, round-trips too); the report's aggregation, the OpenMP and
// sample summaries and `diff`'s runs and matching then run on it, and so do
// the report filters (the filtered profile must pass the reader's checks
// again) and the callers and bottom-up views. Anything else (a crash, a
// sanitizer report, a failed round trip) is a bug.
//
// The raw format's checksums (v8) would stop nearly every mutation at the
// first section: the input is resealed (its checksums recomputed, as
// resealRawProfile does for the unit tests) before it is parsed, so the
// mutations reach the parsers behind the checksums. The input as given is
// parsed too when resealing changed it: a file whose checksums do not match
// must be rejected.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/CallSites.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/Diff.h"
#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"

#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace llvm;
using namespace activetime::profile;

/// \p Name as a glob pattern that matches only itself.
static std::string literalGlob(StringRef Name) {
  std::string G;
  for (char C : Name) {
    if (StringRef("*?[]{}\\").contains(C))
      G.push_back('\\');
    G.push_back(C);
  }
  return G;
}

/// Filters chosen from the profile itself: its first thread, the function
/// of its first node as focus and of its second as ignored, the middle of
/// the first trace. The result must be valid (written and read back).
static void fuzzFilters(const Profile &In) {
  FilterSpec S;
  for (const Process &Pr : In.Processes)
    for (const Thread &T : Pr.Threads) {
      if (S.Tids.empty())
        S.Tids.push_back(T.Tid);
      for (size_t I = 0; I < T.Nodes.size() && I < 2; ++I)
        (I ? S.Ignore : S.Focus)
            .push_back(literalGlob(Pr.Functions[T.Nodes[I].Func].Name));
      if (!S.Focus.empty())
        break;
    }
  for (const Process &Pr : In.Processes)
    if (!Pr.Traces.empty() && !Pr.Traces[0].Events.empty() && Pr.TickRate) {
      uint64_t Mid = Pr.Traces[0].Events[Pr.Traces[0].Events.size() / 2].Tick;
      S.FromNs = uint64_t(
          ticksToNs(Pr, Mid > Pr.StartTick ? Mid - Pr.StartTick : 0));
      break;
    }
  Profile P = In;
  Expected<FilterSummary> Sum = applyFilters(P, S);
  if (!Sum) {
    consumeError(Sum.takeError());
    return;
  }
  (void)Sum->describe();
  std::string Out;
  raw_string_ostream OS(Out);
  if (Error E = writeProfile(P, OS)) {
    consumeError(std::move(E));
    return;
  }
  OS.flush();
  Expected<Profile> Q = readProfile(MemoryBufferRef(Out, "fuzz-filtered"));
  if (!Q) {
    // The filters broke an invariant of the format.
    errs() << "filtered profile rejected: " << toString(Q.takeError())
           << "\n";
    abort();
  }
  Aggregate A = aggregate(*Q);
  (void)placeCalls(*Q, A, nullptr);
  (void)invertTree(A, 64);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Bytes(reinterpret_cast<const char *>(Data), Size);
  resealRawProfile(MutableArrayRef<char>(Bytes.data(), Bytes.size()));
  if (Bytes != StringRef(reinterpret_cast<const char *>(Data), Size)) {
    Expected<Profile> Unsealed = readProfile(MemoryBufferRef(
        StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz"));
    if (Unsealed)
      abort(); // accepted with a checksum that does not match
    consumeError(Unsealed.takeError());
  }
  Expected<Profile> P = readProfile(MemoryBufferRef(Bytes, "fuzz"));
  if (!P) {
    consumeError(P.takeError());
    return 0;
  }
  std::string Out;
  raw_string_ostream OS(Out);
  if (Error E = writeProfile(*P, OS)) {
    // The writer may refuse what does not fit its format (never crash).
    consumeError(std::move(E));
    return 0;
  }
  OS.flush();
  Expected<Profile> Q = readProfile(MemoryBufferRef(Out, "fuzz-rewritten"));
  if (!Q)
    abort(); // written by us, rejected by us
  std::string Out2;
  raw_string_ostream OS2(Out2);
  if (Error E = writeProfile(*Q, OS2))
    abort();
  OS2.flush();
  if (Out2 != Out)
    abort(); // not a fixed point
  // Merging a profile with another run of it (other pids) is allowed unless
  // the file already holds processes of different binaries or one process
  // twice (a crafted merged file: `merge` never writes one), which merge
  // refuses with an error.
  std::vector<NamedProfile> In;
  In.push_back({"a", *Q});
  for (Process &P : Q->Processes)
    P.Pid ^= 0x80000000u;
  In.push_back({"b", std::move(*Q)});
  Expected<Profile> M = mergeProfiles(std::move(In));
  if (!M) {
    consumeError(M.takeError());
    return 0;
  }
  Aggregate AM = aggregate(*M);
  (void)summarizeRegions(*M);
  // `diff` of the profile against the merged one: its runs (each process
  // and its copy may form runs any way a crafted parent pid says) and the
  // matching of functions and paths.
  Aggregate AP = aggregate(*P);
  std::vector<std::vector<uint32_t>> Runs = splitRuns(*M);
  std::vector<Aggregate> RunAggs = aggregateRuns(*M, Runs);
  DiffSide Base{&AP, {}, 1}, New{&AM, RunAggs, unsigned(Runs.size())};
  (void)diffProfiles(Base, New, DiffOptions());
  fuzzFilters(*M);
  return 0;
}
