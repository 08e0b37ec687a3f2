//===- hints_fuzzer.cpp - libFuzzer target: prefetch hint files ------------===//
//
// Part of ActiveTime. The hint file the pass reads with
// -activetime-prefetch-use: any text is rejected with an error or parsed
// into hints; never a crash.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeStrides.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<std::vector<activetime::PrefetchHint>> H =
      activetime::parsePrefetchHints(Text, "fuzz.json");
  if (!H)
    consumeError(H.takeError());
  return 0;
}
