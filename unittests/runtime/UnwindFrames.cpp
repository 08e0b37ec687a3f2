//===- UnwindFrames.cpp - frames without a frame pointer ------------------===//
//
// Compiled with -O2 -fomit-frame-pointer whatever the build type (see
// CMakeLists.txt): the unwinder must follow rsp-based CFA rules here.
//
//===----------------------------------------------------------------------===//

#include "UnwindFrames.h"

#include <pthread.h>
#include <search.h>
#include <stdlib.h>

#define AT_FRAME_ATTRS                                                         \
  __attribute__((noinline, no_sanitize("address", "thread", "memory")))

#define AT_CAPTURE(Ip, Sp, Bp)                                                 \
  __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"        \
                   : "=r"(Ip), "=r"(Sp), "=r"(Bp))

extern "C" AT_FRAME_ATTRS void at_test_nofp_frame(FrameCapture *C) {
  volatile char Buf[4000];
  for (int I = 0; I < 4000; I += 64)
    Buf[I] = (char)(I >> 6);
  uintptr_t Ip, Sp, Bp;
  AT_CAPTURE(Ip, Sp, Bp);
  C->Ip = Ip;
  C->Sp = Sp;
  C->Bp = Bp;
  C->Ret = (uintptr_t)__builtin_return_address(0);
  C->Probe(C);
  Buf[1] = 1; // live across the call
}

namespace {
LibcCallCapture *Current;

AT_FRAME_ATTRS int Compare(const void *A, const void *B) {
  LibcCallCapture *C = Current;
  if (C && !C->Done) {
    uintptr_t Ip, Sp, Bp;
    AT_CAPTURE(Ip, Sp, Bp);
    C->Ip = Ip;
    C->Sp = Sp;
    C->Bp = Bp;
    size_t N = C->StackTop - Sp;
    if (N > sizeof(C->Stack))
      N = sizeof(C->Stack);
    N &= ~size_t(7);
    // Word by word, as the kernel copies a sampled stack (no libc call).
    const volatile uintptr_t *From = (const volatile uintptr_t *)Sp;
    uintptr_t *To = (uintptr_t *)C->Stack;
    for (size_t I = 0; I < N / 8; ++I)
      To[I] = From[I];
    C->StackBytes = N;
    C->CallerRet = *(const volatile uintptr_t *)(C->CallerSp - 8);
    C->Done = true;
  }
  int X = *(const int *)A, Y = *(const int *)B;
  return X < Y ? -1 : X > Y;
}
} // namespace

extern "C" AT_FRAME_ATTRS void at_test_call_lfind(LibcCallCapture *C) {
  pthread_attr_t Attr;
  void *Addr = nullptr;
  size_t Size = 0;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    pthread_attr_getstack(&Attr, &Addr, &Size);
    pthread_attr_destroy(&Attr);
  }
  C->StackTop = (uintptr_t)Addr + Size;
  C->Done = false;
  Current = C;
  int V[16] = {9, 3, 14, 1, 7, 12, 0, 5, 15, 2, 11, 6, 13, 4, 10, 8};
  uintptr_t Sp;
  // The return address of the lfind call goes just below this sp (no
  // argument is passed on the stack).
  __asm__ volatile("mov %%rsp, %0" : "=r"(Sp));
  C->CallerSp = Sp;
  // lfind, not qsort: the sanitizers intercept qsort (and bsearch), so
  // under them its frames would be the program's own.
  int Key = 8;
  size_t N = 16;
  lfind(&Key, V, &N, sizeof(int), Compare);
  Current = nullptr;
  __asm__ volatile("" ::"r"(V) : "memory");
}
