//===- options_fuzzer.cpp - libFuzzer target: ACTIVETIME_OPTIONS ------------===//
//
// Part of ActiveTime. The runtime's flag parser (sanitizer_common's
// FlagParser behind our unknown-flag check): any string either parses or is
// refused. A refused string makes the runtime print one line and exit at
// start-up, as the sanitizers do; here the die callback jumps back instead,
// so the fuzzer sees only real crashes.
//
//===----------------------------------------------------------------------===//

#include "activetime_flags.h"
#include "activetime_internal.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

using namespace __activetime;

static jmp_buf Back;
static bool Armed;

static void BackToFuzzer() {
  if (Armed)
    longjmp(Back, 1);
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  AddDieCallback(BackToFuzzer);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // The environment has no NULs: the string ends at the first one.
  char *S = (char *)malloc(Size + 1);
  memcpy(S, Data, Size);
  S[Size] = 0;
  Flags F;
  F.SetDefaults();
  FlagError Err;
  if (setjmp(Back) == 0) {
    Armed = true;
    if (!ParseFlags(&F, S, &Err)) {
      char Msg[320];
      FormatFlagError(Err, Msg, sizeof(Msg)); // the line the runtime prints
    }
  }
  Armed = false;
  free(S);
  return 0;
}
