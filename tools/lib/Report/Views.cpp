//===- Views.cpp - The views and export formats ---------------------------===//
//
// Part of ActiveTime. See activetime/Report/Views.h; the tables are built
// from the ViewRegistration objects of the views' own files.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <vector>

using namespace llvm;
using namespace activetime;
using namespace activetime::report;

namespace {

struct Registered {
  ViewKind Kind;
  unsigned Rank;
  View (*Describe)();
};

/// The registrations, in the order of static initialization; and whether a
/// table has been built from them. Function-local statics: the
/// registrations run during static initialization, in any order.
std::vector<Registered> &registrations() {
  static std::vector<Registered> R;
  return R;
}
bool &tablesBuilt() {
  static bool Built = false;
  return Built;
}

std::vector<View> buildTable(ViewKind Kind) {
  tablesBuilt() = true;
  std::vector<View> Table;
  for (const Registered &R : registrations())
    if (R.Kind == Kind) {
      Table.push_back(R.Describe());
      Table.back().Rank = R.Rank;
    }
  llvm::sort(Table,
             [](const View &A, const View &B) { return A.Rank < B.Rank; });
  for (size_t I = 1; I < Table.size(); ++I)
    if (Table[I - 1].Rank == Table[I].Rank)
      report_fatal_error("views " + Twine(Table[I - 1].Name) + " and " +
                         Table[I].Name + " have the same rank " +
                         Twine(Table[I].Rank));
  return Table;
}

} // namespace

ViewRegistration::ViewRegistration(ViewKind Kind, unsigned Rank,
                                   View (*Describe)()) {
  // A table built before now would lack this view.
  if (tablesBuilt())
    report_fatal_error("a view registered after the view tables were built "
                       "(read them after static initialization)");
  registrations().push_back({Kind, Rank, Describe});
}

ArrayRef<View> report::reportViews() {
  static const std::vector<View> Views = buildTable(ViewKind::Report);
  return Views;
}

ArrayRef<View> report::exportFormats() {
  static const std::vector<View> Formats = buildTable(ViewKind::Export);
  return Formats;
}

const View *report::findExportFormat(StringRef Name) {
  for (const View &F : exportFormats())
    if (Name == F.Name)
      return &F;
  return nullptr;
}

void report::printFiltersLine(const ViewOptions &O, raw_ostream &OS) {
  if (O.Filters && !O.Filters->empty())
    OS << "filters: " << O.Filters->describe() << "\n";
}
