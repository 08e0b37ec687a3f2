//===- ProbeKinds.cpp - Probe kinds that register themselves ---------------===//
//
// Part of ActiveTime. See ProbeKinds.h.
//
//===----------------------------------------------------------------------===//

#include "ProbeKinds.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;

/// The registered kinds. A function-local static would be constructed on
/// first use; a constant-initialized pointer needs no constructor, whatever
/// order the plugin's static objects are built in.
static ProbeKind *RegisteredKinds = nullptr;

ProbeKind::ProbeKind(const char *Name, InstrumentFn Instrument)
    : Name(Name), Instrument(Instrument), Next(RegisteredKinds) {
  RegisteredKinds = this;
}

bool ProbeKind::instrumentAll(Module &M, const FunctionSelection &Sel,
                              FunctionAnalysisManager &FAM) {
  SmallVector<const ProbeKind *, 8> Kinds;
  for (const ProbeKind *K = RegisteredKinds; K; K = K->Next)
    Kinds.push_back(K);
  llvm::sort(Kinds, [](const ProbeKind *A, const ProbeKind *B) {
    return StringRef(A->Name) < StringRef(B->Name);
  });
  bool Changed = false;
  for (const ProbeKind *K : Kinds)
    Changed |= K->Instrument(M, Sel, FAM);
  // What the kinds inserted is in the functions the instrumentation goes
  // on to analyse (loops, scalar evolution for the memory sites).
  if (Changed)
    FAM.clear();
  return Changed;
}
