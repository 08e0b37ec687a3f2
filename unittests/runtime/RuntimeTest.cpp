//===- RuntimeTest.cpp - ActiveTime runtime unit tests --------------------===//
//
// Drives the probe logic directly (ProbeEnterAt/ProbeExitAt inject ticks)
// with fake FuncDesc tables and frame addresses; no pass needed.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "activetime/raw_format.h"
#include "activetime_calltree.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_module.h"
#include "activetime_probes.h"
#include "activetime_thread.h"
#include "activetime_writer.h"


using namespace __activetime;
namespace atabi = activetime::abi;
namespace raw = activetime::raw;

namespace {

atabi::FuncDesc Funcs[8] = {
    {(const void *)0x1000, "A", "a.c", 1, 0}, {(const void *)0x1010, "B", "a.c", 2, 0},
    {(const void *)0x1020, "C", "a.c", 3, 0}, {(const void *)0x1030, "D", "a.c", 4, 0},
    {(const void *)0x1040, "E", "b.c", 5, 0}, {(const void *)0x1050, "F", "b.c", 6, 0},
    {(const void *)0x1060, "G", "b.c", 7, 1}, {(const void *)0x1070, "H", nullptr, 0, 0},
};
const atabi::FuncDesc *A = &Funcs[0], *B = &Funcs[1], *C = &Funcs[2],
                    *D = &Funcs[3];

atabi::ModuleDesc Module = {atabi::kAbiVersion, 8, Funcs, "fake.c", 0x1234, nullptr};

ThreadState *TS() { return at_tls.TS; }
Node *NodeOf(u32 I) { return at_tls.Tree->At(I); }
u32 ChildOf(u32 Parent, const atabi::FuncDesc *F) { return at_tls.Tree->Find(Parent, F); }

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ResetThreadsForTesting();
    ResetModulesForTesting();
  }
  void TearDown() override {
    ResetThreadsForTesting();
    ResetModulesForTesting();
  }
};

TEST(CallTreeTest, InsertLookupAcrossRehashAndChunks) {
  CallTree T;
  std::memset((void *)&T, 0, sizeof(T));
  T.Init();
  EXPECT_EQ(T.Size(), 1u); // root
  static atabi::FuncDesc Many[64];
  // 64 functions under each of ~100 parents: > kChunkNodes nodes, several
  // rehashes of the 1024-slot initial table.
  std::vector<u32> Idx;
  std::vector<std::pair<u32, u32>> Keys;
  u32 Parent = 0;
  for (int P = 0; P < 100; ++P) {
    for (int F = 0; F < 64; ++F) {
      u32 N = T.FindOrInsert(Parent, &Many[F]);
      Idx.push_back(N);
      Keys.push_back({Parent, (u32)F});
    }
    Parent = Idx[Idx.size() - 1 - (P % 64)];
  }
  EXPECT_EQ(T.Size(), 1u + 6400u);
  EXPECT_GT(T.Size(), CallTree::kChunkNodes * 6);
  EXPECT_GE(T.NumSlots(), 2u * 6400u);
  for (size_t I = 0; I < Idx.size(); ++I) {
    EXPECT_EQ(T.Find(Keys[I].first, &Many[Keys[I].second]), Idx[I]);
    Node *N = T.At(Idx[I]);
    EXPECT_EQ(N->Fn, &Many[Keys[I].second]);
    EXPECT_EQ(N->Parent, Keys[I].first);
    EXPECT_LT(N->Parent, Idx[I]); // parents precede children
    EXPECT_EQ(T.AtAcquire(Idx[I]), N);
  }
  EXPECT_EQ(T.Find(Idx.back(), &Many[0]), 0u); // absent
  EXPECT_EQ(T.FindOrInsert(Keys[5].first, &Many[Keys[5].second]), Idx[5]);
  EXPECT_EQ(T.Size(), 1u + 6400u);
}

