//===- ExportSymbolOrder.cpp - Hot functions first ------------------------===//
//
// Part of ActiveTime. `export --format=symbol-order`.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/Report/Export.h"

#include "llvm/ADT/StringSet.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// Linkage names, hottest first, one per line: the input of ld.lld's
/// --symbol-ordering-file (with -ffunction-sections). Functions that ran but
/// have no positive figure keep their place after the hot ones (they ran, so
/// packing them near the hot code still helps); names are listed once.
Error report::writeSymbolOrder(const Profile &P, raw_ostream &OS,
                               const ExportOptions &O, Progress &Prog) {
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  std::vector<FunctionStats> Rows = A.Flat;
  sortFunctions(Rows, A.Functions,
                O.OrderBy == SymbolOrderKey::Calls ? SortKey::Calls
                                           : SortKey::SelfActive);
  StringSet<> Seen;
  for (const FunctionStats &F : Rows) {
    if (!F.S.Calls)
      continue;
    const std::string &Name = A.Functions[F.Func].Name;
    if (Seen.insert(Name).second)
      OS << Name << '\n';
  }
  return Error::success();
}
