//===- CallerCallee.cpp - The inverted tree ------------------------------===//
//
// Part of ActiveTime. See CallerCallee.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallerCallee.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

static double shownSelf(const TreeNode &N) {
  return activeFigures(N.S, N.Counted).Self.Shown;
}

/// Adds the self time of tree node \p I to every inverted node on its path
/// upwards (at most MaxDepth levels).
static void addPath(const Aggregate &A, uint32_t I, double Self,
                    unsigned MaxDepth, std::vector<InvertedNode> &Inv,
                    DenseMap<uint64_t, uint32_t> &Child) {
  uint32_t At = 0;
  unsigned Depth = 0;
  for (uint32_t Cur = I; Cur != 0; Cur = A.Tree[Cur].Parent) {
    if (MaxDepth && Depth == MaxDepth) {
      Inv[At].Truncated = true;
      return;
    }
    uint32_t F = A.Tree[Cur].Func;
    auto [It, New] = Child.try_emplace((uint64_t(At) << 32) | F, Inv.size());
    if (New) {
      InvertedNode N;
      N.Func = F;
      N.Parent = At;
      N.Depth = Inv[At].Depth + 1;
      Inv.push_back(N);
      Inv[At].Children.push_back(It->second);
    }
    At = It->second;
    Inv[At].SelfActiveNs += Self;
    ++Depth;
  }
  Inv[At].EndsNs += Self;
}

std::vector<InvertedNode> profile::invertTree(const Aggregate &A,
                                              unsigned MaxDepth) {
  std::vector<InvertedNode> Inv(1);
  DenseMap<uint64_t, uint32_t> Child; // (parent << 32 | func) -> node
  // Each node's self time as the reports print it (clamped at 0), so no
  // path carries a negative share.
  for (uint32_t I = 1; I < A.Tree.size(); ++I)
    if (double Self = shownSelf(A.Tree[I]))
      addPath(A, I, Self, MaxDepth, Inv, Child);
  for (const InvertedNode &N : Inv)
    Inv[0].SelfActiveNs += N.Depth == 1 ? N.SelfActiveNs : 0;
  for (InvertedNode &N : Inv)
    llvm::sort(N.Children, [&](uint32_t X, uint32_t Y) {
      if (Inv[X].SelfActiveNs != Inv[Y].SelfActiveNs)
        return Inv[X].SelfActiveNs > Inv[Y].SelfActiveNs;
      if (Inv[X].Func != Inv[Y].Func)
        return A.Functions[Inv[X].Func].Name < A.Functions[Inv[Y].Func].Name;
      return X < Y;
    });
  return Inv;
}

uint64_t profile::invertTreeSteps(const Aggregate &A, unsigned MaxDepth) {
  uint64_t Steps = 0;
  for (uint32_t I = 1; I < A.Tree.size(); ++I)
    if (shownSelf(A.Tree[I]) != 0)
      Steps += MaxDepth ? std::min(A.Tree[I].Depth, MaxDepth) : A.Tree[I].Depth;
  return Steps;
}
