//===- Names.cpp - How the views name functions ---------------------------===//
//
// Part of ActiveTime. See activetime/Report/Names.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Names.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/ShortNames.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

NameOptions report::namesFor(NameUse Use, const NameOptions &Asked) {
  NameOptions O = Asked;
  switch (Use) {
  case NameUse::Asked:
    break;
  case NameUse::JsonCallSite:
  case NameUse::StrideSite:
  case NameUse::TraceFrame:
    O.FullNames = true;
    O.ModuleSuffix = false;
    break;
  case NameUse::FullName:
    O.FullNames = true;
    break;
  case NameUse::Region:
    O.Demangle = true;
    O.FullNames = true;
    O.ModuleSuffix = false;
    break;
  case NameUse::Linkage:
    O.Demangle = false;
    O.FullNames = true;
    O.ModuleSuffix = false;
    break;
  }
  return O;
}

FunctionNamer::FunctionNamer(NameOptions O) : O(O) {}

FunctionNamer::FunctionNamer(const Aggregate &A, NameOptions O) : A(&A), O(O) {
  // Local functions of different modules may share a name (two files
  // with a static `helper`); only those get their module appended.
  StringMap<unsigned> Count;
  for (const FunctionStats &F : A.Flat)
    ++Count[A.Functions[F.Func].Name];
  Ambiguous.resize(A.Functions.size());
  for (const FunctionStats &F : A.Flat)
    Ambiguous[F.Func] =
        A.Functions[F.Func].Local && Count[A.Functions[F.Func].Name] > 1;
}

const std::vector<std::string> &FunctionNamer::shortNames() const {
  if (Short)
    return *Short;
  // Short names are made distinct over the functions a report can show.
  std::vector<std::string> Linkage;
  for (const FunctionStats &F : A->Flat)
    Linkage.push_back(A->Functions[F.Func].Name);
  std::vector<std::string> Distinct = distinctShortNames(Linkage);
  Short.emplace(A->Functions.size());
  for (size_t I = 0; I < A->Flat.size(); ++I)
    (*Short)[A->Flat[I].Func] = std::move(Distinct[I]);
  return *Short;
}

std::string FunctionNamer::moduleSuffix(uint32_t Func) const {
  if (!O.ModuleSuffix || !Ambiguous[Func])
    return "";
  return " [" + sys::path::filename(A->Functions[Func].Module).str() + "]";
}

std::string FunctionNamer::fullName(uint32_t Func) const {
  return displayName(A->Functions[Func].Name, O.Demangle) + moduleSuffix(Func);
}

std::string FunctionNamer::shortName(uint32_t Func) const {
  const FunctionInfo &F = A->Functions[Func];
  // The tool's own frames ([off-CPU]...) and functions outside the flat
  // table keep their names.
  if (!O.Demangle || F.Name == kOutsideFrame)
    return fullName(Func);
  const std::string &S = shortNames()[Func];
  if (S.empty())
    return fullName(Func);
  return S + moduleSuffix(Func);
}

std::string FunctionNamer::name(uint32_t Func) const {
  return O.FullNames ? fullName(Func) : shortName(Func);
}

std::string FunctionNamer::fullName(StringRef Linkage) const {
  return displayName(Linkage.str(), O.Demangle);
}

std::string FunctionNamer::shortName(StringRef Linkage) const {
  if (!O.Demangle)
    return fullName(Linkage);
  return report::shortName(sourceFunctionName(Linkage)).Short;
}

std::string FunctionNamer::name(StringRef Linkage) const {
  return O.FullNames ? fullName(Linkage) : shortName(Linkage);
}
