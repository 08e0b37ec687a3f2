//===- IndirectPrefetch.h - Prefetching a[b[i]] through its index -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Software prefetching of indirect loads after Ainsworth and Jones, "Software
// Prefetching for Indirect Memory Accesses" (CGO 2017): for a load whose
// address is computed from one index load that walks memory at a constant
// step in the same loop (a[b[i]], p[i]->v, table[hash(key[i]) & mask]), the
// address computation is repeated k iterations ahead, with the index load's
// address clamped to the last element the loop itself reads, and prefetched.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_INDIRECTPREFETCH_H
#define ACTIVETIME_PASS_INDIRECTPREFETCH_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

#include <string>

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace activetime {

/// How the address of a load is computed from one strided index load.
struct IndirectPlan {
  llvm::LoadInst *Target = nullptr; // the irregular load to prefetch
  llvm::LoadInst *Index = nullptr;  // b[i]: address {start,+,Step} in Loop
  llvm::Loop *Loop = nullptr;
  int64_t Step = 0;                 // bytes per iteration of the index load
  /// The instructions between Index and Target's address, operands first.
  llvm::SmallVector<llvm::Instruction *, 16> Slice;
  /// A chain's head: Target walks a chain in an inner loop (b = b->next)
  /// whose first link ChainHead (the inner loop's header phi) takes
  /// ChainEntry from Loop, the enclosing loop; the prefetch of the first
  /// link goes where the inner loop is entered. Null otherwise.
  llvm::PHINode *ChainHead = nullptr;
  llvm::Value *ChainEntry = nullptr;
  /// Where the prefetch goes: before Target, or the inner loop's entry.
  llvm::Instruction *InsertAt = nullptr;
};

/// The plan for prefetching \p Target through its index, or the reason
/// there is none (an empty Why means success). When the address comes from
/// a phi of the inner loop (a chain), the chain's first link is prefetched
/// through the enclosing loop's index instead, if it has one (the probe of
/// a hash join: table[hash(key[i])] then b = b->next).
struct IndirectAnalysis {
  IndirectPlan Plan;
  std::string Why;
};

IndirectAnalysis analyzeIndirect(llvm::LoadInst &Target, llvm::LoopInfo &LI,
                                 llvm::ScalarEvolution &SE,
                                 llvm::DominatorTree &DT);

/// Inserts, before the target load, the prefetch of its address \p
/// Iterations iterations ahead, the index load's address clamped to the
/// loop's last one (computed where the loop is entered), in a block of its
/// own run only when the loop has at least 2 x Iterations iterations (the
/// CFG changes: the function's analyses are stale after). False if that
/// bound cannot be expanded there, or the loop is never that long.
bool emitIndirectPrefetch(const IndirectPlan &P, int64_t Iterations,
                          llvm::ScalarEvolution &SE);

} // namespace activetime

#endif // ACTIVETIME_PASS_INDIRECTPREFETCH_H
