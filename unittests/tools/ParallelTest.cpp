//===- ParallelTest.cpp - OpenMP worker-state analysis tests ----------------===//
//
// Part of ActiveTime. The OpenMP worker-state diagnosis's decision
// procedure as a table of counter inputs -> cause, the wait attribution
// rule, region grouping, and the SK_Parallel section through the real
// writer and reader (round trip and rejected corruptions).
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"
#include "ProfileTestUtil.h"
#include "activetime/raw_format.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::testutil;

namespace {

constexpr unsigned U = raw::WS_User, L = raw::WS_Local, G = raw::WS_Global,
                   W = raw::WS_Wait;

// A region summary from per-state seconds and counters (1 thread-second
// scale: shares are the seconds themselves when they sum to 1).
RegionSummary region(double Us, double Ls, double Gs, double Ws,
                     uint64_t Local, uint64_t Stolen, uint64_t GG,
                     uint64_t GW) {
  RegionSummary R;
  R.StateSeconds[U] = Us;
  R.StateSeconds[L] = Ls;
  R.StateSeconds[G] = Gs;
  R.StateSeconds[W] = Ws;
  R.ThreadSeconds = Us + Ls + Gs + Ws;
  R.LocalTakes = Local;
  R.StolenTakes = Stolen;
  R.Transitions[G][G] = GG;
  R.Transitions[G][W] = GW;
  return R;
}

struct DecisionCase {
  const char *Name;
  RegionSummary R;
  ParallelCause Expected;
};

TEST(ParallelDecision, RulesInOrder) {
  const DecisionCase Cases[] = {
      // Overhead 5% and a low rate: no diagnosis at all.
      {"Quiet", region(0.95, 0.02, 0, 0.03, 10, 0, 0, 1), ParallelCause::None},
      // 1,000,000 takes in 1 thread-second > 400,000/s: too fine, even
      // though stealing and idleness would also match (rule 1 first).
      {"FineFirst", region(0.5, 0.2, 0.1, 0.2, 500000, 500000, 9, 9),
       ParallelCause::TooFine},
      // The rate alone opens the gate (takes are instants to OMPT).
      {"FineGate", region(0.99, 0, 0, 0.01, 450000, 0, 0, 0),
       ParallelCause::TooFine},
      // Exactly at the rate threshold: not too fine (strictly greater).
      {"RateAtThreshold", region(0.8, 0.1, 0.1, 0, 400000, 0, 0, 0),
       ParallelCause::Undiagnosed},
      // Stolen/local 3 > 1: linear spawn, before idleness.
      {"Spawn", region(0.3, 0, 0.1, 0.6, 100, 300, 0, 400),
       ParallelCause::LinearSpawn},
      // Stolen with no local take at all: ratio is infinite.
      {"SpawnNoLocal", region(0.5, 0, 0.2, 0.3, 0, 20, 0, 0),
       ParallelCause::LinearSpawn},
      // Ratio exactly 1: not linear spawn.
      {"RatioAtThreshold", region(0.5, 0, 0, 0.5, 10, 10, 0, 0),
       ParallelCause::Imbalance},
      // Idle half the time, 2 fruitless searches per take: not enough tasks.
      {"FewTasks", region(0.5, 0, 0, 0.5, 2, 0, 0, 4),
       ParallelCause::NotEnoughTasks},
      // G->G counts as fruitless too: (3 + 1) / 4 = 1 >= 1.
      {"FewTasksGG", region(0.6, 0, 0, 0.4, 4, 0, 3, 1),
       ParallelCause::NotEnoughTasks},
      // Idle, but fewer fruitless searches than takes: imbalance.
      {"Imbalance", region(0.7, 0, 0, 0.3, 4, 0, 0, 0),
       ParallelCause::Imbalance},
      // Overhead in L only (no waiting): above the gate, no cause matched.
      {"ActiveOnly", region(0.8, 0.2, 0, 0, 100, 0, 0, 0),
       ParallelCause::Undiagnosed},
  };
  ParallelThresholds T;
  for (const DecisionCase &C : Cases)
    EXPECT_EQ(diagnose(C.R, T), C.Expected) << C.Name;
}

TEST(ParallelDecision, ThresholdsAreConfigurable) {
  RegionSummary R = region(0.9, 0, 0, 0.1, 60000, 0, 0, 0);
  ParallelThresholds T;
  EXPECT_EQ(diagnose(R, T), ParallelCause::None);
  T.MaxTaskRate = 50000;
  EXPECT_EQ(diagnose(R, T), ParallelCause::TooFine);
  RegionSummary S = region(0.85, 0, 0, 0.15, 10, 0, 0, 0);
  T = ParallelThresholds();
  EXPECT_EQ(diagnose(S, T), ParallelCause::Imbalance);
  T.MinOverheadShare = 0.2;
  EXPECT_EQ(diagnose(S, T), ParallelCause::None);
}

TEST(ParallelAttribution, WaitsAfterASharedPoolAreFruitlessSearches) {
  RegionThread E;
  E.StateTicks[U] = 600;
  E.StateTicks[W] = 400;
  E.Transitions[U][L] = 3;
  E.Transitions[L][U] = 2;
  E.Transitions[L][W] = 1;
  E.LocalTakes = 2;
  E.Chunks = 2;
  E.WaitEntries = 1;
  RegionSummary R;
  addRegionThread(R, E, 1000.0);
  addRegionThread(R, E, 1000.0);
  finishRegion(R);
  EXPECT_TRUE(R.SharedPool);
  EXPECT_DOUBLE_EQ(R.ThreadSeconds, 2.0);
  EXPECT_DOUBLE_EQ(R.inactiveShare(), 0.4);
  EXPECT_EQ(R.Transitions[L][W], 0u);
  EXPECT_EQ(R.Transitions[L][G], 2u);
  EXPECT_EQ(R.Transitions[G][W], 2u);
  EXPECT_EQ(R.fruitlessSearches(), 2u);
  EXPECT_DOUBLE_EQ(R.fruitlessPerTake(), 0.5);

  // A static loop has no pool: its waits stay L->W.
  E.Chunks = 0;
  RegionSummary S;
  addRegionThread(S, E, 1000.0);
  finishRegion(S);
  EXPECT_FALSE(S.SharedPool);
  EXPECT_EQ(S.Transitions[L][W], 1u);
  EXPECT_EQ(S.fruitlessSearches(), 0u);
}

Profile parallelProfile() {
  Profile P;
  Process Pr;
  Pr.TickRate = 1000;
  Pr.EndTick = 100000;
  Pr.Pid = 7;
  Pr.Exe = "/bin/omp";
  Pr.Overhead.Source = raw::OS_Option;
  Pr.Par.Present = true;
  Pr.Par.Status = raw::OS_Ompt;
  Pr.Par.LostEvents = 3;
  Pr.Par.Regions.push_back({0x1234, "/bin/omp", 2, 5000, 4});
  Pr.Par.Regions.push_back({0x1300, "/lib/libx.so", 1, 700, 2});
  for (uint64_t Tid : {7, 8}) {
    RegionThread E;
    E.Region = 0;
    E.Tid = Tid;
    E.StateTicks[U] = 3000;
    E.StateTicks[W] = 1000 + Tid;
    E.Transitions[U][L] = 5;
    E.Transitions[L][W] = 2;
    E.LocalTakes = 4;
    E.StolenTakes = Tid;
    E.TasksCreated = 9;
    E.Chunks = 0;
    E.WaitEntries = 2;
    Pr.Par.Entries.push_back(E);
  }
  RegionThread E1;
  E1.Region = 1;
  E1.Tid = 7;
  E1.StateTicks[U] = 700;
  Pr.Par.Entries.push_back(E1);
  P.Processes.push_back(std::move(Pr));
  return P;
}

// Offset of the SK_Parallel payload in a serialized profile.
size_t parallelPayload(const std::string &S) {
  size_t Off = sizeof(raw::FileHeader);
  while (Off + sizeof(raw::SectionHeader) <= S.size()) {
    uint32_t Kind = support::endian::read32le(
        S.data() + Off + offsetof(raw::SectionHeader, Kind));
    uint64_t Size = support::endian::read64le(S.data() + Off + 8);
    if (Kind == raw::SK_Parallel)
      return Off + sizeof(raw::SectionHeader);
    Off += sizeof(raw::SectionHeader) + Size;
  }
  ADD_FAILURE() << "no parallel section";
  return 0;
}

TEST(ParallelSection, RoundTrip) {
  Profile P = parallelProfile();
  std::string S = serialize(P);
  Expected<Profile> Q = readProfile(MemoryBufferRef(S, "test"));
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  const Parallel &A = P.Processes[0].Par, &B = Q->Processes[0].Par;
  ASSERT_TRUE(B.Present);
  EXPECT_EQ(B.Status, A.Status);
  EXPECT_EQ(B.LostEvents, 3u);
  ASSERT_EQ(B.Regions.size(), 2u);
  EXPECT_EQ(B.Regions[1].Path, "/lib/libx.so");
  EXPECT_EQ(B.Regions[1].Address, 0x1300u);
  EXPECT_EQ(B.Regions[0].MaxWorkers, 4u);
  ASSERT_EQ(B.Entries.size(), 3u);
  EXPECT_EQ(B.Entries[1].Tid, 8u);
  EXPECT_EQ(B.Entries[1].StateTicks[W], 1008u);
  EXPECT_EQ(B.Entries[1].Transitions[L][W], 2u);
  EXPECT_EQ(B.Entries[1].StolenTakes, 8u);
  EXPECT_EQ(B.Entries[2].Region, 1u);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(serialize(*Q), S);
}

TEST(ParallelSection, Summaries) {
  Profile P = parallelProfile();
  // Two processes of the same program: their regions add up.
  P.Processes.push_back(P.Processes[0]);
  std::vector<RegionSummary> R = summarizeRegions(P);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].Location, "/bin/omp+0x1234");
  EXPECT_EQ(R[0].Instances, 4u);
  EXPECT_EQ(R[0].Threads, 4u); // (process, tid) pairs
  EXPECT_EQ(R[0].LocalTakes, 16u);
  EXPECT_EQ(R[0].StolenTakes, 30u);
  EXPECT_TRUE(R[0].SharedPool); // tasks were created
  EXPECT_EQ(R[0].Transitions[G][W], 8u);
  EXPECT_DOUBLE_EQ(R[0].WallSeconds, 10.0);
  // Grouping by a caller-supplied key merges both regions.
  std::vector<RegionSummary> One =
      summarizeRegions(P, [](const Region &) { return std::string("x.c:1"); });
  ASSERT_EQ(One.size(), 1u);
  EXPECT_EQ(One[0].Instances, 6u);
}

TEST(ParallelSection, Corruptions) {
  std::string S = serialize(parallelProfile());
  size_t Pl = parallelPayload(S);
  auto With = [&](size_t Off, uint32_t V) {
    std::string C = S;
    support::endian::write32le(&C[Off], V);
    reseal(C);
    return parseError(C);
  };
  EXPECT_NE(With(Pl + 0, 9).find("unknown OpenMP status 9"), std::string::npos);
  EXPECT_NE(With(Pl + 4, 1000).find("overrun the section"), std::string::npos);
  size_t Entries = Pl + sizeof(raw::ParallelRecord) + 2 * sizeof(raw::RegionRecord);
  EXPECT_NE(With(Entries, 5).find("entry 0: region index 5 out of range"),
            std::string::npos);
  size_t Region1 = Pl + sizeof(raw::ParallelRecord) + sizeof(raw::RegionRecord);
  EXPECT_NE(With(Region1 + 8, 500).find("region 1: path"), std::string::npos);
  EXPECT_NE(With(Region1 + 36, 1).find("region 1: reserved field is 1"),
            std::string::npos);
  // Truncated: the file header's size no longer matches.
  EXPECT_NE(parseError(StringRef(S).drop_back(8)), "<no error>");
}

} // namespace
