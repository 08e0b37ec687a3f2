//===- UnwindFrames.h - real frames for the unwinder tests ----------------===//
//
// Functions with known frames, compiled with fixed flags (UnwindFrames.cpp
// without frame pointers, UnwindFramesFp.cpp with them; see CMakeLists.txt),
// that capture their own registers and call back while their frame is live.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNITTESTS_RUNTIME_UNWIND_FRAMES_H
#define ACTIVETIME_UNITTESTS_RUNTIME_UNWIND_FRAMES_H

#include <cstddef>
#include <cstdint>

struct FrameCapture {
  // At an instruction of the function's body, after its prologue.
  uintptr_t Ip, Sp, Bp;
  uintptr_t Ret; // the function's return address
  // Called from the body (so with the frame live); gets the capture.
  void (*Probe)(FrameCapture *C);
  void *User;
};

// A 4000-byte local array, no frame pointer.
extern "C" void at_test_nofp_frame(FrameCapture *C);
// The same with a frame pointer (rbp).
extern "C" void at_test_fp_frame(FrameCapture *C);

// lfind (libc) called from the program with a comparator that, at its
// first call, records its registers and a copy of the stack above its sp:
// what a code sample taken there carries.
struct LibcCallCapture {
  uintptr_t Ip, Sp, Bp;    // in the comparator
  uintptr_t CallerSp;      // at_test_call_lfind's sp at its call of lfind
  uintptr_t CallerRet;     // the return address of that call (read live)
  uintptr_t StackTop;      // end of the thread's stack
  size_t StackBytes;       // bytes copied from Sp
  bool Done;
  alignas(16) unsigned char Stack[16384];
};
extern "C" void at_test_call_lfind(LibcCallCapture *C);

#endif