TEST_F(RuntimeTest, SimpleNesting) {
  ProbeEnterAt(A, 1000, 100);
  ASSERT_NE(TS(), nullptr);
  ProbeEnterAt(B, 900, 110);
  ProbeExitAt(B, 900, 130);
  ProbeEnterAt(B, 900, 140);
  ProbeExitAt(B, 900, 145);
  ProbeExitAt(A, 1000, 200);
  EXPECT_EQ(at_tls.Depth, 1u);
  u32 NA = ChildOf(0, A), NB = ChildOf(NA, B);
  ASSERT_NE(NA, 0u);
  ASSERT_NE(NB, 0u);
  EXPECT_EQ(NodeOf(NA)->Calls, 1u);
  EXPECT_EQ(NodeOf(NA)->Incl, 100u);
  EXPECT_EQ(NodeOf(NA)->Excl, 75u);
  EXPECT_EQ(NodeOf(NB)->Calls, 2u);
  EXPECT_EQ(NodeOf(NB)->Incl, 25u);
  EXPECT_EQ(NodeOf(NB)->Excl, 25u);
  EXPECT_EQ(NodeOf(NB)->Min, 5u);
  EXPECT_EQ(NodeOf(NB)->Max, 20u);
  EXPECT_EQ(TS()->UnmatchedExits + TS()->UnwoundFrames + TS()->DroppedEvents, 0u);
}

TEST_F(RuntimeTest, ShadowStackGrowsBeyondInitialCapacity) {
  const u32 N = 100000;
  for (u32 I = 0; I < N; ++I)
    ProbeEnterAt(A, 0x10000000 - 16 * uptr(I), I);
  EXPECT_EQ(at_tls.Depth, N + 1);
  EXPECT_GE(at_tls.Capacity, N + 1);
  for (u32 I = N; I-- > 0;)
    ProbeExitAt(A, 0x10000000 - 16 * uptr(I), 2 * N - I);
  EXPECT_EQ(at_tls.Depth, 1u);
  // Recursion A->A->... : one node per depth, each called once.
  EXPECT_EQ(at_tls.Tree->Size(), N + 1);
  u32 Cur = 0;
  for (u32 I = 0; I < N; ++I) {
    u32 Next = ChildOf(Cur, A);
    ASSERT_NE(Next, 0u);
    Node *X = NodeOf(Next);
    EXPECT_EQ(X->Calls, 1u);
    EXPECT_EQ(X->Incl, u64(2 * N - 2 * I));
    EXPECT_EQ(X->Excl, I + 1 < N ? 2u : 2u);
    Cur = Next;
  }
  EXPECT_EQ(TS()->UnwoundFrames, 0u);
  EXPECT_EQ(TS()->UnmatchedExits, 0u);
}

TEST_F(RuntimeTest, LongjmpStyleExitClosesFramesAbove) {
  ProbeEnterAt(A, 1000, 0);
  ProbeEnterAt(B, 900, 10);
  ProbeEnterAt(C, 800, 20);
  ProbeExitAt(A, 1000, 100); // B and C were abandoned
  EXPECT_EQ(at_tls.Depth, 1u);
  EXPECT_EQ(TS()->UnwoundFrames, 2u);
  EXPECT_EQ(TS()->UnmatchedExits, 0u);
  u32 NA = ChildOf(0, A), NB = ChildOf(NA, B), NC = ChildOf(NB, C);
  EXPECT_EQ(NodeOf(NA)->Calls, 1u);
  EXPECT_EQ(NodeOf(NA)->Incl, 100u);
  EXPECT_EQ(NodeOf(NA)->Excl, 10u);
  EXPECT_EQ(NodeOf(NB)->Incl, 90u);
  EXPECT_EQ(NodeOf(NB)->Excl, 10u);
  EXPECT_EQ(NodeOf(NC)->Calls, 1u);
  EXPECT_EQ(NodeOf(NC)->Incl, 80u);
}

TEST_F(RuntimeTest, UnmatchedExitIsNoOp) {
  ProbeEnterAt(A, 1000, 0);
  ProbeExitAt(A, 1000, 10);
  ProbeExitAt(B, 900, 20); // nothing open
  EXPECT_EQ(TS()->UnmatchedExits, 1u);
  ProbeEnterAt(A, 1000, 30);
  ProbeExitAt(B, 900, 40);  // deeper than A, never entered
  ProbeExitAt(B, 2000, 45); // shallower than A, never entered
  EXPECT_EQ(TS()->UnmatchedExits, 3u);
  EXPECT_EQ(at_tls.Depth, 2u);
  ProbeExitAt(A, 1000, 50);
  u32 NA = ChildOf(0, A);
  EXPECT_EQ(NodeOf(NA)->Calls, 2u);
  EXPECT_EQ(NodeOf(NA)->Incl, 30u);
  EXPECT_EQ(TS()->UnwoundFrames, 0u);
}

