//===- IndirectPrefetch.cpp - Prefetching a[b[i]] through its index -------===//
//
// Part of ActiveTime. See IndirectPrefetch.h.
//
// Safety: the repeated computation must not trap or change the program.
// - Its only load is the index load, moved k iterations ahead but clamped
//   to the last address the loop itself loads from (the index load runs in
//   every iteration before any exit, and the loop's trip count is known when
//   it starts), so it reads nothing the loop would not read.
// - Every other instruction is arithmetic, a cast, a compare, a select, a
//   vector element operation (a vectorized loop's lanes) or an address
//   computation. Their poison-generating flags are dropped (the
//   index k iterations ahead may overflow where the current one did not).
//   Unsigned division keeps its divisor, which is non-zero since the same
//   division just ran; signed division is repeated only by a constant other
//   than 0 and -1.
// - The prefetch itself never faults, whatever the address.
//
//===----------------------------------------------------------------------===//

#include "IndirectPrefetch.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace activetime;

// A hash of a key fits; a long chain is not an index computation.
static constexpr unsigned kMaxSlice = 48;

/// Why \p I cannot be repeated k iterations ahead, or "".
static std::string whyNotRepeatable(const Instruction &I) {
  if (isa<PHINode>(I))
    return "the address depends on a phi of the loop (a pointer chase, or "
           "the induction variable itself)";
  if (isa<CallBase>(I))
    return "the address depends on a call";
  if (auto *B = dyn_cast<BinaryOperator>(&I)) {
    switch (B->getOpcode()) {
    case Instruction::SDiv:
    case Instruction::SRem: {
      auto *C = dyn_cast<ConstantInt>(B->getOperand(1));
      if (!C || C->isZero() || C->isMinusOne())
        return "the address depends on a signed division by a variable";
      return "";
    }
    default:
      return "";
    }
  }
  if (isa<GetElementPtrInst, CastInst, CmpInst, SelectInst, FreezeInst,
          ExtractElementInst, InsertElementInst, ShuffleVectorInst>(I))
    return "";
  return (Twine("the address depends on a ") + I.getOpcodeName() +
          " instruction")
      .str();
}

namespace {
/// The backward slice of the target's address within its loop.
class SliceBuilder {
public:
  SliceBuilder(Loop &L, IndirectPlan &P) : L(L), P(P) {}
  bool visit(Value *V);
  std::string Why;
  PHINode *FailedPhi = nullptr; // the phi that stopped the slice

private:
  Loop &L;
  IndirectPlan &P;
  SmallPtrSet<Instruction *, 16> Seen;
};
} // namespace

bool SliceBuilder::visit(Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  // Values from outside the loop are the same k iterations ahead.
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return true;
  // A chain's head in its first iteration is the value it enters with.
  if (I == P.ChainHead)
    return visit(P.ChainEntry);
  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    if (P.Index) {
      Why = "the address depends on more than one load of the loop";
      return false;
    }
    if (!Ld->isSimple()) {
      Why = "the index load is volatile or atomic";
      return false;
    }
    P.Index = Ld;
    return true;
  }
  Why = whyNotRepeatable(*I);
  if (!Why.empty()) {
    FailedPhi = dyn_cast<PHINode>(I);
    return false;
  }
  if (Seen.size() > kMaxSlice) {
    Why = "the address computation is too long";
    return false;
  }
  for (Value *Op : I->operands())
    if (!visit(Op))
      return false;
  // Unsigned division by a value computed from the index could be by zero
  // ahead: only divisors from outside the slice.
  if (I->getOpcode() == Instruction::UDiv ||
      I->getOpcode() == Instruction::URem)
    if (auto *D = dyn_cast<Instruction>(I->getOperand(1));
        D && (D == P.Index || llvm::is_contained(P.Slice, D))) {
      Why = "the address depends on a division by a value of the loop";
      return false;
    }
  P.Slice.push_back(I); // operands first
  return true;
}

/// The plan for \p P.Target's address in loop \p L, repeated ahead in L's
/// iterations; P.ChainHead, if set, stands for P.ChainEntry. "" on success,
/// else why not (and the phi that stopped the slice, if one did).
static std::string analyzeIn(IndirectPlan &P, Loop *L, ScalarEvolution &SE,
                             DominatorTree &DT, PHINode *&FailedPhi) {
  P.Loop = L;
  SliceBuilder SB(*L, P);
  if (!SB.visit(P.Target->getPointerOperand())) {
    FailedPhi = SB.FailedPhi;
    return SB.Why;
  }
  if (!P.Index)
    return "no load of the loop feeds the address";
  // The bound is computed where the loop is entered: its only predecessor
  // outside it, which dominates it (late in the pipeline a loop need not
  // have a preheader of its own).
  if (!L->getLoopPredecessor())
    return "the loop is entered from more than one block";
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P.Index->getPointerOperand()));
  const SCEVConstant *Step =
      AR && AR->getLoop() == L && AR->isAffine()
          ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
          : nullptr;
  if (!Step || Step->getAPInt().getSignificantBits() > 32 ||
      Step->getValue()->isZero())
    return "the index load does not walk memory at a constant step";
  P.Step = Step->getAPInt().getSExtValue();
  // The loop's exact trip count (over all its exits) bounds the index, and
  // the index load runs before any exit of an iteration, so the loop itself
  // reads the last index.
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC))
    return "the loop's trip count is not known when it starts";
  // An inner loop whose trip count the enclosing loop reloads each time (a
  // sparse matrix's rows, rowstr[j]..rowstr[j+1]) is mostly short: ahead
  // of it lies its last index, and the prefetch would cost without hiding
  // a miss.
  if (Loop *Outer = L->getParentLoop(); Outer && !SE.isLoopInvariant(BTC, Outer))
    return "the loop's trip count changes with each iteration of the "
           "enclosing loop (short rows)";
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  for (BasicBlock *E : Exiting)
    if (!DT.dominates(P.Index->getParent(), E))
      return "the loop can exit before the index load of an iteration";
  return "";
}

