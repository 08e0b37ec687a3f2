//===- FormatTest.cpp - Times and names as users read them ----------------===//
//
// Part of ActiveTime. A time that rounds to zero is "0 ns", never "-0 ns";
// a timed copy's name never reaches a user, demangled or not; one namer
// gives every view its names: short (distinct), full or linkage, with the
// module of an ambiguous local function where the view's rule wants it.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "activetime/Report/Names.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace activetime;
using namespace activetime::report;

namespace {

TEST(FormatTime, NoNegativeZero) {
  EXPECT_EQ(formatTime(-0.3), "0 ns");
  EXPECT_EQ(formatTime(-0.0), "0 ns");
  EXPECT_EQ(formatTime(0.49), "0 ns");
  EXPECT_EQ(formatTime(-0.6), "-1 ns"); // a digit that is not zero
  EXPECT_EQ(formatTime(-11631), "-11.631 us");
  EXPECT_EQ(formatTime(-999.6), "-1.000 us");
  EXPECT_EQ(formatTime(-0.0004e6), "-400 ns");
  EXPECT_EQ(formatTime(2e9), "2.000 s ");
  EXPECT_EQ(plainTime(2e9), "2.000 s");
  EXPECT_EQ(jsonNs(-0.0), 0.0);
  EXPECT_FALSE(std::signbit(jsonNs(-0.0)));
}

TEST(DisplayName, TimedCopyIsItsFunction) {
  EXPECT_EQ(displayName("_Z1fv.activetime.timed", true), "f()");
  EXPECT_EQ(displayName("_Z1fv.activetime.timed", false), "_Z1fv");
  EXPECT_EQ(displayName("helper.activetime.timed.cold.1", false), "helper");
  EXPECT_EQ(displayName("_Z1fv", true), "f()");
}

/// twice<double>, twice<int>, a static helper in two modules, and a function
/// outside the flat table.
profile::Aggregate namedAggregate() {
  profile::Aggregate A;
  A.Functions = {{"_Z5twiceIdET_S0_", "", false, "", 0},
                 {"_Z5twiceIiET_S0_", "", false, "", 0},
                 {"helper", "src/a.c", true, "", 0},
                 {"helper", "src/b.c", true, "", 0},
                 {"_ZNSt6vectorIiSaIiEE9push_backEOi", "", false, "", 0}};
  for (uint32_t F = 0; F < 4; ++F)
    A.Flat.push_back({F, {}, 0});
  return A;
}

TEST(FunctionNamer, ShortFullAndLinkage) {
  profile::Aggregate A = namedAggregate();
  FunctionNamer Short(A, NameOptions());
  EXPECT_EQ(Short.name(0), "twice<...>(double)");
  EXPECT_EQ(Short.name(1), "twice<...>(int)");
  EXPECT_EQ(Short.name(2), "helper [a.c]");
  EXPECT_EQ(Short.name(3), "helper [b.c]");
  // Outside the flat table: no short name to make distinct.
  EXPECT_EQ(Short.name(4),
            displayName("_ZNSt6vectorIiSaIiEE9push_backEOi", true));
  EXPECT_EQ(Short.fullName(0), displayName("_Z5twiceIdET_S0_", true));
  EXPECT_EQ(Short.name("_Z1fv.activetime.timed"), "f()");

  NameOptions Full;
  Full.FullNames = true;
  FunctionNamer F(A, Full);
  EXPECT_EQ(F.name(0), displayName("_Z5twiceIdET_S0_", true));
  EXPECT_EQ(F.shortName(0), "twice<...>(double)");
  EXPECT_EQ(F.name(2), "helper [a.c]");

  NameOptions Linkage;
  Linkage.Demangle = false;
  FunctionNamer L(A, Linkage);
  EXPECT_EQ(L.name(0), "_Z5twiceIdET_S0_");
  EXPECT_EQ(L.shortName(0), "_Z5twiceIdET_S0_");
  EXPECT_EQ(L.name(3), "helper [b.c]");
  EXPECT_EQ(L.name("_Z1fv.activetime.timed"), "_Z1fv");
}

TEST(FunctionNamer, EachUseHasItsRule) {
  NameOptions Asked; // the defaults: demangled, short, with the module
  NameOptions Arcs = namesFor(NameUse::JsonCallSite, Asked);
  EXPECT_TRUE(Arcs.Demangle && Arcs.FullNames && !Arcs.ModuleSuffix);
  NameOptions Sampled = namesFor(NameUse::FullName, Asked);
  EXPECT_TRUE(Sampled.FullNames && Sampled.ModuleSuffix);
  NameOptions Symbols = namesFor(NameUse::Linkage, Asked);
  EXPECT_FALSE(Symbols.Demangle || Symbols.ModuleSuffix);
  Asked.Demangle = false;
  EXPECT_FALSE(namesFor(NameUse::TraceFrame, Asked).Demangle);
  // --parallel reads no naming option: demangled always.
  EXPECT_TRUE(namesFor(NameUse::Region, Asked).Demangle);
  EXPECT_EQ(namesFor(NameUse::Asked, Asked).Demangle, false);

  profile::Aggregate A = namedAggregate();
  FunctionNamer N(A, namesFor(NameUse::JsonCallSite, NameOptions()));
  EXPECT_EQ(N.name(2), "helper");
}

} // namespace
