//===- Views.cpp - The views and export formats ---------------------------===//
//
// Part of ActiveTime. See activetime/Report/Views.h; the tables are built
// from Views.def.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Views.h"
#include "Common.h"

#include <vector>

using namespace llvm;
using namespace activetime;
using namespace activetime::report;

ArrayRef<View> report::reportViews() {
  static const std::vector<View> Views = {
#define ACTIVETIME_REPORT_VIEW(Describe) Describe(),
#include "Views.def"
  };
  return Views;
}

ArrayRef<View> report::exportFormats() {
  static const std::vector<View> Formats = {
#define ACTIVETIME_EXPORT_FORMAT(Describe) Describe(),
#include "Views.def"
  };
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
