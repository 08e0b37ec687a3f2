//===- ReaderBlockCounts.cpp - Block counts sections ----------------------===//
//
// Part of ActiveTime. The raw reader's parser of block counts sections: one
// linked object's IR PGO counters, profiled values and name table.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkBlockCountsOrder() {
  if (!throughStridesComplete())
    return fail(formatv("process (pid {0}): block counts section before the "
                        "block's module, thread, trace and strides sections "
                        "are complete",
                        Cur->Pid));
  if (Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): block counts section after the "
                        "{1} section",
                        Cur->Pid, ParallelSeen ? "parallel" : "samples"));
  if (Cur->BlockCounts.size() == ExpectedBlockCounts)
    return moreThanHeader("block counts", ExpectedBlockCounts);
  return Error::success();
}

Error Parser::parseBlockCounts(Cursor C) {
  uint64_t Size = C.remaining();
  std::string What = formatv("block counts {0} of process (pid {1})",
                             Cur->BlockCounts.size(), Cur->Pid);
  if (Error E = needBytes(C, sizeof(raw::BlockCountsRecord), What))
    return E;
  using R = raw::BlockCountsRecord;
  RecordIn<R> In = C.record<R>();
  uint64_t NumFuncs = In.get(&R::NumFuncs);
  uint64_t NumCounters = In.get(&R::NumCounters);
  uint64_t NumValues = In.get(&R::NumValues);
  uint64_t NamesSize = In.get(&R::NamesSize);
  if (In.get(&R::Flags) || In.get(&R::Reserved))
    return fail(formatv("{0}: flags {1:x} and reserved field {2} are not 0",
                        What, In.get(&R::Flags), In.get(&R::Reserved)));
  if (NumFuncs * sizeof(raw::BlockFuncRecord) + NumCounters * 8 +
          NumValues * sizeof(raw::BlockValueRecord) + NamesSize >
      C.remaining())
    return fail(formatv("{0}: {1} functions, {2} counts, {3} values and {4} "
                        "name bytes overrun the section",
                        What, NumFuncs, NumCounters, NumValues, NamesSize));
  BlockCountTable T;
  T.ValuesLost = In.get(&R::ValuesLost);
  T.Funcs.resize(NumFuncs);
  for (BlockFunc &F : T.Funcs)
    C.record<raw::BlockFuncRecord>().map(F);
  T.Counters.resize(NumCounters);
  for (uint64_t &N : T.Counters)
    N = support::endian::read64le(C.bytes(8).data());
  T.Values.resize(NumValues);
  for (BlockValue &V : T.Values) {
    RecordIn<raw::BlockValueRecord> VIn = C.record<raw::BlockValueRecord>();
    VIn.map(V);
    if (uint32_t Reserved = VIn.get(&raw::BlockValueRecord::Reserved))
      return fail(formatv("{0}: a value's reserved field is {1}, not 0",
                          What, Reserved));
  }
  T.Names = C.bytes(NamesSize).str();
  if (Error E = checkBlockCounts(T, What))
    return E;
  Cur->BlockCounts.push_back(std::move(T));
  return checkPadding(C, Size, What);
}

/// Every function's counters inside the table, every value on a site of its
/// function.
Error Parser::checkBlockCounts(const BlockCountTable &T,
                               const std::string &What) {
  for (size_t I = 0; I < T.Funcs.size(); ++I) {
    const BlockFunc &F = T.Funcs[I];
    if (uint64_t(F.FirstCounter) + F.NumCounters > T.Counters.size())
      return fail(formatv("{0}: function {1}'s counters [{2}, +{3}) overrun "
                          "the {4} counts",
                          What, I, F.FirstCounter, F.NumCounters,
                          T.Counters.size()));
  }
  for (size_t I = 0; I < T.Values.size(); ++I) {
    const BlockValue &V = T.Values[I];
    if (V.Func >= T.Funcs.size())
      return fail(formatv("{0}: value {1}: function {2} out of range", What,
                          I, V.Func));
    const BlockFunc &F = T.Funcs[V.Func];
    if (V.Kind > 1)
      return fail(formatv("{0}: value {1}: unknown value kind {2}", What, I,
                          V.Kind));
    uint32_t Sites = V.Kind == 0 ? F.IndirectSites : F.MemOpSites;
    if (V.Site >= Sites)
      return fail(formatv("{0}: value {1}: site {2} of a function with {3}",
                          What, I, V.Site, Sites));
  }
  return Error::success();
}
