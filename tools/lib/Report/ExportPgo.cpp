//===- ExportPgo.cpp - `export --format=pgo` ------------------------------===//
//
// Part of ActiveTime. Writes the block counts of a training build (built
// with `activetime pgo-flags train`) as LLVM's indexed instrumentation
// profile, the input of `clang -fprofile-instr-use=`, with LLVM's own
// InstrProfWriter. The counters are the ones LLVM's IR PGO instrumentation
// placed, so each record carries the CFG hash and counter order that
// -fprofile-instr-use checks; the counts are exact (per thread, summed) and
// add up over every process and run the profile holds. Indirect call
// targets and memory intrinsic sizes are LLVM's value profiles.
//
// A profile without block counts is refused: call counts and times are not
// block frequencies, and a profile that guesses them makes programs slower.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfWriter.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// One function's values: kind -> site -> value -> count.
using SiteValues = std::map<uint64_t, uint64_t>;
using FuncValues = std::vector<std::vector<SiteValues>>;

std::vector<FuncValues> valuesByFunction(const BlockCountTable &T) {
  std::vector<FuncValues> Out(T.Funcs.size());
  for (size_t I = 0; I < T.Funcs.size(); ++I)
    Out[I] = {std::vector<SiteValues>(T.Funcs[I].IndirectSites),
              std::vector<SiteValues>(T.Funcs[I].MemOpSites)};
  for (const BlockValue &V : T.Values)
    Out[V.Func][V.Kind][V.Site][V.Value] += V.Count;
  return Out;
}

void addValues(NamedInstrProfRecord &R, const FuncValues &Values) {
  for (uint32_t Kind = 0; Kind < Values.size(); ++Kind) {
    R.reserveSites(Kind, Values[Kind].size());
    for (uint32_t Site = 0; Site < Values[Kind].size(); ++Site) {
      std::vector<InstrProfValueData> VD;
      for (auto [Value, Count] : Values[Kind][Site])
        VD.push_back({Value, Count});
      R.addValueData(Kind, Site, VD, /*SymTab=*/nullptr);
    }
  }
}

/// Adds one linked object's records; returns how many.
Expected<size_t> addTable(InstrProfWriter &W, const BlockCountTable &T,
                          size_t Proc) {
  InstrProfSymtab Symtab;
  if (Error E = Symtab.create(StringRef(T.Names)))
    return createStringError(inconvertibleErrorCode(),
                             "process %zu: the block counts' name table: %s",
                             Proc, toString(std::move(E)).c_str());
  std::vector<FuncValues> Values = valuesByFunction(T);
  Error Warning = Error::success();
  for (size_t I = 0; I < T.Funcs.size(); ++I) {
    const BlockFunc &F = T.Funcs[I];
    StringRef Name = Symtab.getFuncOrVarName(F.NameRef);
    if (Name.empty())
      return createStringError(inconvertibleErrorCode(),
                               "process %zu: block counts of a function "
                               "(NameRef %016llx) missing from the name table",
                               Proc, (unsigned long long)F.NameRef);
    ArrayRef<uint64_t> Counts(T.Counters.data() + F.FirstCounter,
                              F.NumCounters);
    NamedInstrProfRecord R(Name, F.FuncHash,
                           std::vector<uint64_t>(Counts.begin(), Counts.end()));
    addValues(R, Values[I]);
    W.addRecord(std::move(R), 1, [&](Error E) {
      Warning = joinErrors(std::move(Warning), std::move(E));
    });
  }
  if (Warning)
    return std::move(Warning);
  return T.Funcs.size();
}

Error writePgo(const Profile &P, const ViewOptions &O, raw_ostream &OS,
               Progress &Prog) {
  Prog.phase("block counts");
  InstrProfWriter W;
  if (Error E = W.mergeProfileKind(InstrProfKind::IRInstrumentation))
    return E;
  size_t Records = 0;
  uint64_t Lost = 0;
  for (size_t I = 0; I < P.Processes.size(); ++I)
    for (const BlockCountTable &T : P.Processes[I].BlockCounts) {
      Expected<size_t> N = addTable(W, T, I);
      if (!N)
        return N.takeError();
      Records += *N;
      Lost += T.ValuesLost;
    }
  if (!Records)
    return createStringError(
        inconvertibleErrorCode(),
        "the profile has no block counts (call counts and times are not "
        "block frequencies); build the training program with the flags "
        "`activetime pgo-flags train` prints");
  std::unique_ptr<MemoryBuffer> Buf = W.writeBuffer();
  if (!Buf)
    return createStringError(inconvertibleErrorCode(),
                             "writing the indexed profile failed");
  OS << Buf->getBuffer();
  if (Lost)
    errs() << formatv("activetime: note: {0} value profiling calls were not "
                      "recorded (a thread without its copies, or a full "
                      "table); the blocks' counts are complete\n",
                      Lost);
  return Error::success();
}

} // namespace

static View pgoFormat() {
  View V;
  V.Name = "pgo";
  V.Description = "LLVM indexed profile for clang -fprofile-instr-use, from "
                  "a training build's block counts (activetime pgo-flags)";
  V.CallFilters = false;
  V.Write = writePgo;
  return V;
}
static ViewRegistration RegisterPgoFormat(ViewKind::Export, 70, pgoFormat);
