//===- FunctionSelection.h - The functions ActiveTime works on --*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// The find phase both passes share: which functions of a module get probes,
// and what the source said about each ([[activetime::...]] attributes and
// `#pragma activetime`, lowered by the clang plugin into annotations).
//
// The instrumentation pass puts probes into exactly these functions. The
// prefetch-use pass looks for memory sites in the same functions, because a
// hint file can only describe sites of functions that the profiling build
// instrumented; selecting the same way keeps "this hint no longer matches"
// warnings about real changes of the code.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_FUNCTIONSELECTION_H
#define ACTIVETIME_PASS_FUNCTIONSELECTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>

namespace activetime {

class FunctionList;

/// Whether -activetime-print-decisions asks for the find phase's decisions
/// on stderr.
bool printDecisions();

/// The source file of \p F as recorded in its debug info ("dir/file"), or an
/// empty string without debug info.
std::string getSourceFile(const llvm::Function &F);

/// The outcome of the find phase for one function.
struct Decision {
  bool Instrument = false;
  const char *SkipReason = nullptr;

  static Decision instrument() { return {true, nullptr}; }
  static Decision skip(const char *Reason) { return {false, Reason}; }
};

/// The functions of one module that get probes (-activetime-list,
/// -activetime-min-size, attributes and annotations), with the source's
/// requests for each.
class FunctionSelection {
public:
  /// Null, with the error reported through \p M's context, if the function
  /// list of -activetime-list cannot be read.
  static std::unique_ptr<FunctionSelection> create(llvm::Module &M);
  ~FunctionSelection();

  /// Reads the annotations meant for the pass and removes them from the
  /// module, then decides every function in module order. Returns true if
  /// the IR changed (removing annotations may also erase functions that
  /// only they kept alive).
  bool select();

  /// The chosen functions, in module order.
  llvm::ArrayRef<llvm::Function *> functions() const { return Selected; }
  /// [[activetime::strides]] or `#pragma activetime strides(on)`.
  bool wantsStrides(const llvm::Function &F) const {
    return AnnotatedStrides.contains(&F);
  }
  bool anyWantsStrides() const { return !AnnotatedStrides.empty(); }
  /// The name \p F is reported under ([[activetime::region("name")]]), or
  /// null.
  const std::string *regionName(const llvm::Function &F) const;

private:
  FunctionSelection(llvm::Module &M, std::unique_ptr<FunctionList> List);

  void collectAnnotations();
  bool isAnnotated(const llvm::Function *F) const;
  bool dropOurAnnotations();
  void forgetErased(llvm::ArrayRef<llvm::Function *> Dropped);
  Decision decide(llvm::Function &F) const;
  void printDecision(const llvm::Function &F, const Decision &D) const;

  llvm::Module &M;
  std::unique_ptr<FunctionList> List;
  llvm::SmallVector<llvm::Function *, 64> Selected;

  llvm::SmallPtrSet<const llvm::Function *, 8> AnnotatedNoInstrument;
  llvm::SmallPtrSet<const llvm::Function *, 8> AnnotatedInstrument;
  llvm::SmallPtrSet<const llvm::Function *, 8> AnnotatedStrides;
  llvm::DenseMap<const llvm::Function *, std::string> RegionNames;
};

} // namespace activetime

#endif // ACTIVETIME_PASS_FUNCTIONSELECTION_H
