//===- MpiReduceTest.cpp - The MPI reduction's binomial tree --------------===//
//
// The schedule of activetime_mpi_reduce.cpp, played for every job size up
// to a few hundred ranks: each round's sends and receives pair up, every
// rank but 0 sends once and then leaves, and rank 0 ends with every rank in
// rank order after ceil(log2 ranks) rounds. Then the exchange itself, one
// thread per rank over an in-memory transport: rank 0's merged image is
// every rank's sections in rank order behind the header the tool's merge
// writes, in pieces, with the ranks that had nothing named missing.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "activetime/Profile/Profile.h"
#include "activetime_mpi_reduce.h"
#include "activetime_writer.h"

using namespace __activetime;
namespace atabi = activetime::abi;
namespace raw = activetime::raw;

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

// Messages between the ranks of one process, in order per sender and
// receiver; a receive of another size than the message fails, as an MPI
// receive of a shorter buffer would.
class Mailboxes {
public:
  struct Endpoint {
    Mailboxes *M;
    u32 Rank;
  };
  explicit Mailboxes(u32 Size) {
    for (u32 R = 0; R < Size; ++R)
      Ends.push_back({this, R});
  }
  atabi::MpiTransport Transport(u32 Rank) {
    return {&Ends[Rank], SendTo, RecvFrom};
  }
  u64 LargestPiece = 0;

private:
  static int SendTo(void *Ctx, uint32_t Peer, const void *Data, uint64_t N) {
    Endpoint *E = (Endpoint *)Ctx;
    std::lock_guard<std::mutex> L(E->M->Mu);
    E->M->Queues[{E->Rank, Peer}].emplace_back((const char *)Data, N);
    E->M->LargestPiece = std::max<u64>(E->M->LargestPiece, N);
    E->M->Cv.notify_all();
    return 0;
  }
  static int RecvFrom(void *Ctx, uint32_t Peer, void *Data, uint64_t N) {
    Endpoint *E = (Endpoint *)Ctx;
    std::unique_lock<std::mutex> L(E->M->Mu);
    auto &Q = E->M->Queues[{Peer, E->Rank}];
    E->M->Cv.wait(L, [&] { return !Q.empty(); });
    std::string Msg = std::move(Q.front());
    Q.pop_front();
    if (Msg.size() != N)
      return -1;
    memcpy(Data, Msg.data(), N);
    return 0;
  }

  std::vector<Endpoint> Ends;
  std::mutex Mu;
  std::condition_variable Cv;
  std::map<std::pair<u32, u32>, std::deque<std::string>> Queues;
};

// A rank's own image: a file header and Rank + 1 "sections" of bytes that
// name the rank (the reduction never looks inside them).
void FakeImage(u32 Rank, OutBuffer *B, std::string *Payload) {
  raw::FileHeader H;
  memset(&H, 0, sizeof(H));
  H.NumSections = Rank + 1;
  B->Append(&H, sizeof(H));
  for (u32 S = 0; S <= Rank; ++S)
    Payload->append(std::string(24, char('a' + Rank)));
  B->Append(Payload->data(), Payload->size());
}

TEST(MpiReduceTest, RankZeroGetsEveryRanksSectionsInPieces) {
  const u32 Size = 6, Absent = 3;
  Mailboxes Box(Size);
  std::vector<std::string> Payloads(Size);
  std::string Merged, Missing;
  u64 Sections = 0;
  std::vector<char> Left(Size); // not vector<bool>: one word per rank's thread
  std::vector<std::thread> Ranks;
  for (u32 R = 0; R < Size; ++R)
    Ranks.emplace_back([&, R] {
      atabi::MpiTransport T = Box.Transport(R);
      Reduction Red(&T, /*Piece=*/7);
      OutBuffer Own = {nullptr, 0, 0};
      if (R != Absent)
        FakeImage(R, &Own, &Payloads[R]);
      Red.Start(R, R == Absent ? nullptr : &Own);
      Left[R] = Red.RunTree(R, Size);
      if (R != 0)
        return;
      Red.SealMerged();
      Merged.assign(Red.Image.Data, Red.Image.Size);
      Missing.assign(Red.Missing.Data, Red.Missing.Size);
      Sections = Red.NumSections;
    });
  for (std::thread &T : Ranks)
    T.join();
  for (u32 R = 0; R < Size; ++R)
    EXPECT_TRUE(Left[R]) << R;
  EXPECT_EQ(Box.LargestPiece, 7u);
  std::string Expected;
  u64 ExpectedSections = 0;
  for (u32 R = 0; R < Size; ++R) {
    Expected += Payloads[R];
    ExpectedSections += R == Absent ? 0 : R + 1;
  }
  EXPECT_EQ(Sections, ExpectedSections);
  ASSERT_EQ(Merged.size(), sizeof(raw::FileHeader) + Expected.size());
  EXPECT_EQ(Merged.substr(sizeof(raw::FileHeader)), Expected);
  // The header byte for byte as `activetime merge` writes it.
  llvm::Expected<std::string> Header = activetime::profile::fileHeader(
      ExpectedSections, Expected.size(), /*Merged=*/true);
  ASSERT_TRUE(bool(Header));
  EXPECT_EQ(Merged.substr(0, sizeof(raw::FileHeader)), *Header);
  ASSERT_EQ(Missing.size(), sizeof(u32));
  u32 M;
  memcpy(&M, Missing.data(), sizeof(M));
  EXPECT_EQ(M, Absent);
}

// A receive that fails (here: the sender's pieces are not the size the
// receiver asks for) loses the sender's ranks, named missing; the tree goes
// on and nobody waits for ever.
TEST(MpiReduceTest, AFailedReceiveNamesTheSendersRanksMissing) {
  const u32 Size = 4;
  Mailboxes Box(Size);
  std::string Missing;
  std::vector<std::thread> Ranks;
  for (u32 R = 0; R < Size; ++R)
    Ranks.emplace_back([&, R] {
      atabi::MpiTransport T = Box.Transport(R);
      // Rank 2 sends in pieces of 5, its receiver (rank 0) asks for 7.
      Reduction Red(&T, R == 2 ? 5 : 7);
      OutBuffer Own = {nullptr, 0, 0};
      std::string Payload;
      FakeImage(R, &Own, &Payload);
      Red.Start(R, &Own);
      Red.RunTree(R, Size);
      if (R == 0)
        Missing.assign(Red.Missing.Data, Red.Missing.Size);
    });
  for (std::thread &T : Ranks)
    T.join();
  ASSERT_EQ(Missing.size(), 2 * sizeof(u32));
  u32 M[2];
  memcpy(M, Missing.data(), sizeof(M));
  EXPECT_EQ(M[0], 2u);
  EXPECT_EQ(M[1], 3u);
}

} // namespace

