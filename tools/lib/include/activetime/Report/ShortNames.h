//===- activetime/Report/ShortNames.h - Readable C++ names ------*- C++ -*-===//
//
// Part of ActiveTime. The reports' short form of a C++ name: the demangled
// name with its template arguments and parameter list elided, as
// `std::vector<...>::_M_realloc_insert<...>(...)`, so that a row is not two
// thousand characters of `std::basic_string<...>`. Built from the Itanium
// demangler's tree, not by editing the demangled string, so `operator<`,
// `operator<<`, `operator->`, lambdas and local names come out right.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_SHORTNAMES_H
#define ACTIVETIME_REPORT_SHORTNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace activetime {
namespace report {

/// The short forms of one name, from the shortest.
struct ShortName {
  /// Template arguments elided to `<...>`, the parameters to `(...)`
  /// (`()` when there are none); no cv-qualifiers, ABI tags or return type.
  std::string Short;
  /// Short with the parameter types (their own template arguments elided)
  /// and the function's cv- and ref-qualifiers: tells overloads apart.
  std::string WithParams;
};

/// The short forms of \p Linkage, an Itanium-mangled name. A name that is
/// not one (a C function, a region name) or that does not demangle is
/// returned as llvm::demangle gives it, in both forms.
ShortName shortName(llvm::StringRef Linkage);

/// The short names of \p Linkage, distinct wherever the full demangled names
/// are: names whose Short forms collide get their WithParams form; those
/// still equal (template instances differing only in the elided arguments)
/// get " #1", " #2"... in the order of their full demangled names. Equal
/// linkage names get equal results.
std::vector<std::string> distinctShortNames(llvm::ArrayRef<std::string> Linkage);

/// \p Text with each outermost `<...>` group replaced by `<...>` (for
/// demangled types, where `<` only opens template arguments).
std::string elideTemplateArgs(llvm::StringRef Text);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_SHORTNAMES_H
