//===- MpiTest.cpp - The MPI summary and the mpi section ---------------===//
//
// Part of ActiveTime. Two ranks of one job: the summary adds each MPI
// routine's calls and times (its functions' figures) and bytes (the mpi
// sections') over the ranks and leaves out the program's own functions;
// the mpi section and the rank survive a write and a read, and the reader
// refuses bytes of a function that is not an MPI routine.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Mpi.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "ProfileTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using llvm::Expected;
using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;

/// Rank \p Rank of 2: main calls MPI_Barrier (waiting \p BarrierNs) and
/// MPI_Send (8 bytes), at 1 tick = 1 ns.
Process makeRank(uint32_t Rank, uint64_t BarrierNs) {
  Process P;
  P.TickRate = 1000000000;
  P.Exe = "/bin/app";
  P.Pid = 100 + Rank;
  P.MpiRank = Rank;
  P.MpiSize = 2;
  P.Modules.push_back({1, 0, 0, "a.c", "/bin/app"});
  P.Modules.push_back({2, 0, 0, activetime::abi::kMpiModuleName, "/bin/app"});
  P.Functions.push_back({0, 0x1000, 1, 0, "main", "a.c"});
  P.Functions.push_back({1, 0x2000, 0, activetime::abi::FF_Mpi, "MPI_Barrier", ""});
  P.Functions.push_back({1, 0x2100, 0, activetime::abi::FF_Mpi, "MPI_Send", ""});
  P.Threads.push_back(testutil::makeThread(
      1, {{Root, 0, 1, 100000, 100000 - BarrierNs - 10, 100000, 100000},
          {0, 1, 1, BarrierNs, BarrierNs, BarrierNs, BarrierNs},
          {0, 2, 2, 10, 10, 5, 5}}));
  P.Mpi.Present = true;
  P.Mpi.Routines.push_back({2, 8});
  return P;
}

const MpiRoutine *find(const Aggregate &A, const MpiSummary &S,
                       const std::string &Name) {
  for (const MpiRoutine &R : S.Routines)
    if (A.Functions[R.Func].Name == Name)
      return &R;
  return nullptr;
}

TEST(Mpi, SummaryAddsRoutinesOverRanks) {
  Profile Prof;
  Prof.Processes.push_back(makeRank(0, 3000));
  Prof.Processes.push_back(makeRank(1, 1000));
  Aggregate A = aggregate(Prof);
  MpiSummary S = mpiSummary(Prof, A);
  EXPECT_EQ(S.Ranks, 2u);
  EXPECT_EQ(S.JobSize, 2u);
  ASSERT_EQ(S.Routines.size(), 2u); // main is not MPI
  // Longest first.
  EXPECT_EQ(A.Functions[S.Routines[0].Func].Name, "MPI_Barrier");
  const MpiRoutine *Barrier = find(A, S, "MPI_Barrier");
  const MpiRoutine *Send = find(A, S, "MPI_Send");
  ASSERT_TRUE(Barrier && Send);
  EXPECT_EQ(Barrier->Calls, 2u);
  EXPECT_EQ(Barrier->ElapsedNs, 4000);
  EXPECT_EQ(Barrier->Bytes, 0u);
  EXPECT_EQ(Send->Calls, 4u);
  EXPECT_EQ(Send->Bytes, 16u);
  EXPECT_EQ(S.Bytes, 16u);
  EXPECT_EQ(S.ElapsedNs, 4020);
}

TEST(Mpi, NoMpiNoSummary) {
  Profile Prof;
  Process P = makeRank(0, 10);
  P.MpiSize = 0;
  P.Mpi = {};
  for (Function &F : P.Functions)
    F.Flags = 0;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_FALSE(mpiSummary(Prof, A).present());
}

