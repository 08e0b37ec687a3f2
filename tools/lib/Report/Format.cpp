//===- Format.cpp - Times and names as users read them --------------------===//
//
// Part of ActiveTime. See activetime/Report/Format.h and Common.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "Common.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;

std::string report::formatTime(double Ns) {
  if (Ns < 0)
    return "-" + formatTime(-Ns);
  if (Ns < 999.5)
    return formatv("{0:F0} ns", Ns);
  if (Ns < 999999.5)
    return formatv("{0:F3} us", Ns / 1e3);
  if (Ns < 999999999.5)
    return formatv("{0:F3} ms", Ns / 1e6);
  return formatv("{0:F3} s ", Ns / 1e9);
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
  return (Demangle && Name != profile::kOutsideFrame) ? llvm::demangle(Name)
                                                      : Name;
}

// The internal helpers of Common.h.

const char report::kGenerator[] = "activetime " ACTIVETIME_VERSION_STRING;
const char report::kOffCpuFrame[] = "[off-CPU]";
const char report::kCountedMark[] = " [counted]";

std::string report::sampleFrameName(const ReportModel &M,
                                    const profile::SampleFrame &F) {
  if (F.Func == profile::kOutsideFunc)
    return profile::kOutsideFrame;
  return M.name(F.Func) + (F.Counted ? kCountedMark : "");
}

StringRef report::sourceFunctionName(StringRef Name) {
  std::string Demangled = std::string(" (") + abi::kTimedCopySuffix + ")";
  if (!Name.consume_back(Demangled))
    Name.consume_back(abi::kTimedCopySuffix);
  return Name;
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
  J.attribute("linkage_name", LinkageName);
  J.attribute("local", Local);
  if (Local)
    J.attribute("module", Module);
  J.attribute("file", File);
  J.attribute("line", int64_t(Line));
}

std::string report::percent(double Fraction) {
  return formatv("{0:F1}%", 100.0 * Fraction);
}

std::string report::percentOf(double Part, double Whole) {
  return Whole > 0 ? formatv("{0:F1}%", 100.0 * Part / Whole).str()
                   : std::string("-");
}
