//===- ViewsTest.cpp - Every view and export format is registered ---------===//
//
// Part of ActiveTime. Each view and format registers itself from its own
// file (activetime/Report/Views.h); a file whose registration the link
// dropped would leave its view out of the tables without an error. The
// tables hold every one, in the order --help and the error messages name
// them, with unique ranks and names.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Views.h"

#include "gtest/gtest.h"

#include <set>
#include <string>
#include <vector>

using namespace activetime;
using namespace activetime::report;

namespace {

std::vector<std::string> names(llvm::ArrayRef<View> Table) {
  std::vector<std::string> Names;
  for (const View &V : Table)
    Names.push_back(V.Name);
  return Names;
}

void expectUniqueRanksAndNames(llvm::ArrayRef<View> Table) {
  std::set<std::string> Names;
  for (size_t I = 0; I < Table.size(); ++I) {
    EXPECT_TRUE(Names.insert(Table[I].Name).second) << Table[I].Name;
    if (I)
      EXPECT_LT(Table[I - 1].Rank, Table[I].Rank)
          << Table[I - 1].Name << " and " << Table[I].Name;
  }
}

TEST(Views, ReportViewsInOrder) {
  EXPECT_EQ(names(reportViews()),
            (std::vector<std::string>{"header", "strides", "samples",
                                      "parallel", "latency", "html", "time"}));
  expectUniqueRanksAndNames(reportViews());
  // The time report, chosen by no option, is the one default and the last.
  for (const View &V : reportViews())
    EXPECT_EQ(V.Default, &V == &reportViews().back()) << V.Name;
}

TEST(Views, ExportFormatsInOrder) {
  EXPECT_EQ(names(exportFormats()),
            (std::vector<std::string>{"prefetch", "folded", "json", "chrome",
                                      "speedscope", "symbol-order", "pgo",
                                      "sample-profile", "pprof"}));
  expectUniqueRanksAndNames(exportFormats());
  for (const View &F : exportFormats()) {
    EXPECT_FALSE(F.Default) << F.Name;
    EXPECT_NE(F.Write, nullptr) << F.Name;
    EXPECT_EQ(findExportFormat(F.Name), &F);
  }
  EXPECT_EQ(findExportFormat("nope"), nullptr);
}

} // namespace
