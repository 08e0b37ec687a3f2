//===- FormatTest.cpp - Times and names as users read them ----------------===//
//
// Part of ActiveTime. A time that rounds to zero is "0 ns", never "-0 ns";
// a timed copy's name never reaches a user, demangled or not.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"

#include "gtest/gtest.h"

#include <cmath>

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

} // namespace
