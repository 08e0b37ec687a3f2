//===- ExportSymbolOrder.cpp - Hot functions first ------------------------===//
//
// Part of ActiveTime. `export --format=symbol-order`.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Aggregate.h"

#include "llvm/ADT/StringSet.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// Linkage names, hottest first, one per line: the input of ld.lld's
/// --symbol-ordering-file (with -ffunction-sections). Functions that ran but
/// have no positive figure keep their place after the hot ones (they ran, so
/// packing them near the hot code still helps); names are listed once.
static Error writeSymbolOrder(const Profile &P, const ViewOptions &O,
                              raw_ostream &OS, Progress &Prog) {
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  FunctionNamer Names(A, O.names(NameUse::Linkage));
  std::vector<FunctionStats> Rows = A.Flat;
  sortFunctions(Rows, A.Functions,
                O.OrderBy == SymbolOrderKey::Calls ? SortKey::Calls
                                           : SortKey::SelfActive);
  StringSet<> Seen;
  for (const FunctionStats &F : Rows) {
    if (!F.S.Calls)
      continue;
    std::string Name = Names.name(F.Func);
    if (Seen.insert(Name).second)
      OS << Name << '\n';
  }
  return Error::success();
}

static View symbolOrderFormat() {
  View V;
  V.Name = "symbol-order";
  V.Description = "hot functions first, for ld.lld --symbol-ordering-file";
  V.Reads = "order-by";
  V.Write = writeSymbolOrder;
  return V;
}
static ViewRegistration RegisterSymbolOrderFormat(ViewKind::Export, 60,
                                                  symbolOrderFormat);
