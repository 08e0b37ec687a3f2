//===- UnwindTest.cpp - the .eh_frame unwinder of code samples ------------===//
//
// activetime_unwind.h on real frames: one step at an instruction of a
// function of this binary without and with a frame pointer (against the
// return address found on the live stack), one step from a return address,
// and a whole unwind from a comparator called by libc's lfind, through
// libc's frames, to the program function that called lfind.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"
#include "UnwindFrames.h"

#include <link.h>

#include "activetime_unwind.h"

using namespace attest;

namespace {

struct StepResult {
  bool Ok = false;
  uptr Cfa = 0;
  int RaOffset = 0;
  bool BpSaved = false;
  int BpOffset = 0;
  uptr RaAtCfa = 0;      // the word at Cfa + RaOffset, read live
  uptr SavedBp = 0;      // the word at Cfa + BpOffset, read live
  uptr ExpectedCfa = 0;  // 8 past the first slot from Sp up holding Ret
  bool FromRetOk = false; // the same frame stepped from this probe's return
  uptr FromRetCfa = 0;
  uptr CallerBp = 0;     // fp frame: the word at Bp (the caller's rbp)
};

void StepProbe(FrameCapture *C) {
  StepResult &R = *(StepResult *)C->User;
  R.Ok = UnwindStepForTesting(C->Ip, /*Return=*/false, C->Sp, C->Bp, &R.Cfa,
                              &R.RaOffset, &R.BpSaved, &R.BpOffset);
  if (R.Ok) {
    R.RaAtCfa = *(const uptr *)(R.Cfa + R.RaOffset);
    if (R.BpSaved)
      R.SavedBp = *(const uptr *)(R.Cfa + R.BpOffset);
  }
  for (uptr A = C->Sp; A < C->Sp + 65536; A += 8)
    if (*(const uptr *)A == C->Ret) {
      R.ExpectedCfa = A + 8;
      break;
    }
  // This call's return address is in the captured function's body, where
  // its sp is the captured one (nothing is passed on the stack).
  uptr Ret = uptr(__builtin_return_address(0));
  int RaOff, BpOff;
  bool BpSaved;
  R.FromRetOk = UnwindStepForTesting(Ret, /*Return=*/true, C->Sp, C->Bp,
                                     &R.FromRetCfa, &RaOff, &BpSaved, &BpOff);
  if (C->Bp)
    R.CallerBp = *(const uptr *)C->Bp;
}

TEST(UnwindTest, StepWithoutFramePointer) {
  StepResult R;
  FrameCapture C = {};
  C.Probe = StepProbe;
  C.User = &R;
  at_test_nofp_frame(&C);
  ASSERT_TRUE(R.Ok);
  ASSERT_NE(R.ExpectedCfa, 0u);
  printf("nofp frame: CFA = sp + %lu\n", (unsigned long)(R.Cfa - C.Sp));
  EXPECT_EQ(R.Cfa, R.ExpectedCfa);
  EXPECT_GE(R.Cfa - C.Sp, 4000u + 8u); // the array is in the frame
  EXPECT_EQ(R.RaOffset, -8);
  EXPECT_EQ(R.RaAtCfa, C.Ret);
  EXPECT_TRUE(R.FromRetOk);
  EXPECT_EQ(R.FromRetCfa, R.ExpectedCfa);
}

TEST(UnwindTest, StepWithFramePointer) {
  StepResult R;
  FrameCapture C = {};
  C.Probe = StepProbe;
  C.User = &R;
  at_test_fp_frame(&C);
  ASSERT_TRUE(R.Ok);
  EXPECT_EQ(R.Cfa, C.Bp + 16);
  EXPECT_EQ(R.Cfa, R.ExpectedCfa);
  EXPECT_EQ(R.RaOffset, -8);
  EXPECT_EQ(R.RaAtCfa, C.Ret);
  EXPECT_TRUE(R.BpSaved);
  EXPECT_EQ(R.BpOffset, -16);
  EXPECT_EQ(R.SavedBp, R.CallerBp);
  EXPECT_TRUE(R.FromRetOk);
  EXPECT_EQ(R.FromRetCfa, R.Cfa);
}

TEST(UnwindTest, NoUnwindTableNoStep) {
  uptr Cfa;
  int RaOff, BpOff;
  bool BpSaved;
  EXPECT_FALSE(UnwindStepForTesting(0x1000, false, 0x7000, 0, &Cfa, &RaOff,
                                    &BpSaved, &BpOff));
  static char Data[64];
  EXPECT_FALSE(UnwindStepForTesting(uptr(Data), false, 0x7000, 0, &Cfa, &RaOff,
                                    &BpSaved, &BpOff));
}

// The executable's code: the "program" of these unwinds.
struct Range {
  uptr Begin = 0, End = 0;
};
Range ExeCode;

int FindExeCode(struct dl_phdr_info *Info, size_t, void *) {
  if (Info->dlpi_name && Info->dlpi_name[0])
    return 0; // the main program comes first, with an empty name
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uptr B = Info->dlpi_addr + P.p_vaddr;
    uptr Fn = uptr(&at_test_call_lfind);
    if (P.p_type == PT_LOAD && (P.p_flags & PF_X) && Fn >= B && Fn < B + P.p_memsz) {
      ExeCode.Begin = B;
      ExeCode.End = B + P.p_memsz;
      return 1;
    }
  }
  return 0;
}

