//===- RuntimeTest.cpp - ActiveTime runtime unit tests --------------------===//
//
// Drives the probe logic directly (ProbeEnterAt/ProbeExitAt inject ticks)
// with fake FuncDesc tables and frame addresses; no pass needed.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"

#include "gtest/gtest.h"

#include <algorithm>
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
#include "activetime_sampler.h"
#include "activetime_strides.h"
#include "activetime_switch.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_worker.h"
#include "activetime_output.h"
#include "activetime_perf_ring.h"
#include "activetime_writer.h"
#include "activetime_checksum.h"
#include "activetime_collector.h"
#include "../ChecksumVectors.h"

#include <linux/perf_event.h>
#include <time.h>
#include <signal.h>
#include <sys/resource.h>


using namespace __activetime;
using namespace attest;
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

atabi::ModuleDesc Module = {atabi::kAbiVersion, 8, Funcs, "fake.c", 0x1234,
                            nullptr, 0, 0, nullptr};

ThreadState *TS() { return at_tls.TS; }

// Every collector's file registers it: a file left out of the link, or two
// with one Order, would change which hooks run and the sections' order.
TEST(CollectorTest, CollectorsRegisterThemselvesInOrder) {
  const Collector *Cs[kMaxCollectors];
  u32 N = CollectorsInOrder(Cs);
  std::vector<std::string> Names;
  for (u32 I = 0; I < N; ++I) {
    Names.push_back(Cs[I]->Name);
    if (I > 0)
      EXPECT_LT(Cs[I - 1]->Order, Cs[I]->Order) << Cs[I]->Name;
  }
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "process", "modules", "threads", "counts", "trace",
                       "switch", "strides", "block-counts", "ompt", "mpi",
                       "sampler",
                       "codesamples", "probe-table"}));
}

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
      u32 N = T.FindOrInsert(Parent, &Many[F], 0);
      Idx.push_back(N);
      Keys.push_back({Parent, (u32)F});
    }
    Parent = Idx[Idx.size() - 1 - (P % 64)];
  }
  EXPECT_EQ(T.Size(), 1u + 6400u);
  EXPECT_GT(T.Size(), CallTree::kChunkNodes * 6);
  EXPECT_GE(T.NumSlots(), 2u * 6400u);
  for (size_t I = 0; I < Idx.size(); ++I) {
    EXPECT_EQ(T.Find(Keys[I].first, &Many[Keys[I].second], 0), Idx[I]);
    Node *N = T.At(Idx[I]);
    EXPECT_EQ(N->Fn, &Many[Keys[I].second]);
    EXPECT_EQ(N->Parent, Keys[I].first);
    EXPECT_LT(N->Parent, Idx[I]); // parents precede children
    EXPECT_EQ(T.AtAcquire(Idx[I]), N);
  }
  EXPECT_EQ(T.Find(Idx.back(), &Many[0], 0), 0u); // absent
  EXPECT_EQ(T.FindOrInsert(Keys[5].first, &Many[Keys[5].second], 0), Idx[5]);
  EXPECT_EQ(T.Size(), 1u + 6400u);
}

