//===- UnwindFramesFp.cpp - a frame with a frame pointer ------------------===//
//
// Compiled with -O2 -fno-omit-frame-pointer (see CMakeLists.txt): the CFA
// is rbp + 16 and rbp is saved at CFA - 16.
//
//===----------------------------------------------------------------------===//

#include "UnwindFrames.h"

extern "C" __attribute__((noinline, no_sanitize("address", "thread", "memory"))) void
at_test_fp_frame(FrameCapture *C) {
  volatile char Buf[256];
  for (int I = 0; I < 256; I += 32)
    Buf[I] = (char)I;
  uintptr_t Ip, Sp, Bp;
  __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
                   : "=r"(Ip), "=r"(Sp), "=r"(Bp));
  C->Ip = Ip;
  C->Sp = Sp;
  C->Bp = Bp;
  C->Ret = (uintptr_t)__builtin_return_address(0);
  C->Probe(C);
  Buf[1] = 1;
}