IndirectAnalysis activetime::analyzeIndirect(LoadInst &Target, LoopInfo &LI,
                                             ScalarEvolution &SE,
                                             DominatorTree &DT) {
  IndirectAnalysis A;
  Loop *L = LI.getLoopFor(Target.getParent());
  if (!L) {
    A.Why = "not in a loop";
    return A;
  }
  A.Plan.Target = &Target;
  A.Plan.InsertAt = &Target;
  PHINode *Phi = nullptr;
  A.Why = analyzeIn(A.Plan, L, SE, DT, Phi);
  // A chain walked by an inner loop: its first link, through the enclosing
  // loop's index, where the inner loop is entered.
  BasicBlock *Entry = L->getLoopPredecessor();
  Loop *Outer = L->getParentLoop();
  if (A.Why.empty() || !Phi || Phi->getParent() != L->getHeader() || !Entry ||
      !Outer || !Outer->contains(Entry))
    return A;
  IndirectAnalysis Head;
  Head.Plan.Target = &Target;
  Head.Plan.ChainHead = Phi;
  Head.Plan.ChainEntry = Phi->getIncomingValueForBlock(Entry);
  Head.Plan.InsertAt = Entry->getTerminator();
  PHINode *Ignored = nullptr;
  Head.Why = analyzeIn(Head.Plan, Outer, SE, DT, Ignored);
  if (!Head.Why.empty()) {
    A.Why += "; its chain's first link: " + Head.Why;
    return A;
  }
  return Head;
}

bool activetime::emitIndirectPrefetch(const IndirectPlan &P,
                                      int64_t Iterations,
                                      ScalarEvolution &SE) {
  Instruction *AtEntry = P.Loop->getLoopPredecessor()->getTerminator();
  Value *IndexPtr = P.Index->getPointerOperand();
  auto *AR = cast<SCEVAddRecExpr>(SE.getSCEV(IndexPtr));
  const SCEV *BTC = SE.getBackedgeTakenCount(P.Loop);
  const SCEV *Last = AR->evaluateAtIteration(BTC, SE);
  const DataLayout &DL = P.Target->getDataLayout();
  SCEVExpander Expander(SE, DL, "activetime.indirect");
  unsigned Bits = BTC->getType()->getIntegerBitWidth();
  if (Bits < 16 || !Expander.isSafeToExpandAt(Last, AtEntry) ||
      !Expander.isSafeToExpandAt(BTC, AtEntry))
    return false;
  Value *LastPtr = Expander.expandCodeFor(Last, IndexPtr->getType(), AtEntry);
  // A loop of fewer than twice the distance's iterations would prefetch
  // its last index over and over (a sparse matrix's short rows): the
  // prefetch runs only when the loop is long enough, behind a branch the
  // same in every iteration.
  Value *Iters = Expander.expandCodeFor(BTC, BTC->getType(), AtEntry);
  Value *Long = IRBuilder<>(AtEntry).CreateICmpUGE(
      Iters, ConstantInt::get(BTC->getType(), 2 * Iterations),
      "activetime.indirect.long");
  if (auto *C = dyn_cast<ConstantInt>(Long); C && C->isZero())
    return false;
  Instruction *At = P.InsertAt;
  if (!isa<Constant>(Long))
    At = SplitBlockAndInsertIfThen(Long, P.InsertAt, /*Unreachable=*/false);

  IRBuilder<> B(At);
  Value *Ahead = B.CreatePtrAdd(IndexPtr, B.getInt64(Iterations * P.Step),
                                "activetime.indirect.ahead");
  Value *Past = P.Step > 0 ? B.CreateICmpUGT(Ahead, LastPtr)
                           : B.CreateICmpULT(Ahead, LastPtr);
  Value *Clamped = B.CreateSelect(Past, LastPtr, Ahead);
  LoadInst *NewIndex =
      B.CreateAlignedLoad(P.Index->getType(), Clamped, P.Index->getAlign(),
                          "activetime.indirect.index");
  ValueToValueMapTy VM;
  VM[P.Index] = NewIndex;
  for (Instruction *I : P.Slice) {
    // Operands first: the chain's entry value is cloned before the head's
    // users.
    if (P.ChainHead && !VM.count(P.ChainHead) && VM.count(P.ChainEntry))
      VM[P.ChainHead] = VM.lookup(P.ChainEntry);
    Instruction *C = I->clone();
    C->dropPoisonGeneratingAnnotations();
    RemapInstruction(C, VM, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    B.Insert(C, I->hasName() ? I->getName() + ".ahead" : "");
    VM[I] = C;
  }
  if (P.ChainHead && !VM.count(P.ChainHead))
    VM[P.ChainHead] =
        VM.count(P.ChainEntry) ? (Value *)VM.lookup(P.ChainEntry) : P.ChainEntry;
  Value *Addr = VM.lookup(P.Target->getPointerOperand());
  // Read, high temporal locality, data cache.
  B.CreateIntrinsic(Intrinsic::prefetch, {B.getPtrTy()},
                    {Addr, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
  return true;
}