// A function called from two call instructions of one caller gets a node
// per call site (siblings), each with its own calls and return address.
TEST_F(RuntimeTest, OneNodePerCallSite) {
  ProbeEnterAt(A, 1000, 100);
  for (int I = 0; I < 3; ++I) {
    ProbeEnterAt(B, 900, 110 + I * 10, /*Site=*/0x4010);
    ProbeExitAt(B, 900, 115 + I * 10);
  }
  ProbeEnterAt(B, 900, 150, /*Site=*/0x4020);
  ProbeExitAt(B, 900, 152);
  ProbeExitAt(A, 1000, 160);
  u32 NA = ChildOf(0, A);
  u32 N1 = at_tls.Tree->Find(NA, B, 0x4010), N2 = at_tls.Tree->Find(NA, B, 0x4020);
  ASSERT_NE(N1, 0u);
  ASSERT_NE(N2, 0u);
  EXPECT_NE(N1, N2);
  EXPECT_EQ(NodeOf(N1)->Calls, 3u);
  EXPECT_EQ(NodeOf(N1)->Site, uptr(0x4010));
  EXPECT_EQ(NodeOf(N1)->Incl, 15u);
  EXPECT_EQ(NodeOf(N2)->Calls, 1u);
  EXPECT_EQ(NodeOf(N2)->Site, uptr(0x4020));
  EXPECT_EQ(NodeOf(NA)->Excl, 60u - 15u - 2u);
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
  at_tls.Seq = 1; // as if a signal interrupted a probe
  ProbeEnterAt(B, 900, 5);
  ProbeExitAt(B, 900, 6);
  at_tls.Seq = 0;
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

// The sampler's seqlock: every probe moves Seq by 2 (odd inside), and a
// snapshot taken between probes is the top frame's node.
TEST_F(RuntimeTest, SampleSnapshotSeesTopFrameAndSequence) {
  ProbeEnterAt(A, 1000, 0);
  u32 S0 = at_tls.Seq;
  EXPECT_EQ(S0 % 2, 0u);
  ProbeEnterAt(B, 900, 5);
  EXPECT_EQ(at_tls.Seq, S0 + 2);
  u32 Node = 0, Depth = 0;
  ASSERT_TRUE(SnapshotForTesting(&at_tls, &Node, &Depth));
  EXPECT_EQ(Node, ChildOf(ChildOf(0, A), B));
  EXPECT_EQ(Depth, 2u);
  at_tls.Seq++; // a probe is mutating the stack
  EXPECT_FALSE(SnapshotForTesting(&at_tls, &Node, &Depth));
  at_tls.Seq++;
  ProbeExitAt(B, 900, 6);
  ProbeExitAt(A, 1000, 7);
  ASSERT_TRUE(SnapshotForTesting(&at_tls, &Node, &Depth));
  EXPECT_EQ(Node, 0u); // outside any instrumented function
  EXPECT_EQ(Depth, 0u);
}

TEST(SamplerTest, LogUnit) {
  EXPECT_EQ(LogUnit(1.0), 0.0);
  EXPECT_NEAR(LogUnit(0.5), -0.69314718055994531, 1e-13);
  EXPECT_NEAR(LogUnit(0.1), -2.3025850929940457, 1e-13);
  EXPECT_NEAR(LogUnit(1e-300), -690.77552789821368, 1e-9);
  EXPECT_NEAR(LogUnit(0.999999), -1.0000005e-6, 1e-15);
}

// Exponential intervals: mean and the memoryless tail P(X > m) = 1/e.
TEST(SamplerTest, ExponentialIntervals) {
  u64 State = 0x1234567;
  const int N = 200000;
  const u64 Mean = 1000000;
  double Sum = 0;
  int Above = 0;
  for (int I = 0; I < N; ++I) {
    u64 V = NextExponential(&State, Mean);
    Sum += double(V);
    Above += V > Mean;
  }
  EXPECT_NEAR(Sum / N / Mean, 1.0, 0.01);
  EXPECT_NEAR(double(Above) / N, 0.36787944, 0.005);
}

// The profile's checksums: the reference xxHash compiled into the runtime
// gives the reference values, which the tool's llvm::xxh3_64bits is held to
// as well (unittests/tools/ChecksumTest.cpp).
TEST(ChecksumTest, ReferenceXxh3Values) {
  for (const activetime::testutil::ChecksumVector &V :
       activetime::testutil::kChecksumVectors) {
    std::string In = activetime::testutil::checksumInput(V.Length);
    EXPECT_EQ(__activetime::Checksum64(In.data(), In.size()), V.Xxh3)
        << "length " << V.Length;
  }
  // Unaligned input: the same bytes at an odd address hash the same.
  ASSERT_EQ(activetime::testutil::kChecksumVectors[12].Length, 1024u);
  std::string In = " " + activetime::testutil::checksumInput(1024);
  EXPECT_EQ(__activetime::Checksum64(In.data() + 1, 1024),
            activetime::testutil::kChecksumVectors[12].Xxh3);
}

TEST(OutputNameTest, PatternExpansion) {
  char Buf[256];
  ASSERT_TRUE(ExpandOutputPattern("activetime.%e.%p.raw", "prog", 123, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "activetime.prog.123.raw");
  ASSERT_TRUE(ExpandOutputPattern("x%%p%p%q%", "e", 7, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "x%p7%q%");
  EXPECT_FALSE(ExpandOutputPattern("%e%e%e", "abcdefgh", 1, Buf, 10));
  ASSERT_TRUE(BuildOutputPath("", "prog", 42, false, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "activetime.prog.42.raw");
  ASSERT_TRUE(BuildOutputPath("out/dir/", "prog", 42, false, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "out/dir/activetime.prog.42.raw");
  ASSERT_TRUE(BuildOutputPath("/tmp/p-%p.raw", "prog", 42, false, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "/tmp/p-42.raw");
}

// %r: the MPI rank the caller resolved (after MPI_Init, or the launcher's),
// else kNoRankText; a forked child's inserted pid keeps it.
TEST(OutputNameTest, RankExpansion) {
  char Buf[256];
  ASSERT_TRUE(ExpandOutputPattern("p.%r.%p.raw", "e", 7, Buf, sizeof(Buf),
                                  nullptr, "3"));
  EXPECT_STREQ(Buf, "p.3.7.raw");
  ASSERT_TRUE(ExpandOutputPattern("p.%r.raw", "e", 7, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "p.-.raw");
  ASSERT_TRUE(ExpandOutputPattern("%%r%r", "e", 7, Buf, sizeof(Buf), nullptr,
                                  "12"));
  EXPECT_STREQ(Buf, "%r12");
  EXPECT_FALSE(ExpandOutputPattern("%r%r", "e", 7, Buf, 4, nullptr, "12"));
  ASSERT_TRUE(BuildOutputPath("d/r%r.raw", "prog", 42, true, Buf, sizeof(Buf),
                              "5"));
  EXPECT_STREQ(Buf, "d/r5.42.raw");
}

// A fork would overwrite the parent's file: the child's name gets its pid
// before the extension, unless the pattern already has one.
TEST(OutputNameTest, ForkedChildGetsPid) {
  char Buf[256];
  ASSERT_TRUE(BuildOutputPath("p.raw", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "p.42.raw");
  ASSERT_TRUE(BuildOutputPath("d.x/p", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "d.x/p.42");
  ASSERT_TRUE(BuildOutputPath("d/.hidden", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "d/.hidden.42");
  ASSERT_TRUE(BuildOutputPath("a.b.raw", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "a.b.42.raw");
  ASSERT_TRUE(BuildOutputPath("%%p.raw", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "%p.42.raw");
  ASSERT_TRUE(BuildOutputPath("q-%p.raw", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "q-42.raw");
  ASSERT_TRUE(BuildOutputPath("", "prog", 42, true, Buf, sizeof(Buf)));
  EXPECT_STREQ(Buf, "activetime.prog.42.raw");
}

TEST(FlagsTest, ParseAndUnknown) {
  Flags F;
  F.SetDefaults();
  EXPECT_EQ(F.initial_stack_frames, 256);
  EXPECT_TRUE(F.write_profile);
  EXPECT_EQ(F.mode, RunMode::Profile);
  EXPECT_EQ(F.switch_source, SwitchSourceFlag::Auto);
  FlagError Err;
  ASSERT_TRUE(ParseFlags(&F, "verbosity=2:output='/tmp/x y/':write_profile=0",
                         &Err));
  EXPECT_EQ(F.verbosity, 2);
  EXPECT_STREQ(F.output, "/tmp/x y/");
  EXPECT_FALSE(F.write_profile);
  EXPECT_FALSE(ParseFlags(&F, "verbosity=1,bogus_flag=3", &Err));
  EXPECT_EQ(Err.What, FlagError::UnknownFlag);
  EXPECT_STREQ(Err.Flag, "bogus_flag");
  char Msg[320];
  FormatFlagError(Err, Msg, sizeof(Msg));
  EXPECT_STREQ(Msg, "unknown flag 'bogus_flag' in ACTIVETIME_OPTIONS (run with "
                    "ACTIVETIME_OPTIONS=help=1 for the list of flags)");
}

// Enums are parsed once into their enumerators, in the order of the names
// activetime_flags.inc lists.
TEST(FlagsTest, Enums) {
  Flags F;
  F.SetDefaults();
  FlagError Err;
  ASSERT_TRUE(ParseFlags(&F, "mode=trace:switch_source=cpuclock", &Err));
  EXPECT_EQ(F.mode, RunMode::Trace);
  EXPECT_EQ(F.switch_source, SwitchSourceFlag::CpuClock);
  const std::pair<const char *, SwitchSourceFlag> Sources[] = {
      {"auto", SwitchSourceFlag::Auto},
      {"perf", SwitchSourceFlag::Perf},
      {"cpuclock", SwitchSourceFlag::CpuClock},
      {"none", SwitchSourceFlag::None}};
  for (const auto &[Name, Value] : Sources) {
    std::string Opt = std::string("switch_source=") + Name;
    ASSERT_TRUE(ParseFlags(&F, Opt.c_str(), &Err)) << Name;
    EXPECT_EQ(F.switch_source, Value) << Name;
  }
  ASSERT_TRUE(ParseFlags(&F, "mode=profile", &Err));
  EXPECT_EQ(F.mode, RunMode::Profile);
}

// Every bad value is one message naming the flag, the value and what the
// flag accepts; the first one is reported.
TEST(FlagsTest, BadValues) {
  struct {
    const char *Options;
    const char *Message;
  } Cases[] = {
      {"mode=fast", "invalid value 'fast' for flag mode in ACTIVETIME_OPTIONS: "
                    "expected profile or trace"},
      {"switch_source=bogus",
       "invalid value 'bogus' for flag switch_source in ACTIVETIME_OPTIONS: "
       "expected auto, perf, cpuclock or none"},
      {"initial_stack_frames=2",
       "invalid value '2' for flag initial_stack_frames in ACTIVETIME_OPTIONS: "
       "expected an integer from 4 to 16777216"},
      {"timing_ratio=-1", "invalid value '-1' for flag timing_ratio in "
                          "ACTIVETIME_OPTIONS: expected an integer >= 0"},
      {"sample_interval_us=0", "invalid value '0' for flag sample_interval_us "
                               "in ACTIVETIME_OPTIONS: expected an integer >= 1"},
      {"code_sample_us=99999999999",
       "invalid value '99999999999' for flag code_sample_us in "
       "ACTIVETIME_OPTIONS: expected an integer >= 0"},
      {"stride_inspect=12x", "invalid value '12x' for flag stride_inspect in "
                             "ACTIVETIME_OPTIONS: expected an integer from 1 "
                             "to 1073741824"},
      {"switch_buffer_pages=12",
       "invalid value '12' for flag switch_buffer_pages in ACTIVETIME_OPTIONS: "
       "expected a power of two from 1 to 1048576"},
      {"sample=maybe", "invalid value 'maybe' for flag sample in "
                       "ACTIVETIME_OPTIONS: expected 0, 1, false, true, no or "
                       "yes"},
      {"verbosity=1:min_calibration_ms=-5:mode=x",
       "invalid value '-5' for flag min_calibration_ms in ACTIVETIME_OPTIONS: "
       "expected an integer from 0 to 10000"},
  };
  for (const auto &C : Cases) {
    Flags F;
    F.SetDefaults();
    FlagError Err;
    EXPECT_FALSE(ParseFlags(&F, C.Options, &Err)) << C.Options;
    EXPECT_EQ(Err.What, FlagError::BadValue) << C.Options;
    char Msg[320];
    FormatFlagError(Err, Msg, sizeof(Msg));
    EXPECT_STREQ(Msg, C.Message);
  }
  // The documented special values stay accepted.
  Flags F;
  F.SetDefaults();
  FlagError Err;
  EXPECT_TRUE(ParseFlags(&F,
                         "overhead_enter_ticks=-1:timing_ratio=0:stride_skip=0:"
                         "code_sample_us=0:code_sample_stack=0:"
                         "switch_buffer_pages=1:trace_buffer_events=0",
                         &Err));
}

TEST(ModuleDeathTest, AbiMismatchDies) {
  // A module built by the previous pass (ABI v6) against this runtime (v7):
  // the link-time check names the version too, this is the run-time one.
  static_assert(atabi::kAbiVersion == 7, "update the expected message");
  static atabi::ModuleDesc Bad = {atabi::kAbiVersion - 1, 0, nullptr, "bad.c",
                                  0, nullptr, 0, 0, nullptr};
  EXPECT_DEATH(__activetime_register_module(&Bad),
               "ActiveTime: module bad.c was instrumented for ABI v6 but this "
               "runtime implements v7");
}

// ---- writer ---------------------------------------------------------------

TEST_F(RuntimeTest, WriterLayoutAndCounts) {
  RegisterFresh(&Module);
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
  EXPECT_FALSE(P.P.Exe.empty());
  ASSERT_EQ(P.P.Modules.size(), 1u);
  EXPECT_EQ(FuncNames(P.P, 0).size(), 8u);
  EXPECT_EQ(P.P.Modules[0].Hash, 0x1234u);
  EXPECT_EQ(FuncNames(P.P, 0)[2], "C");
  ASSERT_EQ(P.P.Threads.size(), 2u);

  // Threads in creation order: this one first (live).
  const prof::Thread &T0 = P.P.Threads[0];
  EXPECT_EQ(T0.Flags, uint32_t(raw::TF_Running | raw::TF_Latency));
  EXPECT_EQ(T0.OpenFrames, 2u);
  EXPECT_EQ(T0.EndTick, 200u);
  EXPECT_EQ(T0.StartTick, 100u);
  ASSERT_EQ(T0.Nodes.size(), 3u); // A, A>B, A>C
  const auto &N0 = T0.Nodes;
  EXPECT_EQ(N0[0].Parent, raw::kNoParent);
  EXPECT_EQ(N0[0].Func, 0u);
  EXPECT_EQ(N0[0].Calls, 1u);
  EXPECT_EQ(N0[0].Incl, 100u);    // open: up to EndTick
  EXPECT_EQ(N0[0].Excl, 100u - 40u - 30u);
  EXPECT_EQ(N0[1].Parent, 0u);
  EXPECT_EQ(N0[1].Func, 1u);
  EXPECT_EQ(N0[1].Calls, 2u);
  EXPECT_EQ(N0[1].Incl, 40u);
  EXPECT_EQ(N0[1].Min, 10u);
  EXPECT_EQ(N0[1].Max, 30u);
  EXPECT_EQ(N0[2].Func, 2u);
  EXPECT_EQ(N0[2].Calls, 1u);
  EXPECT_EQ(N0[2].Incl, 30u);
  // Latency histograms (v9): A>B's two calls, 10 and 30 active ticks, one
  // each in their buckets; the open frames A and C one call each, added by
  // the writer (the reader checked that every node's counts sum to its
  // calls).
  {
    std::vector<std::pair<uint32_t, uint32_t>> B;
    for (const prof::LatencyCount &L : N0[1].Latency)
      B.push_back({L.Bucket, uint32_t(L.Count)});
    using activetime::latency::bucketOf;
    std::vector<std::pair<uint32_t, uint32_t>> Want = {{bucketOf(10), 1},
                                                       {bucketOf(30), 1}};
    EXPECT_EQ(B, Want);
    EXPECT_EQ(NumLatency(T0), 4u);
  }
  // The in-memory statistics were not changed by the write.
  EXPECT_EQ(NodeOf(ChildOf(0, A))->Calls, 0u);

  const prof::Thread &T1 = P.P.Threads[1];
  EXPECT_EQ(T1.Flags, uint32_t(raw::TF_Latency));
  EXPECT_EQ(T1.OpenFrames, 0u);
  EXPECT_EQ(T1.UnwoundFrames, 1u);
  ASSERT_EQ(T1.Nodes.size(), 2u);
  EXPECT_EQ(T1.Nodes[0].Func, 3u);
  EXPECT_EQ(T1.Nodes[0].Calls, 1u);
  EXPECT_EQ(T1.Nodes[1].Func, 0u);
  EXPECT_EQ(T1.Nodes[1].Parent, 0u);
  Buf.Release();

  // Unregistering copies the names; the module is then flagged unloaded.
  __activetime_unregister_module(&Module);
  SerializeProfile(&Buf, 1000000, 300);
  Parsed P2;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P2));
  EXPECT_EQ(P2.P.Modules[0].Flags, (uint32_t)raw::MF_Unloaded);
  EXPECT_EQ(FuncNames(P2.P, 0)[7], "H");
  EXPECT_EQ(P2.P.Threads[0].Nodes.size(), 3u);
  Buf.Release();
}

// A profile streamed into a file (its pages dropped as they are written,
// patched and hashed after they were dropped, the latency records through
// the side file) is byte for byte the one built in memory. Deep enough for
// many drop steps: 100000 nested calls, each a call path of its own.
TEST_F(RuntimeTest, StreamedImageEqualsTheMemoryImage) {
  RegisterFresh(&Module);
  const int Depth = 100000;
  u64 Tick = 100;
  // Each call's frame below its caller's, as on a real stack.
  for (int I = 0; I < Depth; ++I)
    ProbeEnterAt(I % 2 ? A : B, (uptr(1) << 30) - uptr(I) * 64, Tick++);
  for (int I = Depth; I-- > 0;)
    ProbeExitAt(I % 2 ? A : B, (uptr(1) << 30) - uptr(I) * 64, Tick++);

  OutBuffer Mem = {nullptr, 0, 0};
  SerializeProfile(&Mem, 1000000, Tick);
  ASSERT_GT(Mem.Size, 4 * OutBuffer::kTrimBytes);

  FILE *Main = tmpfile(), *Side = tmpfile();
  ASSERT_TRUE(Main && Side);
  OutBuffer File = {nullptr, 0, 0};
  File.AttachFile(fileno(Main));
  File.SideFd = fileno(Side);
  SerializeProfile(&File, 1000000, Tick);
  ASSERT_EQ(File.FileError, 0) << "the file could not grow";
  ASSERT_EQ(File.Fd, fileno(Main)) << "the image fell back to memory";
  uptr Size = File.Size;
  File.Release();
  ASSERT_EQ(Size, Mem.Size);
  std::vector<char> Bytes(Size);
  ASSERT_EQ(pread(fileno(Main), Bytes.data(), Size, 0), (ssize_t)Size);
  // Not byte for byte: the live thread's CPU time is read again by each
  // serialization. Every node, with its histogram, and every count.
  Parsed FromFile, FromMem;
  ASSERT_TRUE(Parse(Bytes.data(), Size, FromFile));
  ASSERT_TRUE(Parse(Mem.Data, Mem.Size, FromMem));
  ASSERT_EQ(FromFile.P.Threads.size(), FromMem.P.Threads.size());
  const auto &NF = FromFile.P.Threads[0].Nodes, &NM = FromMem.P.Threads[0].Nodes;
  ASSERT_EQ(NF.size(), (size_t)Depth);
  ASSERT_EQ(NF.size(), NM.size());
  size_t Same = 0, WithLatency = 0;
  for (size_t I = 0; I < NF.size(); ++I) {
    Same += NF[I].Parent == NM[I].Parent && NF[I].Func == NM[I].Func &&
            NF[I].Calls == NM[I].Calls && NF[I].Incl == NM[I].Incl &&
            NF[I].Excl == NM[I].Excl && NF[I].Overhead == NM[I].Overhead &&
            NF[I].Latency.size() == NM[I].Latency.size() &&
            (NF[I].Latency.empty() ||
             (NF[I].Latency[0].Bucket == NM[I].Latency[0].Bucket &&
              NF[I].Latency[0].Count == NM[I].Latency[0].Count));
    WithLatency += !NF[I].Latency.empty();
  }
  EXPECT_EQ(Same, NF.size());
  EXPECT_EQ(WithLatency, NF.size());
  fclose(Main);
  fclose(Side);
  Mem.Release();
}

// A file that stops growing (here past a 17 MiB file-size limit, EFBIG;
// a full disk is ENOSPC) turns the streamed image, 16 MiB of it already in
// the file, into a memory one with everything written so far: the writer
// then writes it the old way, which names the error or finds the fallback
// place.
TEST_F(RuntimeTest, StreamedImageFallsBackToMemoryWhenTheFileCannotGrow) {
  RegisterFresh(&Module);
  const int Depth = 200000;
  u64 Tick = 100;
  for (int I = 0; I < Depth; ++I)
    ProbeEnterAt(I % 2 ? A : B, (uptr(1) << 30) - uptr(I) * 64, Tick++);
  for (int I = Depth; I-- > 0;)
    ProbeExitAt(I % 2 ? A : B, (uptr(1) << 30) - uptr(I) * 64, Tick++);

  FILE *Main = tmpfile();
  ASSERT_TRUE(Main);
  const rlim_t Limit = rlim_t(17) << 20;
  struct rlimit Old, Small = {Limit, Limit};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &Old), 0);
  Small.rlim_max = Old.rlim_max;
  signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &Small), 0);
  OutBuffer File = {nullptr, 0, 0};
  File.AttachFile(fileno(Main));
  SerializeProfile(&File, 1000000, Tick);
  setrlimit(RLIMIT_FSIZE, &Old);
  signal(SIGXFSZ, SIG_DFL);
  EXPECT_EQ(File.FileError, EFBIG);
  EXPECT_EQ(File.Fd, -1);
  ASSERT_GT(File.Size, uptr(Limit));
  Parsed P;
  ASSERT_TRUE(Parse(File.Data, File.Size, P));
  EXPECT_EQ(P.P.Threads[0].Nodes.size(), (size_t)Depth);
  File.Release();
  fclose(Main);
}

TEST_F(RuntimeTest, NodesOfUnknownFunctionsAreDropped) {
  RegisterFresh(&Module);
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
  ASSERT_EQ(P.P.Threads.size(), 1u);
  ASSERT_EQ(P.P.Threads[0].Nodes.size(), 1u);
  EXPECT_EQ(P.P.Threads[0].Nodes[0].Func, 1u);
  EXPECT_EQ(P.P.Threads[0].DroppedEvents, 2u);
  Buf.Release();
}

// ---- active time ----------------------------------------------------------

const atabi::FuncDesc *F = &Funcs[5], *G = &Funcs[6];

uint64_t ActiveOf(const Node *N) {
  return N->Incl - (N->Ovh256 + 128) / 256 - N->Off;
}

// The worked example of the active-time computation (elapsed minus probe
// overhead minus switched-out time): F calls G, a voluntary switch inside F
// before G, a preemption inside G.
TEST_F(RuntimeTest, ActiveTimeWorkedExample) {
  SetOverheadForTesting(3 * 256, 2 * 256);
  FakeRing R(4096);
  InstallSwitchRingForTesting(R.Page);
  ProbeEnterAt(F, 1000, 900);
  R.Interval(1000, 1190);            // voluntary
  R.Publish();
  ProbeEnterAt(G, 900, 1200);
  R.Interval(1225, 1411, /*Preempt=*/true);
  R.Publish();
  ProbeExitAt(G, 900, 1500);
  ProbeExitAt(F, 1000, 1550);
  u32 NF = ChildOf(0, F), NG = ChildOf(NF, G);
  ASSERT_NE(NG, 0u);
  const Node *XF = NodeOf(NF), *XG = NodeOf(NG);
  EXPECT_EQ(XF->Incl, 650u);
  EXPECT_EQ(XF->Ovh256, 8u * 256);   // 3 + 3 + 2
  EXPECT_EQ(XF->Off, 376u);          // 190 + 186
  EXPECT_EQ(ActiveOf(XF), 266u);
  EXPECT_EQ(XF->Min, 266u);
  EXPECT_EQ(XF->Max, 266u);
  EXPECT_EQ(XF->Vol, 1u);
  EXPECT_EQ(XF->Invol, 1u);
  EXPECT_EQ(XG->Incl, 300u);
  EXPECT_EQ(XG->Ovh256, 3u * 256);
  EXPECT_EQ(XG->Off, 186u);
  EXPECT_EQ(ActiveOf(XG), 111u);
  EXPECT_EQ(XG->Min, 111u);
  EXPECT_EQ(XG->Vol, 0u);
  EXPECT_EQ(XG->Invol, 1u);
  EXPECT_EQ(XF->Excl, 350u); // elapsed exclusive, as before
  EXPECT_EQ(R.Page->data_tail, R.Head);

  // The same figures in the raw file.
  RegisterFresh(&Module);
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 2000);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  ASSERT_EQ(P.P.Threads.size(), 1u);
  ASSERT_EQ(P.P.Threads[0].Nodes.size(), 2u);
  const prof::Node &RF = P.P.Threads[0].Nodes[0],
                   &RG = P.P.Threads[0].Nodes[1];
  EXPECT_EQ(RF.Incl, 650u);
  EXPECT_EQ(RF.Overhead, 8u);
  EXPECT_EQ(RF.OffCpu, 376u);
  EXPECT_EQ(RF.Incl - RF.Overhead - RF.OffCpu, 266u);
  EXPECT_EQ(RF.Min, 266u);
  EXPECT_EQ(RF.Max, 266u);
  EXPECT_EQ(RG.Overhead, 3u);
  EXPECT_EQ(RG.OffCpu, 186u);
  EXPECT_EQ(RG.Min, 111u);
  EXPECT_EQ(RG.Involuntary, 1u);
  EXPECT_EQ(P.P.Threads[0].SwitchSource, (uint32_t)raw::SS_Perf);
  EXPECT_EQ(P.P.Threads[0].OffCpuTicks, 376u);
  EXPECT_EQ(P.P.Threads[0].VoluntarySwitches, 1u);
  EXPECT_EQ(P.P.Threads[0].InvoluntarySwitches, 1u);
  EXPECT_EQ(P.P.Overhead.Enter256, 768u);
  EXPECT_EQ(P.P.Overhead.Exit256, 512u);
  EXPECT_EQ(P.P.Overhead.Source, (uint32_t)raw::OS_Option);
  Buf.Release();
  RemoveSwitchRingForTesting();
}

TEST_F(RuntimeTest, PendingIntervalGoesToTheFramesAfterTheProbe) {
  FakeRing R(4096);
  InstallSwitchRingForTesting(R.Page);
  // F's entry probe read tick 900, then the thread was switched out
  // (950..1000) before the probe looked at the ring: the interval is inside
  // F, not before it.
  R.Interval(950, 1000);
  R.Publish();
  ProbeEnterAt(F, 1000, 900);
  EXPECT_EQ(at_tls.Off, 0u);          // pending, not yet charged
  EXPECT_EQ(at_tls.NextCheckTick, 0u); // the next probe must flush it
  ProbeEnterAt(G, 900, 1200);         // flushed before G's snapshot
  EXPECT_EQ(at_tls.Off, 50u);
  // G's exit probe read 1500, then a switch (1510..1520): not inside G.
  R.Interval(1510, 1520, true);
  R.Publish();
  ProbeExitAt(G, 900, 1500);
  ProbeExitAt(F, 1000, 1550);
  u32 NF = ChildOf(0, F), NG = ChildOf(NF, G);
  EXPECT_EQ(NodeOf(NG)->Off, 0u);
  EXPECT_EQ(NodeOf(NG)->Invol, 0u);
  EXPECT_EQ(NodeOf(NF)->Off, 60u);
  EXPECT_EQ(NodeOf(NF)->Vol, 1u);
  EXPECT_EQ(NodeOf(NF)->Invol, 1u);
  EXPECT_EQ(at_tls.NextCheckTick, ~0ull);
  RemoveSwitchRingForTesting();
}

TEST_F(RuntimeTest, SwitchInsideALongProbeIsOnlyOffCpu) {
  FakeRing R(4096);
  InstallSwitchRingForTesting(R.Page);
  ProbeEnterAt(F, 1000, 900);
  // A probe that read tick 1000 and ended at 2000 was switched out for
  // 1200..1800 inside: ChargeProbe asks for what was switched out before
  // its end and takes that out of its own measured interval.
  R.Interval(1200, 1800);
  R.Publish();
  u64 Before = at_tls.Off;
  EXPECT_EQ(CollectSwitchedOut(at_tls, 2000), 600u);
  EXPECT_EQ(at_tls.Off - Before, 600u);
  EXPECT_EQ(CollectSwitchedOut(at_tls, 2100), 0u); // nothing new
  RemoveSwitchRingForTesting();
  // No switch source: nothing is ever switched out.
  EXPECT_EQ(CollectSwitchedOut(at_tls, 2200), 0u);
}

// perf_after_us: the drainer opened a thread's switch ring and read the
// thread's CPU clock at a tick after it was enabled (LateTick); the thread,
// on its CPU clock until then, adopts the ring later. The clock's window
// ends at LateTick, and the records count from there on: an interval
// straddling it is charged once, split between the two sources. Cases:
// the thread's own last check of its clock came before the drainer's reads
// (at 1000: the window 1000..1100 is off CPU) or after them (at 1200), or
// the thread was off CPU when the ring was enabled (its first record is a
// switch-in: off since before 1100; that switch is not counted, as the CPU
// clock counts none).
TEST_F(RuntimeTest, LateSwitchRingCountsFromTheHandOff) {
  enum { OwnCheckBefore, OwnCheckAfter, OffAtHandOff };
  for (int Case = OwnCheckBefore; Case <= OffAtHandOff; ++Case) {
    SCOPED_TRACE(Case);
    FakeRing R(4096);
    InstallSwitchRingForTesting(R.Page);
    SwitchState &S = TS()->Switch;
    S.Source = raw::SS_CpuClock;
    S.Ring.Fd = 1 << 20; // "installed": never used as a descriptor here
    S.LastCpuNs = 5000;
    S.LateCpuNs = 5000;  // not on CPU at all since the last check
    S.LateTick = 1100;
    S.LastWall = Case == OwnCheckAfter ? 1200 : 1000;
    if (Case == OffAtHandOff) {
      R.Switch(1150, /*Out=*/false);
    } else {
      R.Interval(900, 1000);  // before either: the clock's
      R.Interval(1050, 1250); // straddles the hand-off
    }
    R.Interval(1300, 1360, /*Preempt=*/true);
    R.Publish();
    u64 Off0 = at_tls.Off, Sw0 = at_tls.Sw;
    AdoptLateSwitchSource(at_tls, TS());
    EXPECT_EQ(S.Source, (u32)raw::SS_Perf);
    EXPECT_EQ(S.From, Case == OwnCheckAfter ? 1200u : 1100u);
    EXPECT_EQ(at_tls.Off - Off0, Case == OwnCheckAfter ? 0u : 100u);
    u64 Perf = Case == OwnCheckBefore ? 150u + 60u : 50u + 60u;
    u64 Switches = Case == OffAtHandOff ? kSwInvoluntary
                                        : kSwVoluntary + kSwInvoluntary;
    // The writer's view before the thread reads them, then the thread's.
    SwitchSnapshot Snap = SnapshotSwitch(S);
    u64 Off = 0, Sw = 0;
    UnchargedSwitchedOut(TS(), Snap, 2000, &Off, &Sw);
    EXPECT_EQ(Off, Perf);
    EXPECT_EQ(Sw, Switches);
    ProbeEnterAt(F, 1000, 1400);
    EXPECT_EQ(at_tls.Off - Off0, (Case == OwnCheckAfter ? 0u : 100u) + Perf);
    EXPECT_EQ(at_tls.Sw - Sw0, Switches);
    ProbeExitAt(F, 1000, 1500);
    S.Ring.Fd = -1;
    RemoveSwitchRingForTesting();
  }
}

// A thread that ends before it adopted the ring the drainer installed: the
// switch collector's finish runs after the wait for the registry lock (with
// hundreds of threads ending at once, a long one), so the drainer's reading
// of the thread's clock, or a fresh one, lies after the thread's end. The
// CPU clock's last window ends at the end all the same; the ring's records
// (from after it) charge nothing. Cases: the drainer read the thread's
// clocks after the end, or could not read its CPU clock (LateTick 0: a
// fresh reading, at the real clock, would be taken).
TEST_F(RuntimeTest, ThreadEndingBeforeItsLateRingChargesNothingAfterItsEnd) {
  const Collector *Cs[kMaxCollectors];
  u32 N = CollectorsInOrder(Cs);
  const Collector *Switch = nullptr;
  for (u32 I = 0; I < N; ++I)
    if (std::string(Cs[I]->Name) == "switch")
      Switch = Cs[I];
  ASSERT_TRUE(Switch && Switch->ThreadFinish);
  for (u64 LateTick : {5000ull, 0ull}) {
    SCOPED_TRACE(LateTick);
    FakeRing R(4096);
    InstallSwitchRingForTesting(R.Page);
    // A descriptor the finish may close (and give back to the budget).
    perf_event_attr A;
    memset(&A, 0, sizeof(A));
    A.type = PERF_TYPE_SOFTWARE;
    A.config = PERF_COUNT_SW_DUMMY;
    A.size = sizeof(A);
    A.disabled = 1;
    int Fd = PerfEventOpen(&A, 0);
    if (Fd < 0) {
      RemoveSwitchRingForTesting();
      GTEST_SKIP() << "perf_event_open refused";
    }
    SwitchState &S = TS()->Switch;
    S.Source = raw::SS_CpuClock;
    S.Ring.Fd = Fd;
    // Not on CPU since the last check (a CPU time no reading reaches): the
    // whole window from the last check is off CPU.
    S.LastCpuNs = S.LateCpuNs = ~0ull >> 1;
    S.LastWall = 1000;
    S.LateTick = LateTick;
    R.Interval(5100, 5200);
    R.Publish();
    u64 Off0 = at_tls.Off;
    Switch->ThreadFinish(at_tls, TS(), 2000);
    EXPECT_EQ(at_tls.Off - Off0, 1000u); // 1000..2000: to the end, no later
    EXPECT_EQ(S.Source, (u32)raw::SS_CpuClock);
    EXPECT_EQ(S.Ring.Fd, -1); // closed with the thread
    RemoveSwitchRingForTesting();
  }
}

// A call in which code samples' interrupts were charged (at their start-up
// estimate) has a per-call time uncertain by that much: the minimum takes
// it with the interrupts' cost, the maximum without, and a call of which
// the estimate is over a quarter stays out of the histogram.
TEST_F(RuntimeTest, SampledCallsBoundMinMaxAndStayApart) {
  SetOverheadForTesting(0, 0);
  ProbeEnterAt(F, 1000, 100); // one sample (cost 30) inside: 70 or up to 100
  at_tls.SampleCost = TS()->Code.CostTicks = 30;
  at_tls.Samples += 1;
  at_tls.Ovh += 30 * 256;
  ProbeExitAt(F, 1000, 200);
  u32 NF = ChildOf(0, F);
  const Node *X = NodeOf(NF);
  EXPECT_EQ(ActiveOf(X), 70u);
  EXPECT_EQ(X->Min, 100u);
  EXPECT_EQ(X->Max, 70u);
  EXPECT_EQ(X->PendingA, kNoPending); // apart: 4 * 30 > 100
  ProbeEnterAt(F, 1000, 300);         // no sample: exactly 50
  ProbeExitAt(F, 1000, 350);
  EXPECT_EQ(X->Min, 50u);
  EXPECT_EQ(X->Max, 70u);
  EXPECT_EQ(X->PendingA, 50u);
  ProbeEnterAt(F, 1000, 400); // a sample in a long call: kept
  at_tls.Samples += 1;
  at_tls.Ovh += 30 * 256;
  ProbeExitAt(F, 1000, 1400);
  EXPECT_EQ(X->Max, 970u);
  EXPECT_EQ(X->PendingA, 970u);
  RegisterFresh(&Module);
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 2000);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  EXPECT_TRUE(P.P.Threads[0].Flags & raw::TF_SampledCallsApart);
  const prof::Node &R = P.P.Threads[0].Nodes[0];
  EXPECT_EQ(R.Calls, 3u);
  EXPECT_EQ(R.Min, 50u);
  EXPECT_EQ(R.Max, 970u);
  u64 InHistogram = 0;
  for (const prof::Node &X : P.P.Threads[0].Nodes)
    for (const prof::LatencyCount &L : X.Latency)
      InHistogram += L.Count;
  EXPECT_EQ(InHistogram, 2u);
  Buf.Release();
  at_tls.SampleCost = TS()->Code.CostTicks = 0;
}

// The profile writer's view of another live thread: what the thread has
// been switched out for since its last probe is in no counter of its own.
TEST_F(RuntimeTest, UnchargedSwitchedOutEndsAtTheWrite) {
  FakeRing R(4096);
  InstallSwitchRingForTesting(R.Page);
  ProbeEnterAt(F, 1000, 900);
  R.Interval(1000, 1100); // consumed by the next probe
  R.Publish();
  ProbeEnterAt(G, 900, 1200);
  EXPECT_EQ(at_tls.Off, 100u);
  SwitchSnapshot Snap = SnapshotSwitch(TS()->Switch);
  u64 Off = 1, Sw = 1;
  UnchargedSwitchedOut(TS(), Snap, 3000, &Off, &Sw);
  EXPECT_EQ(Off, 0u); // nothing since
  EXPECT_EQ(Sw, 0u);
  // After G's entry: a completed interval, then the thread blocked at 2000
  // and is still off CPU when the profile is written at 2500.
  R.Interval(1300, 1350, /*Preempt=*/true);
  R.Switch(2000, /*Out=*/true);
  R.Publish();
  UnchargedSwitchedOut(TS(), Snap, 2500, &Off, &Sw);
  EXPECT_EQ(Off, 50u + 500u);
  EXPECT_EQ(Sw, kSwInvoluntary + kSwVoluntary);
  // A switch-in after the write's tick: the interval ends at the write.
  R.Switch(2800, /*Out=*/false);
  R.Publish();
  UnchargedSwitchedOut(TS(), Snap, 2500, &Off, &Sw);
  EXPECT_EQ(Off, 550u);
  EXPECT_EQ(R.Page->data_tail, R.Head - 4 * 24); // read, not consumed
  RemoveSwitchRingForTesting();
}

TEST_F(RuntimeTest, PerfRecordParserWrapsAndCountsLost) {
  FakeRing R(256); // 24-byte records: they straddle the end of the ring
  InstallSwitchRingForTesting(R.Page);
  ProbeEnterAt(F, 1000, 10);
  u64 T0 = 100, Want = 0;
  for (int I = 0; I < 40; ++I) { // ~20 laps of the ring
    R.Interval(T0, T0 + 7 + I, I % 3 == 0);
    Want += 7 + I;
    R.Publish();
    ProbeEnterAt(G, 900, T0 + 50);
    ProbeExitAt(G, 900, T0 + 60);
    T0 += 100;
  }
  EXPECT_EQ(at_tls.Off, Want);
  EXPECT_EQ(R.Page->data_tail, R.Head);
  // A lost batch between a switch-out and its switch-in: that interval is
  // unknown and not charged; the loss is counted.
  R.Switch(T0, true);
  R.Lost(5);
  R.Switch(T0 + 30, false);
  R.Interval(T0 + 40, T0 + 45);
  R.Publish();
  ProbeExitAt(F, 1000, T0 + 100);
  EXPECT_EQ(at_tls.Off, Want + 5);
  EXPECT_EQ(TS()->Switch.Lost, 5u);
  EXPECT_EQ(NodeOf(ChildOf(0, F))->Off, Want + 5);
  u32 NG = ChildOf(ChildOf(0, F), G);
  EXPECT_EQ(NodeOf(NG)->Off, 0u); // every interval lay between G's calls
  EXPECT_EQ(NodeOf(ChildOf(0, F))->Invol, 14u);
  EXPECT_EQ(NodeOf(ChildOf(0, F))->Vol, 40u - 14u + 1u);
  RegisterFresh(&Module);
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, T0 + 200);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  EXPECT_EQ(P.P.Threads[0].LostSwitchRecords, 5u);
  Buf.Release();
  RemoveSwitchRingForTesting();
}

// Pairs of reads d ticks apart, as MeasureTickStep256 counts them.
struct DeltaCounts {
  std::vector<u16> C = std::vector<u16>(1024, 0);
  void add(double D, u16 N = 30) { C[u32(D)] += N; }
  u64 step() const { return TickStep256FromDeltas(C.data(), u32(C.size())); }
};

TEST(TickStepTest, LatticeOfAFractionalStep) {
  // A 2.445 GHz counter that moves every 10 ns (24.45 ticks): reads land
  // on floor(k * 24.45) or one above it.
  DeltaCounts D;
  for (int K = 2; K <= 10; ++K) {
    D.add(K * 24.45);
    D.add(K * 24.45 + 1, 20);
  }
  EXPECT_NEAR(double(D.step()) / 256, 24.45, 0.1);
}

TEST(TickStepTest, WholeStepAndMissingMultiples) {
  // Every 8 ticks, a few multiples never observed.
  DeltaCounts D;
  for (int K : {3, 4, 6, 7, 11, 12})
    D.add(K * 8);
  EXPECT_EQ(D.step(), 8u * 256);
}

TEST(TickStepTest, ContiguousValuesAreOneTick) {
  DeltaCounts D;
  for (int V = 30; V < 220; ++V)
    D.add(V, 3);
  EXPECT_EQ(D.step(), 256u);
  // A fine counter read around a delay growing by 2 ticks: runs 2 apart
  // are too close to be a lattice.
  DeltaCounts E;
  for (int V = 30; V < 220; V += 2)
    E.add(V, 5);
  EXPECT_EQ(E.step(), 256u);
}

TEST(TickStepTest, StraysIgnoredAndOffLatticeRejected) {
  DeltaCounts D;
  for (int K = 2; K <= 10; ++K)
    D.add(K * 24.45);
  D.add(601, 1); // an interrupted pair, seen once
  EXPECT_NEAR(double(D.step()) / 256, 24.45, 0.1);
  // Repeated values that sit on no common lattice.
  DeltaCounts E;
  for (int V : {50, 75, 110, 160, 171})
    E.add(V);
  EXPECT_EQ(E.step(), 256u);
  // Fewer than three runs say nothing.
  DeltaCounts F;
  F.add(49);
  F.add(98);
  EXPECT_EQ(F.step(), 256u);
}

TEST(TickStepTest, MeasuredStepMatchesBackToBackReads) {
  u64 S = MeasureTickStep256();
#if defined(__x86_64__) || defined(__aarch64__)
  ASSERT_GE(S, 256u);
#endif
  if (S <= 256)
    return; // a counter that moves every tick: nothing more to check
  // Every difference between two consecutive reads is a whole number of
  // steps, give or take the one-tick rounding of a fractional step.
  u64 Prev = ReadTick();
  int Off = 0;
  for (int I = 0; I < 2000; ++I) {
    u64 Now = ReadTick();
    if (Now - Prev > 512) { // an interrupt: not a back-to-back pair
      Prev = Now;
      continue;
    }
    double Steps = double(Now - Prev) * 256 / double(S);
    double Err = (Steps - double(u64(Steps + 0.5))) * double(S) / 256;
    Off += Err > 1.5 || Err < -1.5;
    Prev = Now;
  }
  EXPECT_EQ(Off, 0);
}

TEST(PerfTimeTest, InverseOfTheMmapPageConversion) {
  // Forward: the kernel's quot/rem formula (perf_event_mmap_page docs).
  const uint64_t Zero = 123456789;
  const uint32_t Mult = 3145728000u / 7, Shift = 31;
  for (uint64_t Tsc : {0ull, 1ull, 1000ull, 123456789012ull, 987654321098765ull}) {
    uint64_t Quot = Tsc >> Shift, Rem = Tsc & ((1ull << Shift) - 1);
    uint64_t Time = Zero + Quot * Mult + ((Rem * Mult) >> Shift);
    uint64_t Back = PerfTimeToTick(Time, Zero, Mult, Shift);
    EXPECT_LE(Back, Tsc);
    EXPECT_LE(Tsc - Back, 5u) << Tsc; // one ns is ~4.7 ticks at this rate
  }
  EXPECT_EQ(PerfTimeToTick(1000, 0, 1, 0), 1000u);
  EXPECT_EQ(PerfTimeToTick(5, 10, 1, 0), 0u);
  EXPECT_EQ(RawNsToTick(2000, 10000, 1000, 2000000000ull), 12000u);
  EXPECT_EQ(RawNsToTick(500, 10000, 1000, 2000000000ull), 9000u);
}

TEST_F(RuntimeTest, NestedOverheadIsEnterPlusNTimesPair) {
  const u64 E = 5, X = 7;
  SetOverheadForTesting(E * 256, X * 256);
  ProbeEnterAt(F, 1000, 0);
  u64 T = 1000;
  for (int I = 0; I < 4; ++I) {
    ProbeEnterAt(G, 900, T);
    ProbeEnterAt(A, 800, T + 100); // G -> A
    ProbeExitAt(A, 800, T + 200);
    ProbeExitAt(G, 900, T + 300);
    T += 1000;
  }
  ProbeExitAt(F, 1000, T);
  u32 NF = ChildOf(0, F), NG = ChildOf(NF, G), NA = ChildOf(NG, A);
  // F: own entry + 8 nested calls (4 G + 4 A) = E + 8 (E + X).
  EXPECT_EQ(NodeOf(NF)->Ovh256 / 256, E + 8 * (E + X));
  // G (4 calls): each own entry + 1 nested call.
  EXPECT_EQ(NodeOf(NG)->Ovh256 / 256, 4 * (E + (E + X)));
  EXPECT_EQ(NodeOf(NA)->Ovh256 / 256, 4 * E);
  EXPECT_EQ(NodeOf(NG)->Min, 300u - (E + E + X));
  EXPECT_EQ(NodeOf(NA)->Max, 100u - E);
  // Fractional table: kept in fixed point, rounded when written.
  ResetThreadsForTesting();
  SetOverheadForTesting(640, 384); // 2.5 and 1.5 ticks
  ProbeEnterAt(F, 1000, 0);
  for (int I = 0; I < 3; ++I) {
    ProbeEnterAt(G, 900, 10 + 10 * I);
    ProbeExitAt(G, 900, 15 + 10 * I);
  }
  ProbeExitAt(F, 1000, 100);
  EXPECT_EQ(NodeOf(ChildOf(0, F))->Ovh256, 640u + 3 * 1024u); // 14.5 ticks
}

// What the calibration must produce whatever this machine overlaps and
// however loaded it is: only relations that hold by construction. (How
// close the table comes to a directly measured pair depends on the core and
// the load; docs/performance.md has the measurements.)
TEST_F(RuntimeTest, CalibrationIsSaneAndStable) {
  raw::OverheadRecord R;
  ThreadTls Before = at_tls;
  CalibrateOverhead(&R);
  EXPECT_EQ(std::memcmp(&Before, &at_tls, sizeof(Before)), 0); // restored
  printf("calibration: pair %.2f ticks, measured enter %.2f exit %.2f, table "
         "enter %.2f exit %.2f, spread %u permille, flags %u\n",
         R.Pair256 / 256.0, R.MeasuredEnter256 / 256.0, R.MeasuredExit256 / 256.0,
         R.Enter256 / 256.0, R.Exit256 / 256.0, R.SpreadPermille, R.Flags);
  EXPECT_EQ(R.Source, (uint32_t)raw::OS_Calibrated);
  EXPECT_EQ(R.Batches, 31u);
  // An instrumented call costs its caller something, and each probe's two
  // tick reads span a non-empty interval over a batch of 128 calls.
  EXPECT_GT(R.Pair256, 0u);
  EXPECT_GT(R.MeasuredEnter256, 0u);
  EXPECT_GT(R.MeasuredExit256, 0u);
  // The table holds what the probes did not measure of their own cost: the
  // non-negative remainders of the pair's parts inside (A <= pair) and
  // outside (pair - A) the frame, so together no more than the pair.
  EXPECT_LE(R.Enter256, R.Pair256);
  EXPECT_LE(R.Exit256, R.Pair256);
  EXPECT_LE(R.Enter256 + R.Exit256, R.Pair256);
  // The calibration itself only says whether its batches agreed.
  EXPECT_EQ(R.Flags & ~uint32_t(raw::OF_Stable), 0u);
  EXPECT_EQ((R.Flags & raw::OF_Stable) != 0, R.SpreadPermille <= 100u);
}

// The table the runtime starts with (InitOverheadTable): every probe
// measures itself (OF_Measured) whatever the table's source, and values
// fixed by option are taken as given. A table to calibrate is pending until
// the calibration beside the program publishes it: a thread started
// meanwhile charges nothing outside its probes' tick reads and polls for it
// within a millisecond, and adopts it at its first poll after.
TEST_F(RuntimeTest, OverheadTableFromTheFlags) {
  raw::OverheadRecord SavedTable = runtime.Overhead;
  u32 SavedFence = probe_fence;
  flags()->probe_fence = false;
  flags()->overhead_enter_ticks = -1;
  flags()->overhead_exit_ticks = -1;
  flags()->calibrate_at_start = false;
  InitOverheadTable();
  raw::OverheadRecord Pending = runtime.Overhead;
  EXPECT_EQ(Pending.Source, (uint32_t)raw::OS_Uncalibrated);
  EXPECT_EQ(Pending.Enter256 + Pending.Exit256 + Pending.Pair256, 0u);
  EXPECT_EQ(Pending.ReadyTick, 0u);
  EXPECT_EQ(runtime.TickStep256, 0u); // measured with the table
  EXPECT_TRUE(Pending.Flags & raw::OF_Measured);
  {
    ThreadTls T;
    std::memset(&T, 0, sizeof(T));
    T.NextCheckTick = ~0ull;
    T.Enter256 = T.Exit256 = 12345;
    u64 Now = ReadTick();
    PollProbeTable(T, Now);
    EXPECT_EQ(T.Enter256, 12345u); // still the thread's own until published
    EXPECT_LT(T.NextCheckTick, ~0ull); // polls again soon
    EXPECT_GT(T.NextCheckTick, Now);
    T.TablePending = 1;
    u64 Before = ReadTick();
    CalibrateOverheadForTesting();
    raw::OverheadRecord Cal = runtime.Overhead;
    EXPECT_EQ(Cal.Source, (uint32_t)raw::OS_Calibrated);
    EXPECT_TRUE(Cal.Flags & raw::OF_Measured);
    EXPECT_FALSE(Cal.Flags & raw::OF_Fenced);
    EXPECT_GT(Cal.Pair256, 0u);
    EXPECT_LE(Cal.Enter256 + Cal.Exit256, Cal.Pair256);
    EXPECT_GE(Cal.ReadyTick, Before);
    EXPECT_GE(runtime.TickStep256, 256u);
    PollProbeTable(T, ReadTick());
    EXPECT_EQ(T.TablePending, 0u);
    EXPECT_EQ(T.Enter256, Cal.Enter256);
    EXPECT_EQ(T.Exit256, Cal.Exit256);
  }

  // Calibrated before main (calibrate_at_start): published at once, with
  // no ReadyTick (every call had it).
  flags()->calibrate_at_start = true;
  InitOverheadTable();
  raw::OverheadRecord Cal = runtime.Overhead;
  EXPECT_EQ(Cal.Source, (uint32_t)raw::OS_Calibrated);
  EXPECT_GT(Cal.Pair256, 0u);
  EXPECT_EQ(Cal.ReadyTick, 0u);
  EXPECT_GE(runtime.TickStep256, 256u);
  flags()->calibrate_at_start = false;

  flags()->overhead_enter_ticks = 3;
  flags()->overhead_exit_ticks = 2;
  InitOverheadTable();
  raw::OverheadRecord Fixed = runtime.Overhead;
  EXPECT_EQ(Fixed.Enter256, 3u * 256);
  EXPECT_EQ(Fixed.Exit256, 2u * 256);
  EXPECT_EQ(Fixed.Source, (uint32_t)raw::OS_Option);
  EXPECT_EQ(Fixed.Flags, uint32_t(raw::OF_Stable | raw::OF_Measured));
  EXPECT_EQ(Fixed.Batches, 0u);
  EXPECT_EQ(Fixed.Pair256, 0u); // not calibrated
  EXPECT_EQ(Fixed.MeasuredEnter256 + Fixed.MeasuredExit256, 0u);

  // One fixed part overrides its calibrated value only.
  flags()->overhead_exit_ticks = -1;
  InitOverheadTable();
  EXPECT_EQ(runtime.Overhead.Pair256, 0u); // pending
  CalibrateOverheadForTesting();
  EXPECT_EQ(runtime.Overhead.Enter256, 3u * 256);
  EXPECT_EQ(runtime.Overhead.Source, (uint32_t)raw::OS_Option);
  EXPECT_TRUE(runtime.Overhead.Flags & raw::OF_Measured);
  EXPECT_GT(runtime.Overhead.Pair256, 0u);

  flags()->probe_fence = true;
  flags()->overhead_exit_ticks = 2;
  InitOverheadTable();
  EXPECT_EQ(probe_fence, 1u);
  EXPECT_EQ(runtime.Overhead.Flags,
            uint32_t(raw::OF_Stable | raw::OF_Fenced | raw::OF_Measured));

  SetOverheadForTesting(SavedTable.Enter256, SavedTable.Exit256);
  runtime.Overhead = SavedTable;
  probe_fence = SavedFence;
}

TEST(CpuClockTest, OffIsWallMinusCpu) {
  SwitchState S;
  std::memset(&S, 0, sizeof(S));
  S.LastWall = 1000;
  S.LastCpuNs = 5000;
  // 1 tick per ns: 3000 ticks of wall, 1000 ns of CPU -> 2000 off.
  EXPECT_EQ(CpuClockStep(S, 4000, 6000, 1000000000ull), 2000u);
  EXPECT_EQ(S.LastWall, 4000u);
  EXPECT_EQ(S.LastCpuNs, 6000u);
  // 2 ticks per ns: 1000 ticks wall, 300 ns CPU = 600 ticks -> 400.
  EXPECT_EQ(CpuClockStep(S, 5000, 6300, 2000000000ull), 400u);
  // More CPU than wall (rate error): clamped at 0.
  EXPECT_EQ(CpuClockStep(S, 5100, 6400, 2000000000ull), 0u);
}

TEST_F(RuntimeTest, CpuClockSourceChargesASleep) {
  flags()->switch_source = SwitchSourceFlag::CpuClock;
  flags()->cpuclock_check_us = 100;
  u64 Off = 0, El = 0, Res = 0;
  u32 Src = 99;
  std::thread Th([&] {
    ProbeEnterAt(G, 1000, ReadTick()); // thread init (opens the source)
    ProbeExitAt(G, 1000, ReadTick());
    ProbeEnterAt(F, 1000, ReadTick());
    usleep(20000);
    ProbeExitAt(F, 1000, ReadTick());
    const Node *N = NodeOf(ChildOf(0, F));
    Off = N->Off;
    El = N->Incl;
    Src = TS()->Switch.Source;
    Res = TS()->Switch.Resolution;
  });
  Th.join();
  EXPECT_EQ(Src, (u32)raw::SS_CpuClock);
  EXPECT_GT(Res, 0u);
  EXPECT_GT(Off, El * 8 / 10) << "off " << Off << " of elapsed " << El;
  EXPECT_LE(Off, El);
}

TEST_F(RuntimeTest, PerfSourceSeesASleep) {
  flags()->switch_source = SwitchSourceFlag::Perf;
  // The perf ring from the thread's start: a thread that opens it late
  // (perf_after_us) measures the sleep on its CPU clock, with no switches.
  flags()->perf_after_us = 0;
  u64 Off = 0, El = 0, Vol = 0;
  u32 Src = 99;
  const char *Why = nullptr;
  std::thread Th([&] {
    ProbeEnterAt(G, 1000, ReadTick()); // thread init (opens the source)
    ProbeExitAt(G, 1000, ReadTick());
    ProbeEnterAt(F, 1000, ReadTick());
    usleep(10000);
    ProbeExitAt(F, 1000, ReadTick());
    const Node *N = NodeOf(ChildOf(0, F));
    Off = N->Off;
    El = N->Incl;
    Vol = N->Vol;
    Src = TS()->Switch.Source;
    Why = TS()->SwitchFallbackWhy;
  });
  Th.join();
  if (Src != raw::SS_Perf)
    GTEST_SKIP() << "perf_event_open unavailable here: " << (Why ? Why : "?");
  EXPECT_GE(Vol, 1u);
  EXPECT_GT(Off, El * 8 / 10) << "off " << Off << " of elapsed " << El;
  EXPECT_LE(Off, El);
}

TEST_F(RuntimeTest, TraceBuffersDropWhenFull) {
  flags()->mode = RunMode::Trace;
  flags()->trace_buffer_events = 4;
  flags()->trace_buffer_switches = 2;
  RegisterFresh(&Module);
  FakeRing R(4096);
  InstallSwitchRingForTesting(R.Page); // initializes this thread in trace mode
  ASSERT_EQ(at_tls.Trace, 1u);
  ProbeEnterAt(F, 1000, 10);
  R.Interval(20, 30);
  R.Interval(40, 50, true);
  R.Publish();
  ProbeEnterAt(G, 900, 60);
  ProbeExitAt(G, 900, 70);
  ProbeEnterAt(G, 900, 80); // the 4th event
  ProbeExitAt(G, 900, 90);  // dropped (the buffer holds 4)
  ProbeExitAt(F, 1000, 100); // dropped
  EXPECT_EQ(TS()->Trace.NumEvents, 4u);
  EXPECT_EQ(TS()->Trace.DroppedEvents, 2u);
  EXPECT_EQ(TS()->Trace.NumSwitches, 2u);
  EXPECT_EQ(TS()->Trace.DroppedSwitches, 2u);
  // The online accounting is unaffected by the full buffers.
  EXPECT_EQ(NodeOf(ChildOf(0, F))->Off, 20u);
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 200);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  ASSERT_EQ(P.P.Traces.size(), 1u);
  const prof::Trace &TR = P.P.Traces[0];
  EXPECT_EQ(TR.Tid, P.P.Threads[0].Tid);
  EXPECT_EQ(TR.Events.size(), 4u);
  EXPECT_EQ(TR.DroppedEvents, 2u);
  EXPECT_EQ(TR.Switches.size(), 2u);
  EXPECT_EQ(TR.DroppedSwitches, 2u);
  const auto &Ev = TR.Events;
  EXPECT_EQ(Ev[0].Tick, 10u);
  EXPECT_EQ(Ev[0].Func, 5u);
  EXPECT_EQ(Ev[0].Kind, (uint32_t)raw::TE_Enter);
  EXPECT_EQ(Ev[1].Tick, 60u);
  EXPECT_EQ(Ev[1].Func, 6u);
  EXPECT_EQ(Ev[2].Tick, 70u);
  EXPECT_EQ(Ev[2].Kind, (uint32_t)raw::TE_Exit);
  EXPECT_EQ(Ev[3].Tick, 80u);
  const auto &Sw = TR.Switches;
  EXPECT_EQ(Sw[0].Tick, 20u);
  EXPECT_EQ(Sw[0].OldTid, TR.Tid);
  EXPECT_EQ(Sw[0].NewTid, 0u);
  EXPECT_EQ(Sw[1].Tick, 30u);
  EXPECT_EQ(Sw[1].OldTid, 0u);
  EXPECT_EQ(Sw[1].NewTid, TR.Tid);
  Buf.Release();
  RemoveSwitchRingForTesting();
}

// The event buffer's pages are made ready a chunk at a time ahead of the
// writes (activetime_trace.cpp): every event lands in ready memory, no more
// than one chunk beyond what was written is made ready, the cost is
// accounted, and the writer carries the figures.
TEST_F(RuntimeTest, TraceBuffersMadeReadyInChunks) {
  flags()->mode = RunMode::Trace;
  flags()->trace_buffer_events = 100000;
  flags()->trace_buffer_switches = 16;
  RegisterFresh(&Module);
  constexpr u64 kPairs = 3000; // 144,000 bytes of events: several chunks
  ProbeEnterAt(F, 100000, 10);
  u64 ReadyAtStart = TS()->Trace.ReadyEvents;
  EXPECT_GT(ReadyAtStart, 0u); // made ready at thread init
  EXPECT_LT(ReadyAtStart, 2 * kPairs);
  for (u64 I = 0; I < kPairs; ++I) {
    ProbeEnterAt(G, 900, 20 + 2 * I);
    ProbeExitAt(G, 900, 21 + 2 * I);
  }
  ProbeExitAt(F, 100000, 20 + 2 * kPairs);
  const TraceBuffers &B = TS()->Trace;
  u64 N = 2 * kPairs + 2;
  ASSERT_EQ(B.NumEvents, N);
  EXPECT_EQ(B.DroppedEvents, 0u);
  EXPECT_GE(B.ReadyEvents, N);
  EXPECT_LE(B.ReadyEvents, B.CapEvents);
  EXPECT_EQ(B.Events[N - 1].Tick, 20 + 2 * kPairs);
  u64 PS = GetPageSizeCached();
  // The events written, the switch buffer's first page, and at most one
  // chunk (64 KiB) ahead.
  EXPECT_GE(B.BufferBytes, N * sizeof(TraceEv));
  EXPECT_LE(B.BufferBytes, N * sizeof(TraceEv) + (64u << 10) + 2 * PS);
  EXPECT_NE(B.BufferFlags & (raw::TBF_Populate | raw::TBF_Touch), 0u);
  EXPECT_EQ(B.BufferFlags & raw::TBF_HugePages, 0u); // under 2 MiB
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 100000);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  ASSERT_EQ(P.P.Traces.size(), 1u);
  EXPECT_EQ(P.P.Traces[0].Events.size(), N);
  EXPECT_EQ(P.P.Traces[0].BufferBytes, B.BufferBytes);
  EXPECT_EQ(P.P.Traces[0].BufferTicks, B.BufferTicks);
  EXPECT_EQ(P.P.Traces[0].BufferFlags, B.BufferFlags);
  // The reserved field is 0: the reader refuses another value.
  Buf.Release();
}

// When the runtime's thread made the process multi-threaded, as the profile
// of StartTick..EndTick records it (ProcessRecord::ThreadedByRuntimeUs):
// microseconds after its start, 0 before it (a fork child of such a
// process), and not at all when it never did or only after its end.
TEST_F(RuntimeTest, ThreadedByRuntimeInAProfile) {
  constexpr u64 Rate = 2000000000; // 2000 ticks a microsecond
  EXPECT_EQ(ThreadedUsOf(0, 1000, 1000000000, Rate),
            raw::kNotThreadedByRuntime);
  EXPECT_EQ(ThreadedUsOf(1000 + 2000 * 5005, 1000, 1000000000, Rate), 5005u);
  EXPECT_EQ(ThreadedUsOf(500, 1000, 1000000000, Rate), 0u);
  EXPECT_EQ(ThreadedUsOf(1000000001, 1000, 1000000000, Rate),
            raw::kNotThreadedByRuntime);
  // A run too long for 32 bits of microseconds stops one short of "never".
  EXPECT_EQ(ThreadedUsOf(~0ull - 1, 0, ~0ull, 1000000),
            raw::kNotThreadedByRuntime - 1);
}

// A zero capacity maps nothing and drops every event.
TEST_F(RuntimeTest, TraceBuffersOfZeroCapacity) {
  flags()->mode = RunMode::Trace;
  flags()->trace_buffer_events = 0;
  flags()->trace_buffer_switches = 0;
  RegisterFresh(&Module);
  ProbeEnterAt(F, 1000, 10);
  ProbeExitAt(F, 1000, 20);
  const TraceBuffers &B = TS()->Trace;
  EXPECT_EQ(B.NumEvents, 0u);
  EXPECT_EQ(B.DroppedEvents, 2u);
  EXPECT_EQ(B.BufferBytes, 0u);
  EXPECT_EQ(B.Events, nullptr);
}

} // namespace

int main(int argc, char **argv) {
  // Never write a profile from the test binary itself, and no code samples:
  // each sample's interrupt cost is charged to the frames open when a probe
  // drains it, which would make the exact overhead figures of the tests that
  // inject ticks depend on where the perf cpu-clock event fired (the code
  // sample tests install a fake ring, or turn sampling on in a child
  // process). The runtime reads ACTIVETIME_OPTIONS from /proc/self/environ
  // (sanitizer_common's GetEnv), which setenv does not change: the binary
  // runs itself again with the options appended (later ones win).
  const char *Marker = "ACTIVETIME_RUNTIME_TESTS_OPTIONS_SET";
  if (!getenv(Marker)) {
    const char *Cur = getenv("ACTIVETIME_OPTIONS");
    std::string Opts = Cur && *Cur ? std::string(Cur) + ":" : std::string();
    Opts += "write_profile=0:code_samples=0";
    setenv("ACTIVETIME_OPTIONS", Opts.c_str(), 1);
    setenv(Marker, "1", 1);
    execv("/proc/self/exe", argv);
    perror("ActiveTimeRuntimeTests: exec /proc/self/exe");
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// ---- stride profiling by GCD ----------------------------------------------

namespace {
SiteStats FreshSite() {
  SiteStats S;
  std::memset(&S, 0, sizeof(S));
  return S;
}
} // namespace

// The worked example of stride profiling (docs/design.md): the load at 1005
// reads 2000 + X, X grows by 48; only 2000, 2240 and 2576 are observed (the
// executions between them were skipped), so the differences are stride
// products 240 = 5*48 and 336 = 7*48, and their GCD is the stride.
TEST(StrideTest, WorkedExampleGcdOfStrideProducts) {
  SiteStats S = FreshSite();
  ObserveAddress(S, 2000, /*Adjacent=*/false, 0);
  ObserveAddress(S, 2240, /*Adjacent=*/false, 0);
  EXPECT_EQ(S.Gcd, 240u);
  ObserveAddress(S, 2576, /*Adjacent=*/false, 0);
  EXPECT_EQ(S.Gcd, 48u);
  EXPECT_EQ(S.Observations, 3u);
  EXPECT_EQ(S.Differences, 2u);
  EXPECT_EQ(S.Adjacent, 0u);      // products, not exact strides
  EXPECT_EQ(S.CandCount, 0u);
}

TEST(StrideTest, AdjacentDifferencesVoteForTheDominantStride) {
  SiteStats S = FreshSite();
  // Backwards at -24 with one outlier; ticks 10 apart.
  uptr A = 100000;
  for (int I = 0; I < 10; ++I, A -= 24)
    ObserveAddress(S, I == 5 ? 7 : A, /*Adjacent=*/true, 10 * I);
  EXPECT_EQ(S.Cand, -24);
  EXPECT_EQ(S.Adjacent, 9u);
  EXPECT_EQ(S.CandCount, 7u); // 2 differences touch the outlier
  EXPECT_EQ(S.IterTicks, 70u); // only the 7 steps of the candidate stride
  EXPECT_EQ(S.Gcd, Gcd64(24, Gcd64(100000 - 5 * 24 - 7, 100000 - 6 * 24 - 7)));
}

TEST(StrideTest, ZeroDifferencesAreUniformNotGcd) {
  SiteStats S = FreshSite();
  for (int I = 0; I < 5; ++I)
    ObserveAddress(S, 4096, true, I);
  EXPECT_EQ(S.ZeroDiffs, 4u);
  EXPECT_EQ(S.Gcd, 0u);
  EXPECT_EQ(S.Cand, 0);
  EXPECT_EQ(S.CandCount, 4u);
}

// Skip phases only multiply the products: the GCD still recovers the stride,
// the adjacent differences inside inspect phases are exact, every execution
// is counted, and a settled site's skip phases double.
TEST(StrideTest, PhaseManagerSkipsCountsAndAdapts) {
  PhaseConfig C = {/*Skip=*/10, /*Inspect=*/4, /*SkipMax=*/40, /*Adaptive=*/true};
  SiteStats S = FreshSite();
  uptr A = 1 << 20;
  u64 Slow = 0;
  const int N = 1000;
  for (int I = 0; I < N; ++I, A += 48) {
    if (--S.Countdown > 0) // the probe's fast path
      continue;
    ++Slow;
    SiteSlowStep(S, A, I, C);
  }
  EXPECT_EQ(SiteExecutions(S, S.Countdown), u64(N));
  EXPECT_EQ(S.Observations, Slow);
  EXPECT_EQ(S.Gcd, 48u);
  EXPECT_EQ(S.Cand, 48);
  EXPECT_EQ(S.CandCount, S.Adjacent); // every adjacent difference is 48
  EXPECT_EQ(S.SkipLen, 40u);          // doubled up to the maximum
  // Phases: 4 observed, then skips of 20, 40, 40, ...: far fewer than
  // 4 / (4 + 10) of the executions.
  EXPECT_LT(Slow, u64(N) / 8);
}

TEST(StrideTest, IrregularSitesSettleAndChangesReset) {
  PhaseConfig C = {8, 4, 64, true};
  SiteStats S = FreshSite();
  u32 Lcg = 1;
  auto Run = [&](int From, int To, bool Random) {
    for (int I = From; I < To; ++I) {
      Lcg = Lcg * 1103515245u + 12345u;
      if (--S.Countdown > 0)
        continue;
      SiteSlowStep(S, Random ? (Lcg >> 8) * 8 : uptr(I) * 8, I, C);
    }
  };
  // Random addresses: irregular phase after irregular phase settles it.
  Run(0, 2000, true);
  EXPECT_EQ(SiteExecutions(S, S.Countdown), 2000u);
  EXPECT_EQ(S.SkipLen, 64u);
  EXPECT_LT(S.CandCount * 2, S.Adjacent);
  // One inspect phase in which two of the three adjacent differences agree:
  // mixed, not settled either way on its own.
  auto MixedPhase = [&] {
    S.Countdown = 1; // the next execution is inspected
    for (int I = 0; I < 4; ++I) {
      Lcg = Lcg * 1103515245u + 12345u;
      uptr A = I < 3 ? uptr(I) * 8 : (Lcg >> 8) * 8;
      if (--S.Countdown > 0)
        continue;
      SiteSlowStep(S, A, I, C);
    }
  };
  // The pattern changes: a phase that is neither resets the skip phase.
  u32 Before = S.SkipLen;
  Lcg = 7;
  MixedPhase();
  EXPECT_EQ(Before, 64u);
  EXPECT_EQ(S.SkipLen, 8u);
  // The same mix again: a mostly regular site with the odd jump settles.
  MixedPhase();
  EXPECT_EQ(S.SkipLen, 16u);
}

TEST(StrideTest, InspectEverythingObservesEveryExecution) {
  PhaseConfig C = {0, 64, 0, true};
  SiteStats S = FreshSite();
  for (int I = 0; I < 300; ++I) {
    if (--S.Countdown > 0)
      continue;
    SiteSlowStep(S, 8000 - 8 * I, I, C);
  }
  EXPECT_EQ(S.Observations, 300u);
  EXPECT_EQ(S.Adjacent, 299u);
  EXPECT_EQ(S.CandCount, 299u);
  EXPECT_EQ(S.Cand, -8);
}

TEST(StrideTest, MergeKeepsTheBestSupportedCandidate) {
  SiteStats A = FreshSite(), B = FreshSite(), M = FreshSite();
  A.Cand = 16, A.CandCount = 5, A.Gcd = 32, A.Executions = 10;
  B.Cand = 16, B.CandCount = 7, B.Gcd = 48, B.Executions = 20;
  MergeSiteStats(M, A, 0);
  MergeSiteStats(M, B, 0);
  EXPECT_EQ(M.Cand, 16);
  EXPECT_EQ(M.CandCount, 12u);
  EXPECT_EQ(M.Gcd, 16u);
  EXPECT_EQ(M.Executions, 30u);
  SiteStats C2 = FreshSite();
  C2.Cand = 8, C2.CandCount = 20;
  MergeSiteStats(M, C2, 0);
  EXPECT_EQ(M.Cand, 8);
  EXPECT_EQ(M.CandCount, 20u);
}

namespace {
// N unrolled copies of one access in one loop, driven as the instrumented
// code drives them: each copy's fast path decrements its own countdown
// (Slot, the module's TLS) and the slow path observes, then pairs the copy
// with the one before it as MemAccessSlow does.
struct UnrolledCopies {
  static constexpr int N = 4;
  SiteStats Recs[N];
  s32 Slot[N] = {};
  PhaseConfig Config[N];
  explicit UnrolledCopies(PhaseConfig C) {
    for (int K = 0; K < N; ++K) {
      Recs[K] = FreshSite();
      Config[K] = C;
    }
  }
  void execute(int K, uptr Addr, u64 Tick) {
    if (--Slot[K] > 0)
      return;
    SiteSlowStep(Recs[K], Addr, Tick, Config[K]);
    Slot[K] = Recs[K].Countdown;
    if (K)
      ObserveCopyOffset(Recs[K], Recs[K - 1], Slot[K - 1], Addr);
  }
};
} // namespace

// a[idx[i]] with idx[i] = 7 * i over 8-byte elements, unrolled 4 times:
// each copy strides 224, and in one iteration each copy is 56 bytes past the
// one before it. With skip phases every copy inspects the same iterations
// (equal strides settle them alike): the offsets are taken in each inspect
// phase, and all are 56.
TEST(StrideTest, UnrolledCopiesMeasureTheirOffsetInOneIteration) {
  UnrolledCopies U({/*Skip=*/10, /*Inspect=*/4, /*SkipMax=*/40,
                    /*Adaptive=*/true});
  const uptr A = 1 << 20;
  for (int I = 0; I < 1000; ++I)
    for (int K = 0; K < 4; ++K)
      U.execute(K, A + 56 * (4 * I + K), I);
  EXPECT_EQ(U.Recs[0].CopyPairs, 0u); // the first copy has none before it
  for (int K = 1; K < 4; ++K) {
    SCOPED_TRACE(K);
    EXPECT_EQ(U.Recs[K].Cand, 224);
    EXPECT_EQ(U.Recs[K].CopyCand, 56);
    EXPECT_EQ(U.Recs[K].CopyPairs, U.Recs[K].Observations);
    EXPECT_EQ(U.Recs[K].CopyCandCount, U.Recs[K].CopyPairs);
    EXPECT_LT(U.Recs[K].Observations, 1000u / 4);
  }
}

// Copies whose phases differ (here: other inspect and skip lengths) are
// paired only in the iterations both inspect: never with an address the
// previous copy saw in an earlier iteration (its record is stale during its
// skip phases).
TEST(StrideTest, CopiesOutOfPhasePairOnlyTheSameIteration) {
  UnrolledCopies U({7, 3, 7, false});
  U.Config[0] = {5, 2, 5, false};
  U.Config[2] = {0, 64, 0, true};
  const uptr A = 1 << 20;
  for (int I = 0; I < 2000; ++I)
    for (int K = 0; K < 4; ++K)
      U.execute(K, A - 48 * (4 * I + K), I);
  for (int K = 1; K < 4; ++K) {
    SCOPED_TRACE(K);
    EXPECT_GT(U.Recs[K].CopyPairs, 0u);
    // Copy 3 follows copy 2, which inspects every execution.
    if (K == 3)
      EXPECT_EQ(U.Recs[K].CopyPairs, U.Recs[K].Observations);
    else
      EXPECT_LT(U.Recs[K].CopyPairs, U.Recs[K].Observations);
    EXPECT_EQ(U.Recs[K].CopyCand, -48);
    EXPECT_EQ(U.Recs[K].CopyCandCount, U.Recs[K].CopyPairs);
  }
}

// A previous copy that ran once more than this one (a loop left between
// them) is still paired in every iteration both inspect: its latest
// execution is this iteration's.
TEST(StrideTest, CopiesThatDriftApartStayPaired) {
  UnrolledCopies U({3, 2, 3, false});
  const uptr A = 1 << 20;
  U.execute(0, A - 56, 0);
  for (int I = 0; I < 1000; ++I)
    for (int K = 0; K < 2; ++K)
      U.execute(K, A + 56 * (2 * I + K), I);
  EXPECT_GT(U.Recs[1].CopyPairs, 100u);
  EXPECT_EQ(U.Recs[1].CopyCand, 56);
  EXPECT_EQ(U.Recs[1].CopyCandCount, U.Recs[1].CopyPairs);
}

TEST(StrideTest, MergeKeepsTheBestSupportedCopyOffset) {
  SiteStats A = FreshSite(), B = FreshSite(), C = FreshSite(),
            M = FreshSite();
  A.CopyCand = 56, A.CopyCandCount = 5, A.CopyPairs = 6;
  B.CopyCand = 56, B.CopyCandCount = 7, B.CopyPairs = 7;
  C.CopyCand = -8, C.CopyCandCount = 3, C.CopyPairs = 9;
  MergeSiteStats(M, A, 0);
  MergeSiteStats(M, C, 0);
  MergeSiteStats(M, B, 0);
  EXPECT_EQ(M.CopyCand, 56);
  EXPECT_EQ(M.CopyCandCount, 12u);
  EXPECT_EQ(M.CopyPairs, 22u);
}

// Through the real probe: a registered module's sites get global ids, the
// first execution allocates the thread's records, the records see every
// execution.
TEST_F(RuntimeTest, MemProbeRecordsPerSite) {
  ResetStridesForTesting();
  flags()->stride_skip = 0;
  static atabi::MemSiteDesc Sites[2] = {
      {"f", "s.c", 1, 1, 11, 0, 8, atabi::MS_InLoop, 1, 1},
      {"f", "s.c", 2, 1, 22, 0, 4, atabi::MS_InLoop, 1, 1}};
  static atabi::ModuleDesc M = {atabi::kAbiVersion, 8, Funcs, "strides.c", 1,
                                nullptr, 2, 0, Sites};
  RegisterFresh(&M);
  EXPECT_EQ(M.SiteBase, 0u);
  static long Data[100];
  static s32 Countdown[2]; // the module's thread-local array
  for (int I = 0; I < 100; ++I) {
    // The inline fast path the pass emits, then the probe.
    if (--Countdown[0] < 0)
      __activetime_mem_access(&M, 0, &Data[I], &Countdown[0]);
    if (--Countdown[1] < 0)
      __activetime_mem_access(&M, 1, &Data[99 - I], &Countdown[1]);
  }
  SiteStats Out[2];
  CollectSiteStats(M.SiteBase, 2, Out, /*SlotsValid=*/true);
  EXPECT_EQ(Out[0].Executions, 100u);
  EXPECT_EQ(Out[0].Cand, 8);
  EXPECT_EQ(Out[0].CandCount, 99u);
  EXPECT_EQ(Out[1].Cand, -8);
  EXPECT_EQ(Out[1].Gcd, 8u);
  EXPECT_EQ(Out[1].CopyPairs, 0u); // not copies
  ResetStridesForTesting();
}

// Through the real probe: an unproven copy (MS_CopyUnproven) names its
// previous copy (CopyPrev = 1 + its index) and measures the offset from it.
TEST_F(RuntimeTest, MemProbeMeasuresUnprovenCopyOffsets) {
  ResetStridesForTesting();
  flags()->stride_skip = 0;
  constexpr u32 Flags = atabi::MS_InLoop | atabi::MS_CopyUnproven;
  static atabi::MemSiteDesc Sites[3] = {
      {"f", "s.c", 1, 1, 11, 0, 8, atabi::MS_InLoop, 1, 1},
      {"f", "s.c", 2, 1, 22, 0, 8, Flags, 1, 1, /*CopyGroup=*/2, 0},
      {"f", "s.c", 2, 1, 33, 0, 8, Flags, 1, 1, /*CopyGroup=*/2,
       /*CopyPrev=*/2}};
  static atabi::ModuleDesc M = {atabi::kAbiVersion, 8, Funcs, "copies.c", 1,
                                nullptr, 3, 0, Sites};
  RegisterFresh(&M);
  static long Data[1000];
  static s32 Countdown[3];
  for (int I = 0; I < 100; ++I) {
    if (--Countdown[0] < 0)
      __activetime_mem_access(&M, 0, &Data[I], &Countdown[0]);
    // Two copies 7 elements apart, 14 elements per iteration.
    for (int K = 1; K < 3; ++K)
      if (--Countdown[K] < 0)
        __activetime_mem_access(&M, K, &Data[14 * (I % 50) + 7 * (K - 1)],
                                &Countdown[K]);
  }
  SiteStats Out[3];
  CollectSiteStats(M.SiteBase, 3, Out, /*SlotsValid=*/true);
  EXPECT_EQ(Out[1].CopyPairs, 0u);
  EXPECT_EQ(Out[2].CopyPairs, 100u);
  EXPECT_EQ(Out[2].CopyCand, 56);
  EXPECT_EQ(Out[2].CopyCandCount, 100u);
  ResetStridesForTesting();
}