TEST_F(RuntimeTest, EntryPopsStaleFrames) {
  ProbeEnterAt(A, 1000, 0);
  ProbeEnterAt(B, 900, 10);
  ProbeEnterAt(C, 800, 20);
  // longjmp back into A; A now calls D whose frame is where B's was.
  ProbeEnterAt(D, 900, 50);
  EXPECT_EQ(at_tls.Depth, 3u);
  EXPECT_EQ(TS()->UnwoundFrames, 2u);
  u32 NA = ChildOf(0, A), NB = ChildOf(NA, B), NC = ChildOf(NB, C);
  EXPECT_EQ(NodeOf(NB)->Incl, 40u);
  EXPECT_EQ(NodeOf(NC)->Incl, 30u);
  ProbeExitAt(D, 900, 60);
  ProbeExitAt(A, 1000, 70);
  u32 ND = ChildOf(NA, D);
  ASSERT_NE(ND, 0u);
  EXPECT_EQ(NodeOf(ND)->Incl, 10u);
  EXPECT_EQ(NodeOf(NA)->Incl, 70u);
  EXPECT_EQ(NodeOf(NA)->Excl, 20u);
  // A frame on a far-away stack (sigaltstack) is not treated as stale.
  ProbeEnterAt(A, 1000, 100);
  ProbeEnterAt(B, 1000 + (uptr(1) << 32), 110);
  EXPECT_EQ(at_tls.Depth, 3u);
  EXPECT_EQ(TS()->UnwoundFrames, 2u);
}

TEST_F(RuntimeTest, ReentrantProbeWhileBusyIsDropped) {
  ProbeEnterAt(A, 1000, 0);
  at_tls.Busy = 1; // as if a signal interrupted a probe
  ProbeEnterAt(B, 900, 5);
  ProbeExitAt(B, 900, 6);
  at_tls.Busy = 0;
  EXPECT_EQ(TS()->DroppedEvents, 2u);
  EXPECT_EQ(at_tls.Depth, 2u);
  // The exit of a call whose entry was dropped finds no match: a no-op.
  ProbeExitAt(B, 900, 7);
  EXPECT_EQ(TS()->UnmatchedExits, 1u);
  ProbeExitAt(A, 1000, 10);
  EXPECT_EQ(at_tls.Depth, 1u);
  EXPECT_EQ(NodeOf(ChildOf(0, A))->Incl, 10u);
  EXPECT_EQ(ChildOf(ChildOf(0, A), B), 0u);
}

