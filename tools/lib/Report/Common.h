//===- Common.h - What several report files say the same way ----*- C++ -*-===//
//
// Part of ActiveTime. Internal to the ActiveTimeReport library: the errors
// for missing data and the percentage format that more than one view
// prints, kept in one place so they cannot drift apart. (Times and names
// are in the public activetime/Report/Format.h.)
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_COMMON_H
#define ACTIVETIME_REPORT_COMMON_H

#include "llvm/Support/Error.h"

#include <string>

namespace activetime {
namespace report {

/// The profile has no samples: the run did not set sample=1.
llvm::Error noSamplesError();
/// The profile has no trace data: the run did not set mode=trace.
llvm::Error noTraceError();

/// \p Fraction as a percentage with one decimal ("12.5%").
std::string percent(double Fraction);
/// \p Part as a percentage of \p Whole, "-" when there is no whole.
std::string percentOf(double Part, double Whole);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_COMMON_H
