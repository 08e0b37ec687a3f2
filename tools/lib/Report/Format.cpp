//===- Format.cpp - Times and names as users read them --------------------===//
//
// Part of ActiveTime. See activetime/Report/Format.h and Common.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "Common.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Names.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"

#include <charconv>
#include <cmath>
#include <cstdio>

using namespace llvm;
using namespace activetime;

/// A non-negative time in its unit. snprintf rather than formatv, which
/// parses its format string on every call: a tree of a million rows prints
/// seven times a row.
static std::string magnitude(double Ns) {
  char Buf[64];
  if (Ns < 999.5)
    snprintf(Buf, sizeof(Buf), "%.0f ns", Ns);
  else if (Ns < 999999.5)
    snprintf(Buf, sizeof(Buf), "%.3f us", Ns / 1e3);
  else if (Ns < 999999999.5)
    snprintf(Buf, sizeof(Buf), "%.3f ms", Ns / 1e6);
  else
    snprintf(Buf, sizeof(Buf), "%.3f s ", Ns / 1e9);
  return Buf;
}

std::string report::formatTime(double Ns) {
  if (std::isnan(Ns))
    return "nan";
  std::string M = magnitude(std::fabs(Ns));
  // The sign only where a digit printed is not zero: a value that rounds
  // to zero is zero, never "-0 ns".
  bool Zero = StringRef(M).find_first_of("123456789") == StringRef::npos;
  return Ns < 0 && !Zero ? "-" + M : M;
}

std::string report::plainTime(double Ns) {
  return StringRef(formatTime(Ns)).rtrim().str();
}

std::string report::formatBytes(uint64_t Bytes) {
  if (Bytes < 1024)
    return formatv("{0} B", Bytes);
  if (Bytes < (uint64_t(1) << 20))
    return formatv("{0:F1} KiB", double(Bytes) / 1024);
  if (Bytes < (uint64_t(1) << 30))
    return formatv("{0:F1} MiB", double(Bytes) / (1 << 20));
  return formatv("{0:F1} GiB", double(Bytes) / (1 << 30));
}

std::string report::displayName(const std::string &Name, bool Demangle) {
  StringRef Source = profile::sourceFunctionName(Name);
  return (Demangle && Name != profile::kOutsideFrame)
             ? llvm::demangle(Source)
             : Source.str();
}

double report::jsonNs(double Ns) { return Ns == 0 ? 0.0 : Ns; }

// The internal helpers of Common.h.

const char report::kGenerator[] = "activetime " ACTIVETIME_VERSION_STRING;
const char report::kOffCpuFrame[] = "[off-CPU]";
const char report::kCountedMark[] = " [counted]";
const char report::kOutsideProbesMark[] = " [outside probes]";

std::string report::sampleFrameName(const FunctionNamer &Names,
                                    const profile::SampleFrame &F) {
  if (F.Func == profile::kOutsideFunc)
    return profile::kOutsideFrame;
  return Names.name(F.Func) + (F.OutsideProbes ? kOutsideProbesMark
                               : F.Counted     ? kCountedMark
                                               : "");
}

Error report::noSamplesError() {
  return createStringError(inconvertibleErrorCode(),
                           "the profile has no samples (run the program "
                           "with ACTIVETIME_OPTIONS=sample=1)");
}

Error report::noTraceError() {
  return createStringError(inconvertibleErrorCode(),
                           "the profile has no trace data (run the program "
                           "with ACTIVETIME_OPTIONS=mode=trace)");
}

void report::functionIdentityJson(json::OStream &J, StringRef LinkageName,
                                  bool Local, StringRef Module, StringRef File,
                                  uint32_t Line) {
  J.attribute("linkage_name", profile::sourceFunctionName(LinkageName));
  J.attribute("local", Local);
  if (Local)
    J.attribute("module", Module);
  J.attribute("file", File);
  J.attribute("line", int64_t(Line));
}

void report::jsonNumber(json::OStream &J, double V) {
  if (!std::isfinite(V))
    return J.value(nullptr);
  // A whole number as an integer, as "%.17g" writes it (to_chars would
  // take "6e+05" for 600000, being shorter).
  if (V == std::trunc(V) && std::fabs(V) < 1e15)
    return J.value(int64_t(V));
  char Buf[64];
  std::to_chars_result R = std::to_chars(Buf, Buf + sizeof(Buf), V);
  J.rawValue(StringRef(Buf, R.ptr - Buf));
}

void report::jsonNumber(json::OStream &J, StringRef Key, double V) {
  J.attributeBegin(Key);
  jsonNumber(J, V);
  J.attributeEnd();
}

void report::jsonNumber(json::OStream &J, StringRef Key,
                        std::optional<double> V) {
  if (V)
    return jsonNumber(J, Key, *V);
  J.attribute(Key, nullptr);
}

bool report::isDeepIndent(uint32_t Depth) { return Depth > kIndentLevels + 1; }

std::string report::treeIndent(uint32_t Depth) {
  uint32_t Level = Depth ? Depth - 1 : 0;
  if (!isDeepIndent(Depth))
    return std::string(2 * Level, ' ');
  return std::string(2 * kIndentLevels, ' ') + "[depth " + utostr(Depth) +
         "] ";
}

const char report::kDeepIndentNote[] =
    "[depth N]: a node more than 40 levels down, indented as the 40th level "
    "(N: its depth, the roots' being 1)";

std::string report::percent(double Fraction) {
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.1f%%", 100.0 * Fraction);
  return Buf;
}

std::string report::percentOf(double Part, double Whole) {
  return Whole > 0 ? formatv("{0:F1}%", 100.0 * Part / Whole).str()
                   : std::string("-");
}