bool InExe(uptr A) { return A >= ExeCode.Begin && A < ExeCode.End; }

struct Copy {
  uptr Sp;
  const unsigned char *Bytes;
  size_t Size;
};

bool ReadCopy(const void *Ctx, uptr Addr, uptr *Word) {
  const Copy &C = *(const Copy *)Ctx;
  if (Addr < C.Sp || Addr - C.Sp + 8 > C.Size)
    return false;
  std::memcpy(Word, C.Bytes + (Addr - C.Sp), 8);
  return true;
}

// What a code sample in the comparator carries (its registers, a copy of
// the stack above its sp): unwound through libc's lfind frames, it reaches
// the return address of the program's call of lfind.
TEST(UnwindTest, ThroughLibcToTheProgram) {
  static LibcCallCapture Q;
  std::memset(&Q, 0, sizeof(Q));
  at_test_call_lfind(&Q);
  ASSERT_TRUE(Q.Done);
  dl_iterate_phdr(FindExeCode, nullptr);
  ASSERT_TRUE(InExe(uptr(&at_test_call_lfind)));
  // The return address of the lfind call lies in at_test_call_lfind.
  ASSERT_GT(Q.CallerRet, uptr(&at_test_call_lfind));
  ASSERT_LT(Q.CallerRet, uptr(&at_test_call_lfind) + 1024);
  ASSERT_GE(Q.StackBytes, 1024u);
  Copy Cp = {Q.Sp, Q.Stack, Q.StackBytes};
  SampledStack S = {Q.Ip, Q.Sp, Q.Bp, &Cp, ReadCopy};
  EXPECT_EQ(UnwindToProgram(S, InExe), Q.CallerRet);

  // From inside libc: the comparator's return address (in lfind's code)
  // with the sp and rbp lfind has there.
  uptr Cfa;
  int RaOff, BpOff;
  bool BpSaved;
  ASSERT_TRUE(UnwindStepForTesting(Q.Ip, false, Q.Sp, Q.Bp, &Cfa, &RaOff, &BpSaved,
                                   &BpOff));
  uptr LibIp, LibBp = Q.Bp;
  ASSERT_TRUE(ReadCopy(&Cp, Cfa + RaOff, &LibIp));
  if (BpSaved)
    ASSERT_TRUE(ReadCopy(&Cp, Cfa + BpOff, &LibBp));
  EXPECT_FALSE(InExe(LibIp));
  SampledStack L = {LibIp, Cfa, LibBp, &Cp, ReadCopy};
  EXPECT_EQ(UnwindToProgram(L, InExe), Q.CallerRet);

  // Too little of the stack copied: no caller rather than a wrong one.
  Copy Short = {Q.Sp, Q.Stack, 64};
  SampledStack T = {Q.Ip, Q.Sp, Q.Bp, &Short, ReadCopy};
  uptr Got = UnwindToProgram(T, InExe);
  EXPECT_TRUE(Got == 0 || Got == Q.CallerRet) << std::hex << Got;
}

} // namespace
