//===- MpiReduceTest.cpp - The MPI reduction's binomial tree --------------===//
//
// The schedule of activetime_mpi_reduce.cpp, played for every job size up
// to a few hundred ranks: each round's sends and receives pair up, every
// rank but 0 sends once and then leaves, and rank 0 ends with every rank in
// rank order after ceil(log2 ranks) rounds.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <vector>

#include "activetime_mpi.h"

using namespace __activetime;

namespace {

TEST(MpiTreeTest, RoundsAreCeilLog2) {
  EXPECT_EQ(MpiTreeRounds(1), 0u);
  EXPECT_EQ(MpiTreeRounds(2), 1u);
  EXPECT_EQ(MpiTreeRounds(3), 2u);
  EXPECT_EQ(MpiTreeRounds(8), 3u);
  EXPECT_EQ(MpiTreeRounds(9), 4u);
  EXPECT_EQ(MpiTreeRounds(64), 6u);
  EXPECT_EQ(MpiTreeRounds(0x80000001u), 32u);
}

TEST(MpiTreeTest, RankZeroGathersEveryRankInOrder) {
  for (u32 Size = 1; Size <= 300; ++Size) {
    SCOPED_TRACE(Size);
    std::vector<std::vector<u32>> Held(Size);
    std::vector<bool> Left(Size, false);
    for (u32 R = 0; R < Size; ++R)
      Held[R] = {R};
    for (u32 Round = 0; Round < MpiTreeRounds(Size); ++Round) {
      for (u32 R = 0; R < Size; ++R) {
        TreeStep S = MpiTreeStep(R, Size, Round);
        ASSERT_EQ(S.Action == TreeAction::Gone, Left[R]) << R;
        if (S.Action != TreeAction::Receive)
          continue;
        ASSERT_LT(S.Peer, Size);
        TreeStep P = MpiTreeStep(S.Peer, Size, Round);
        ASSERT_EQ(P.Action, TreeAction::Send) << S.Peer;
        ASSERT_EQ(P.Peer, R);
        // The sender brings exactly the ranks it says.
        ASSERT_EQ(Held[S.Peer].front(), S.Peer);
        ASSERT_EQ(Held[S.Peer].back() + 1, S.End);
        Held[R].insert(Held[R].end(), Held[S.Peer].begin(), Held[S.Peer].end());
        Held[S.Peer].clear();
      }
      for (u32 R = 0; R < Size; ++R) {
        TreeStep S = MpiTreeStep(R, Size, Round);
        if (S.Action == TreeAction::Send) {
          ASSERT_TRUE(Held[R].empty()) << R << " sent to nobody";
          Left[R] = true;
        }
      }
    }
    for (u32 R = 1; R < Size; ++R)
      EXPECT_TRUE(Left[R]) << R;
    ASSERT_EQ(Held[0].size(), Size);
    for (u32 R = 0; R < Size; ++R)
      ASSERT_EQ(Held[0][R], R);
  }
}

} // namespace
