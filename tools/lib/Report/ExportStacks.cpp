//===- ExportStacks.cpp - Deep stacks in the whole-stack formats ----------===//
//
// Part of ActiveTime. The formats that write a whole call stack per entry
// (pprof's samples, folded lines, the json export's sample paths) would
// grow with the square of a deep recursion's depth: a stack per node, each
// as deep as the node. Like perf, which stops a call chain at 127 frames,
// they write at most --max-stack frames per stack; a deeper one keeps its
// outermost and innermost frames, half each, with one visible
// "[N frames elided]" frame between them, so every entry still says where
// it sits and what was left out.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Samples.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

StackCut report::cutStack(uint64_t Depth, unsigned MaxStack) {
  StackCut C;
  if (!MaxStack || Depth <= MaxStack) {
    C.Outer = Depth;
    return C;
  }
  // One frame of the limit is the marker; the leaf side gets the odd one.
  C.Outer = (MaxStack - 1) / 2;
  C.Inner = MaxStack - 1 - C.Outer;
  C.Elided = Depth - C.Outer - C.Inner;
  return C;
}

std::string report::elidedFrameName(uint64_t N) {
  return "[" + utostr(N) + (N == 1 ? " frame elided]" : " frames elided]");
}

PathFrames::PathFrames(const SamplePaths &P, unsigned MaxStack)
    : P(P), MaxStack(MaxStack) {
  if (MaxStack)
    OuterEnd = P.ancestorsAt(cutStack(UINT64_MAX, MaxStack).Outer);
}

void PathFrames::get(uint32_t N, SmallVectorImpl<Item> &Out) const {
  Out.clear();
  StackCut C = cutStack(P.node(N).Depth, MaxStack);
  // The innermost frames, up from the leaf; then the outermost, up from
  // where they end (found for all paths at once).
  uint32_t I = N;
  SmallVector<Item, 64> Inner;
  for (uint64_t K = 0; K < C.Inner; ++K, I = P.node(I).Parent)
    Inner.push_back({&P.node(I).Frame, 0});
  uint32_t Top = C.Elided ? OuterEnd[N] : N;
  for (I = Top; I != SamplePaths::kRoot; I = P.node(I).Parent)
    Out.push_back({&P.node(I).Frame, 0});
  std::reverse(Out.begin(), Out.end());
  if (C.Elided)
    Out.push_back({nullptr, C.Elided});
  Out.append(Inner.rbegin(), Inner.rend());
}
