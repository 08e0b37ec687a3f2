//===- tables_fuzzer.cpp - libFuzzer target: active-time text tables -------===//
//
// Part of ActiveTime. The text tables `activetime active-time` reads (the offline
// active-time computation's three inputs): any text is rejected with an error or parsed, and a
// parsed input runs through the computation's stages without crashing.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/TraceActiveTime.h"

using namespace llvm;
using namespace activetime::active;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<Input> In = parseTables(Text, "fuzz.tables");
  if (!In) {
    consumeError(In.takeError());
    return 0;
  }
  (void)computeActiveTime(*In);
  return 0;
}