TEST(Mpi, SectionAndRankRoundTrip) {
  Profile Prof;
  Prof.Processes.push_back(makeRank(1, 1000));
  Expected<Profile> Back = testutil::parse(testutil::serialize(Prof));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const Process &P = Back->Processes[0];
  EXPECT_EQ(P.MpiRank, 1u);
  EXPECT_EQ(P.MpiSize, 2u);
  ASSERT_TRUE(P.Mpi.Present);
  ASSERT_EQ(P.Mpi.Routines.size(), 1u);
  EXPECT_EQ(P.Mpi.Routines[0].Func, 2u);
  EXPECT_EQ(P.Mpi.Routines[0].Bytes, 8u);
  EXPECT_TRUE(isMpi(P.Functions[1]));
  EXPECT_FALSE(isMpi(P.Functions[0]));
}

TEST(Mpi, ReaderRefusesBytesOfAnotherFunction) {
  Profile Prof;
  Prof.Processes.push_back(makeRank(0, 1000));
  Prof.Processes[0].Mpi.Routines[0].Func = 0; // main
  EXPECT_NE(testutil::parseError(testutil::serialize(Prof))
                .find("function 0 is not an MPI routine"),
            std::string::npos);
}

} // namespace

namespace {
const RankSpread *spreadOf(const Aggregate &A,
                           const std::vector<RankSpread> &V,
                           const std::string &Name) {
  for (const RankSpread &R : V)
    if (A.Functions[R.Func].Name == Name)
      return &R;
  return nullptr;
}
} // namespace

// Three ranks waiting 1000, 2000 and 6000 ns in MPI_Barrier: mean 3000,
// population std dev sqrt((4 + 1 + 9) / 3) * 1000, imbalance 3000 (rank
// 2), least on rank 0; main's inclusive time is the same on every rank,
// its computing time less the MPI calls under it.
// A process without a rank (MpiSize 0) is left out, and one rank alone has
// no spread.
TEST(Mpi, RankSpreadsOrderByImbalance) {
  Profile Prof;
  Prof.Processes.push_back(makeRank(0, 1000));
  Prof.Processes.push_back(makeRank(1, 2000));
  Prof.Processes.push_back(makeRank(2, 6000));
  Process NotMpi = makeRank(3, 50000);
  NotMpi.MpiSize = 0;
  Prof.Processes.push_back(NotMpi);
  for (Process &P : Prof.Processes)
    P.MpiSize = P.MpiSize ? 3 : 0;
  Aggregate A = aggregate(Prof);
  RankSpreads Spreads = rankSpreads(Prof, A);
  EXPECT_EQ(Spreads.Ranks, 3u);
  const std::vector<RankSpread> &V = Spreads.Functions;
  ASSERT_FALSE(V.empty());
  EXPECT_EQ(A.Functions[V[0].Func].Name, "MPI_Barrier");
  const RankSpread *B = spreadOf(A, V, "MPI_Barrier");
  ASSERT_TRUE(B);
  EXPECT_TRUE(B->Mpi);
  EXPECT_DOUBLE_EQ(B->MeanNs, 3000);
  EXPECT_DOUBLE_EQ(B->ImbalanceNs, 3000);
  EXPECT_EQ(B->MaxRank, 2u);
  EXPECT_EQ(B->MinRank, 0u);
  EXPECT_NEAR(B->StdDevNs, std::sqrt(14.0 / 3) * 1000, 1e-6);
  EXPECT_NEAR(B->CfVar, B->StdDevNs / 3000, 1e-12);
  // main's 100 us on every rank, less the MPI calls under it (the barrier
  // and the sends' 10 ns): 98.99, 97.99 and 93.99 us computing.
  const RankSpread *M = spreadOf(A, V, "main");
  ASSERT_TRUE(M);
  EXPECT_FALSE(M->Mpi);
  EXPECT_DOUBLE_EQ(M->MeanNs, 96990);
  EXPECT_DOUBLE_EQ(M->ImbalanceNs, 2000);
  EXPECT_EQ(M->MaxRank, 0u);
  EXPECT_EQ(M->MinRank, 2u);

  Profile One;
  One.Processes.push_back(makeRank(0, 1000));
  Aggregate A1 = aggregate(One);
  EXPECT_TRUE(rankSpreads(One, A1).Functions.empty());
}

