//===- activetime/llvm_compat.h - LLVM/Clang 19 vs 22 API -------*- C++ -*-===//
//
// Part of ActiveTime. The one place that knows the API differences between
// the LLVM/Clang majors ActiveTime builds against (19, the default, and 22;
// cmake/ActiveTimeLLVM.cmake). The pass, the clang plugin and the tools call
// these wrappers instead of testing LLVM_VERSION_MAJOR themselves.
//
// The wrappers are templates or macros so this header needs nothing but
// llvm-config.h: each user already includes the LLVM/Clang headers it uses.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_LLVM_COMPAT_H
#define ACTIVETIME_LLVM_COMPAT_H

#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR != 19 && LLVM_VERSION_MAJOR != 22
#error "ActiveTime supports LLVM 19 and 22 (cmake/ActiveTimeLLVM.cmake)"
#endif

// PassPlugin.h moved from llvm/Passes to llvm/Plugins in LLVM 22.
#if LLVM_VERSION_MAJOR >= 22
#define ACTIVETIME_PASS_PLUGIN_H "llvm/Plugins/PassPlugin.h"
#else
#define ACTIVETIME_PASS_PLUGIN_H "llvm/Passes/PassPlugin.h"
#endif

namespace activetime {
namespace compat {

/// PassBuilder::registerOptimizerLastEPCallback with a callback taking
/// (ModulePassManager &, OptimizationLevel); LLVM 20 added a
/// ThinOrFullLTOPhase argument, which ActiveTime does not look at.
template <typename PassBuilderT, typename CallbackT>
void registerOptimizerLastEP(PassBuilderT &PB, CallbackT C) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [C](auto &MPM, auto Level, auto /*Phase*/) { C(MPM, Level); });
#else
  PB.registerOptimizerLastEPCallback(C);
#endif
}

/// Whether a SpecialCaseList section (an element of the list's sections, see
/// ACTIVETIME_SCL_SECTIONS) is a named section matching "allow" that holds
/// entries. LLVM 19 keeps sections in a StringMap with public matchers and
/// entry maps; LLVM 22 hides them behind Section::matchName/hasPrefix, so
/// there the entry kinds ActiveTime reads (fun:, src:) are asked for.
template <typename SectionT> bool isNonEmptyAllowSection(const SectionT &S) {
#if LLVM_VERSION_MAJOR >= 22
  return S.name() != "*" && S.matchName("allow") &&
         (S.hasPrefix("fun") || S.hasPrefix("src"));
#else
  return S.getKey() != "*" && !S.getValue().Entries.empty() &&
         S.getValue().SectionMatcher->match("allow");
#endif
}

/// The source location of a clang attribute's identifier argument
/// (clang::IdentifierLoc): a public field in Clang 19, an accessor in 22.
template <typename IdentifierLocT> auto identifierLoc(const IdentifierLocT &I) {
#if LLVM_VERSION_MAJOR >= 21
  return I.getLoc();
#else
  return I.Loc;
#endif
}

} // namespace compat
} // namespace activetime

/// The sections of a SpecialCaseList, from inside a subclass (they are
/// protected): a data member in LLVM 19, an accessor in 22.
#if LLVM_VERSION_MAJOR >= 22
#define ACTIVETIME_SCL_SECTIONS(List) ((List)->sections())
#else
#define ACTIVETIME_SCL_SECTIONS(List) ((List)->Sections)
#endif

#endif // ACTIVETIME_LLVM_COMPAT_H
