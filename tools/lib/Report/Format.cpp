//===- Format.cpp - Times and names as users read them --------------------===//
//
// Part of ActiveTime. See activetime/Report/Format.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "activetime/Profile/Samples.h"

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

std::string report::displayName(const std::string &Name, bool Demangle) {
  return (Demangle && Name != profile::kOutsideFrame) ? llvm::demangle(Name)
                                                      : Name;
}