TEST(OutputNameTest, PatternExpansion) {
  char Buf[256];
  ASSERT_TRUE(ExpandOutputPattern("activetime.%e.%p.raw", "prog", 123, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "activetime.prog.123.raw");
  ASSERT_TRUE(ExpandOutputPattern("x%%p%p%q%", "e", 7, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "x%p7%q%");
  EXPECT_FALSE(ExpandOutputPattern("%e%e%e", "abcdefgh", 1, Buf, 10));
  ASSERT_TRUE(BuildOutputPath("", "prog", 42, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "activetime.prog.42.raw");
  ASSERT_TRUE(BuildOutputPath("out/dir/", "prog", 42, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "out/dir/activetime.prog.42.raw");
  ASSERT_TRUE(BuildOutputPath("/tmp/p-%p.raw", "prog", 42, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "/tmp/p-42.raw");
}

TEST(FlagsTest, ParseAndUnknown) {
  Flags F;
  F.SetDefaults();
  EXPECT_EQ(F.initial_stack_frames, 256);
  EXPECT_TRUE(F.write_profile);
  char Unknown[64];
  ASSERT_TRUE(ParseFlags(&F, "verbosity=2:output='/tmp/x y/':write_profile=0", Unknown,
                         sizeof(Unknown)));
  EXPECT_EQ(F.verbosity, 2);
  EXPECT_STREQ(F.output, "/tmp/x y/");
  EXPECT_FALSE(F.write_profile);
  EXPECT_FALSE(ParseFlags(&F, "verbosity=1,bogus_flag=3", Unknown, sizeof(Unknown)));
  EXPECT_STREQ(Unknown, "bogus_flag");
}

TEST(ModuleDeathTest, AbiMismatchDies) {
  static atabi::ModuleDesc Bad = {atabi::kAbiVersion + 1, 0, nullptr, "bad.c", 0, nullptr};
  EXPECT_DEATH(__activetime_register_module(&Bad),
               "ActiveTime: module bad.c was instrumented for ABI v2 but this "
               "runtime implements v1");
}

// ---- writer ---------------------------------------------------------------

struct Parsed {
  raw::FileHeader H;
  raw::ProcessRecord P;
  std::vector<raw::ModuleRecord> Mods;
  std::vector<std::vector<std::string>> ModFuncNames;
  std::vector<raw::ThreadRecord> Threads;
  std::vector<std::vector<raw::NodeRecord>> Nodes;
};

::testing::AssertionResult Parse(const char *Data, size_t Size, Parsed &Out) {
  if (Size < sizeof(raw::FileHeader))
    return ::testing::AssertionFailure() << "short";
  std::memcpy(&Out.H, Data, sizeof(Out.H));
  if (std::memcmp(Out.H.Magic, raw::kMagic, 8) != 0)
    return ::testing::AssertionFailure() << "magic";
  if (Out.H.FileSize != Size || Out.H.HeaderSize != sizeof(raw::FileHeader))
    return ::testing::AssertionFailure() << "sizes";
  size_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < Out.H.NumSections; ++S) {
    raw::SectionHeader SH;
    if (Off + sizeof(SH) > Size || Off % 8)
      return ::testing::AssertionFailure() << "section header at " << Off;
    std::memcpy(&SH, Data + Off, sizeof(SH));
    Off += sizeof(SH);
    if (SH.Size % 8 || Off + SH.Size > Size || SH.Reserved)
      return ::testing::AssertionFailure() << "section size";
    const char *P = Data + Off;
    if (SH.Kind == raw::SK_Process) {
      if (S != 0)
        return ::testing::AssertionFailure() << "process not first";
      std::memcpy(&Out.P, P, sizeof(Out.P));
      size_t Need = sizeof(Out.P) + Out.P.ExeLen + Out.P.BuildIdLen;
      if ((Need + 7) / 8 * 8 != SH.Size)
        return ::testing::AssertionFailure() << "process size";
    } else if (SH.Kind == raw::SK_Module) {
      raw::ModuleRecord MR;
      std::memcpy(&MR, P, sizeof(MR));
      Out.Mods.push_back(MR);
      size_t Q = sizeof(MR) + MR.NameLen + MR.PathLen;
      std::vector<std::string> Names;
      for (uint32_t F = 0; F < MR.NumFuncs; ++F) {
        raw::FuncRecord FR;
        std::memcpy(&FR, P + Q, sizeof(FR));
        Q += sizeof(FR);
        Names.emplace_back(P + Q, FR.NameLen);
        Q += FR.NameLen + FR.FileLen;
      }
      Out.ModFuncNames.push_back(Names);
      if ((Q + 7) / 8 * 8 != SH.Size)
        return ::testing::AssertionFailure() << "module size";
    } else if (SH.Kind == raw::SK_Thread) {
      raw::ThreadRecord TR;
      std::memcpy(&TR, P, sizeof(TR));
      Out.Threads.push_back(TR);
      if (sizeof(TR) + TR.NumNodes * sizeof(raw::NodeRecord) != SH.Size)
        return ::testing::AssertionFailure() << "thread size";
      std::vector<raw::NodeRecord> Ns(TR.NumNodes);
      if (TR.NumNodes)
        std::memcpy(Ns.data(), P + sizeof(TR), TR.NumNodes * sizeof(raw::NodeRecord));
      for (uint32_t I = 0; I < TR.NumNodes; ++I)
        if (Ns[I].Parent != raw::kNoParent && Ns[I].Parent >= I)
          return ::testing::AssertionFailure() << "parent order";
      Out.Nodes.push_back(Ns);
    } else {
      return ::testing::AssertionFailure() << "bad kind " << SH.Kind;
    }
    Off += SH.Size;
  }
  if (Off != Size)
    return ::testing::AssertionFailure() << "trailing bytes";
  if (Out.Mods.size() != Out.P.NumModules || Out.Threads.size() != Out.P.NumThreads)
    return ::testing::AssertionFailure() << "counts";
  return ::testing::AssertionSuccess();
}

TEST_F(RuntimeTest, WriterLayoutAndCounts) {
  __activetime_register_module(&Module);
  // Current thread: A{B, B}, then A still open with C open inside.
  ProbeEnterAt(A, 1000, 100);
  ProbeEnterAt(B, 900, 110);
  ProbeExitAt(B, 900, 120);
  ProbeEnterAt(B, 900, 130);
  ProbeExitAt(B, 900, 160);
  ProbeEnterAt(C, 900, 170);
  // A finished thread that left a frame open (counted as unwound at exit).
  std::thread Th([] {
    ProbeEnterAt(D, 5000, 1);
    ProbeEnterAt(A, 4000, 2);
    ProbeExitAt(A, 4000, 3);
  });
  Th.join();

  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000000, 200);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  EXPECT_EQ(P.H.Version, raw::kVersion);
  EXPECT_EQ(P.H.NumSections, 1u + 1u + 2u);
  EXPECT_EQ(P.P.TickRate, 1000000u);
  EXPECT_EQ(P.P.EndTick, 200u);
  EXPECT_EQ(P.P.Pid, (uint32_t)getpid());
  EXPECT_GT(P.P.ExeLen, 0u);
  ASSERT_EQ(P.Mods.size(), 1u);
  EXPECT_EQ(P.Mods[0].NumFuncs, 8u);
  EXPECT_EQ(P.Mods[0].Hash, 0x1234u);
  EXPECT_EQ(P.ModFuncNames[0][2], "C");
  ASSERT_EQ(P.Threads.size(), 2u);

  // Threads in creation order: this one first (live).
  const raw::ThreadRecord &T0 = P.Threads[0];
  EXPECT_EQ(T0.Flags, (uint32_t)raw::TF_Running);
  EXPECT_EQ(T0.OpenFrames, 2u);
  EXPECT_EQ(T0.EndTick, 200u);
  EXPECT_EQ(T0.StartTick, 100u);
  ASSERT_EQ(T0.NumNodes, 3u); // A, A>B, A>C
  const auto &N0 = P.Nodes[0];
  EXPECT_EQ(N0[0].Parent, raw::kNoParent);
  EXPECT_EQ(N0[0].Func, 0u);
  EXPECT_EQ(N0[0].Calls, 1u);
  EXPECT_EQ(N0[0].InclTicks, 100u);    // open: up to EndTick
  EXPECT_EQ(N0[0].ExclTicks, 100u - 40u - 30u);
  EXPECT_EQ(N0[1].Parent, 0u);
  EXPECT_EQ(N0[1].Func, 1u);
  EXPECT_EQ(N0[1].Calls, 2u);
  EXPECT_EQ(N0[1].InclTicks, 40u);
  EXPECT_EQ(N0[1].MinTicks, 10u);
  EXPECT_EQ(N0[1].MaxTicks, 30u);
  EXPECT_EQ(N0[2].Func, 2u);
  EXPECT_EQ(N0[2].Calls, 1u);
  EXPECT_EQ(N0[2].InclTicks, 30u);
  // The in-memory statistics were not changed by the write.
  EXPECT_EQ(NodeOf(ChildOf(0, A))->Calls, 0u);

  const raw::ThreadRecord &T1 = P.Threads[1];
  EXPECT_EQ(T1.Flags, 0u);
  EXPECT_EQ(T1.OpenFrames, 0u);
  EXPECT_EQ(T1.UnwoundFrames, 1u);
  ASSERT_EQ(T1.NumNodes, 2u);
  EXPECT_EQ(P.Nodes[1][0].Func, 3u);
  EXPECT_EQ(P.Nodes[1][0].Calls, 1u);
  EXPECT_EQ(P.Nodes[1][1].Func, 0u);
  EXPECT_EQ(P.Nodes[1][1].Parent, 0u);
  Buf.Release();

  // Unregistering copies the names; the module is then flagged unloaded.
  __activetime_unregister_module(&Module);
  SerializeProfile(&Buf, 1000000, 300);
  Parsed P2;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P2));
  EXPECT_EQ(P2.Mods[0].Flags, (uint32_t)raw::MF_Unloaded);
  EXPECT_EQ(P2.ModFuncNames[0][7], "H");
  EXPECT_EQ(P2.Nodes[0].size(), 3u);
  Buf.Release();
}

TEST_F(RuntimeTest, NodesOfUnknownFunctionsAreDropped) {
  __activetime_register_module(&Module);
  static atabi::FuncDesc Stray = {nullptr, "stray", nullptr, 0, 0};
  ProbeEnterAt(&Stray, 1000, 0);
  ProbeEnterAt(A, 900, 1);
  ProbeExitAt(A, 900, 2);
  ProbeExitAt(&Stray, 1000, 3);
  ProbeEnterAt(B, 1000, 4);
  ProbeExitAt(B, 1000, 5);
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 10);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  ASSERT_EQ(P.Threads.size(), 1u);
  ASSERT_EQ(P.Threads[0].NumNodes, 1u);
  EXPECT_EQ(P.Nodes[0][0].Func, 1u);
  EXPECT_EQ(P.Threads[0].DroppedEvents, 2u);
  Buf.Release();
}

} // namespace

int main(int argc, char **argv) {
  // Never write a profile from the test binary itself.
  setenv("ACTIVETIME_OPTIONS", "write_profile=0", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
