//===- activetime/Report/Format.h - Times and names as users read them -*- C++ -*-===//
//
// Part of ActiveTime. The formatting every printed view shares, so a time or
// a function name reads the same in each.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_FORMAT_H
#define ACTIVETIME_REPORT_FORMAT_H

#include <cstdint>
#include <string>

namespace activetime {
namespace report {

/// A time with a unit chosen by its magnitude (ns, us, ms, s), three
/// decimals above ns; "s" is padded to the width of the other units so
/// right-aligned columns line up. Negative times keep their sign unless
/// they print as zero ("0 ns", never "-0 ns"). Every view prints a time
/// through this (the HTML pages' fmtNs, html/common.js, is its copy).
std::string formatTime(double Ns);
/// formatTime without the alignment padding, for running text.
std::string plainTime(double Ns);
/// A size in bytes with a binary unit: "512 B", "64.0 KiB", "12.0 MiB".
std::string formatBytes(uint64_t Bytes);
/// \p Name demangled when \p Demangle is set; ActiveTime's own frame names
/// ("<outside the program>" and the like) are kept as they are. A timed
/// copy's name is its function's (profile::sourceFunctionName) either way.
/// The views name functions through FunctionNamer (Names.h), which uses
/// this.
std::string displayName(const std::string &Name, bool Demangle);
/// A time for a JSON document: -0 (a negative value rounded away, or a
/// zero difference of negatives) written as 0.
double jsonNs(double Ns);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_FORMAT_H
