//===- WriterBlockCounts.cpp - Block counts sections ----------------------===//
//
// Part of ActiveTime. The raw writer's block counts sections: one per
// linked object of a block-counting build.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

Error rawwriter::checkBlockCounts(const Process &P, size_t Idx) {
  for (const BlockCountTable &T : P.BlockCounts)
    if (!fits32(T.Funcs.size()) || !fits32(T.Counters.size()) ||
        !fits32(T.Values.size()) || !fits32(T.Names.size()))
      return fail(formatv("process {0}: block counts too large", Idx));
  return Error::success();
}

void ProfileWriter::writeBlockCountsSections(const Process &P) {
  for (const BlockCountTable &T : P.BlockCounts) {
    using R = raw::BlockCountsRecord;
    RecordOut<R> H;
    H.set(&R::NumFuncs, T.Funcs.size());
    H.set(&R::NumCounters, T.Counters.size());
    H.set(&R::NumValues, T.Values.size());
    H.set(&R::NamesSize, T.Names.size());
    H.set(&R::ValuesLost, T.ValuesLost);
    SectionBuilder B;
    B.record(H);
    for (const BlockFunc &F : T.Funcs)
      B.add<raw::BlockFuncRecord>(F);
    for (uint64_t N : T.Counters) {
      char Buf[8];
      support::endian::write64le(Buf, N);
      B.bytes(StringRef(Buf, 8));
    }
    for (const BlockValue &V : T.Values)
      B.add<raw::BlockValueRecord>(V);
    B.bytes(T.Names);
    add(raw::SK_BlockCounts, B);
  }
}