// A rank's time splits into computing (active outside MPI calls) and
// waiting (elapsed inside them, its on-CPU part apart); a process without
// a rank is in no row.
TEST(Mpi, RankTimesSplitComputingFromWaiting) {
  Profile Prof;
  Prof.Processes.push_back(makeRank(1, 3000));
  Prof.Processes.push_back(makeRank(0, 1000));
  Process NotMpi = makeRank(2, 5000);
  NotMpi.MpiSize = 0;
  Prof.Processes.push_back(NotMpi);
  for (Process &P : Prof.Processes)
    P.EndTick = 200000;
  // Rank 1's barrier waited 1 us of its 3 off the CPU (in main's call too).
  Prof.Processes[0].Threads[0].Nodes[0].OffCpu = 1000;
  Prof.Processes[0].Threads[0].Nodes[1].OffCpu = 1000;
  Aggregate A = aggregate(Prof);
  MpiSummary S = mpiSummary(Prof, A);
  ASSERT_EQ(S.PerRank.size(), 2u);
  const MpiRankTime &R0 = S.PerRank[0], &R1 = S.PerRank[1];
  EXPECT_EQ(R0.Rank, 0u);
  EXPECT_EQ(R1.Rank, 1u);
  EXPECT_DOUBLE_EQ(R0.WallNs, 200000);
  EXPECT_DOUBLE_EQ(R0.ComputingNs, 100000 - 1010);
  EXPECT_DOUBLE_EQ(R0.WaitingNs, 1010);
  EXPECT_DOUBLE_EQ(R0.WaitingOnCpuNs, 1010);
  EXPECT_DOUBLE_EQ(R1.ComputingNs, 100000 - 3010);
  EXPECT_DOUBLE_EQ(R1.WaitingNs, 3010);
  EXPECT_DOUBLE_EQ(R1.WaitingOnCpuNs, 2010);
  EXPECT_DOUBLE_EQ(R1.mpiShare(), 3010.0 / 200000);
}

// A recursive function's computing time loses an MPI call under it once,
// as its inclusive time counts that call once: main -> work -> work ->
// MPI_Barrier.
TEST(Mpi, ImbalanceSubtractsAnMpiCallOncePerFunction) {
  Profile Prof;
  for (uint32_t Rank = 0; Rank < 2; ++Rank) {
    Process P = makeRank(Rank, 0);
    P.Functions.push_back({0, 0x1100, 2, 0, "work", "a.c"});
    uint64_t Wait = Rank ? 4000 : 1000;
    P.Threads[0] = testutil::makeThread(
        1, {{Root, 0, 1, 100000, 50000, 100000, 100000},
            {0, 3, 1, 50000, 20000, 50000, 50000},
            {1, 3, 1, 30000, 30000 - Wait, 30000, 30000},
            {2, 1, 1, Wait, Wait, Wait, Wait}});
    P.Mpi.Routines.clear();
    Prof.Processes.push_back(P);
  }
  Aggregate A = aggregate(Prof);
  RankSpreads Spreads = rankSpreads(Prof, A);
  const RankSpread *W = spreadOf(A, Spreads.Functions, "work");
  ASSERT_TRUE(W);
  EXPECT_DOUBLE_EQ(W->MinNs, 50000 - 4000);
  EXPECT_EQ(W->MinRank, 1u);
  EXPECT_DOUBLE_EQ(W->MaxNs, 50000 - 1000);
  const RankSpread *M = spreadOf(A, Spreads.Functions, "main");
  ASSERT_TRUE(M);
  EXPECT_DOUBLE_EQ(M->MinNs, 100000 - 4000);
}
