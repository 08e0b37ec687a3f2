//===- HtmlFlame.cpp - The HTML pages' flame graphs, pruned ---------------===//
//
// Part of ActiveTime. See HtmlFlame.h.
//
//===----------------------------------------------------------------------===//

#include "HtmlFlame.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace llvm;
using namespace activetime;
using namespace activetime::report;

namespace {

/// What planFlame knows of every node, children before parents.
struct NodeFacts {
  std::vector<uint8_t> In;       // in the graph
  std::vector<uint32_t> Depth;   // the root's children 1
  std::vector<double> Fit;       // widths per mode, at least the children's
  std::vector<uint64_t> Frames;  // the node and everything under it
  std::vector<uint32_t> Height;  // levels under it
  unsigned Modes = 1;
  double fit(uint32_t I, unsigned M) const { return Fit[size_t(I) * Modes + M]; }
  /// The width the frame is chosen by: its widest mode.
  double width(uint32_t I) const {
    double W = 0;
    for (unsigned M = 0; M < Modes; ++M)
      W = std::max(W, fit(I, M));
    return W;
  }
};

/// One pass down (in the graph, depth) and one up (fitted widths, sizes,
/// heights): a node's parent has a smaller index, so no recursion.
NodeFacts nodeFacts(const FlameTree &T) {
  NodeFacts F;
  size_t N = T.Size;
  F.Modes = T.Modes;
  F.In.assign(N, 0);
  F.Depth.assign(N, 0);
  F.Fit.assign(N * T.Modes, 0);
  F.Frames.assign(N, 1);
  F.Height.assign(N, 0);
  F.In[0] = 1;
  for (uint32_t I = 1; I < N; ++I) {
    uint32_t Par = T.Parent(I);
    F.In[I] = F.In[Par] && (!T.InGraph || T.InGraph(I));
    F.Depth[I] = F.Depth[Par] + 1;
  }
  for (uint32_t I = N; I-- > 1;) {
    if (!F.In[I])
      continue;
    uint32_t Par = T.Parent(I);
    for (unsigned M = 0; M < T.Modes; ++M) {
      double &W = F.Fit[size_t(I) * T.Modes + M]; // the children's so far
      W = T.SelfWidths ? std::max(T.Width(I, M), 0.0) + W
                       : std::max({T.Width(I, M), 0.0, W});
      F.Fit[size_t(Par) * T.Modes + M] += W;
    }
    F.Frames[Par] += F.Frames[I];
    F.Height[Par] = std::max(F.Height[Par], F.Height[I] + 1);
  }
  return F;
}

/// The widest frames first, down to the share and up to the count; the
/// children of a frame at the depth limit are not candidates.
std::vector<uint8_t> chooseFrames(const FlameTree &T, const NodeFacts &F,
                                  const FlameLimits &L, FlamePlan &P) {
  std::vector<uint8_t> Drawn(T.Size, 0);
  Drawn[0] = 1;
  double Threshold = L.MinShare * F.width(0);
  auto Narrower = [&](uint32_t A, uint32_t B) {
    double WA = F.width(A), WB = F.width(B);
    return WA != WB ? WA < WB : A > B;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(Narrower)>
      Heap(Narrower);
  auto PushChildren = [&](uint32_t I) {
    for (uint32_t C : T.Children(I))
      if (F.In[C])
        Heap.push(C);
  };
  PushChildren(0);
  uint64_t Count = 0;
  while (!Heap.empty()) {
    uint32_t I = Heap.top();
    if (F.width(I) < Threshold)
      break;
    if (Count == L.MaxFrames) {
      P.FrameCapHit = true;
      P.FrameCapWidth = F.width(I);
      break;
    }
    Heap.pop();
    Drawn[I] = 1;
    ++Count;
    if (F.Depth[I] < L.MaxDepth)
      PushChildren(I);
  }
  return Drawn;
}

/// The drawn frames in pre-order (children in drawing order), each with its
/// parent's position.
void orderFrames(const FlameTree &T, const std::vector<uint8_t> &Drawn,
                 FlamePlan &P) {
  std::vector<std::pair<uint32_t, uint32_t>> Stack; // node, parent position
  auto PushChildren = [&](uint32_t I, uint32_t Pos) {
    ArrayRef<uint32_t> C = T.Children(I);
    for (size_t K = C.size(); K-- > 0;)
      if (Drawn[C[K]])
        Stack.push_back({C[K], Pos});
  };
  PushChildren(0, UINT32_MAX);
  while (!Stack.empty()) {
    auto [I, ParentPos] = Stack.back();
    Stack.pop_back();
    uint32_t Pos = P.Drawn.size();
    P.Drawn.push_back(I);
    P.DrawnParent.push_back(ParentPos);
    PushChildren(I, Pos);
  }
}

/// Every node left out whose parent is drawn heads a subtree that one
/// "[other]" or "[deeper]" frame under that parent stands for.
void collectOthers(const FlameTree &T, const NodeFacts &F,
                   const std::vector<uint8_t> &Drawn, const FlameLimits &L,
                   FlamePlan &P) {
  std::vector<uint32_t> Pos(T.Size, UINT32_MAX);
  for (size_t K = 0; K < P.Drawn.size(); ++K)
    Pos[P.Drawn[K]] = K;
  std::vector<uint32_t> OtherOf(P.Drawn.size() + 1, UINT32_MAX);
  for (uint32_t I = 1; I < T.Size; ++I) {
    uint32_t Par = T.Parent(I);
    if (!F.In[I] || Drawn[I] || !Drawn[Par])
      continue;
    // Slot 0 is the root's, K + 1 that of the K-th drawn frame.
    uint32_t Slot = Par == 0 ? 0 : Pos[Par] + 1;
    if (OtherOf[Slot] == UINT32_MAX) {
      OtherOf[Slot] = P.Others.size();
      FlamePlan::Other O;
      O.Parent = Par == 0 ? UINT32_MAX : Pos[Par];
      O.Deeper = Par != 0 && F.Depth[Par] >= L.MaxDepth;
      P.Others.push_back(O);
    }
    FlamePlan::Other &O = P.Others[OtherOf[Slot]];
    ++O.Tops;
    O.Frames += F.Frames[I];
    O.Levels = std::max(O.Levels, F.Height[I] + 1);
    for (unsigned M = 0; M < F.Modes; ++M)
      O.Width[M] += F.fit(I, M);
  }
  for (const FlamePlan::Other &O : P.Others) {
    FlamePlan::Share &S = O.Deeper ? P.Deep : P.Narrow;
    S.Tops += O.Tops;
    S.Frames += O.Frames;
    S.Levels = std::max(S.Levels, O.Levels);
    for (unsigned M = 0; M < F.Modes; ++M)
      S.Width[M] += O.Width[M];
  }
}

} // namespace

FlamePlan report::planFlame(const FlameTree &T, const FlameLimits &L) {
  assert(T.Modes >= 1 && T.Modes <= kMaxFlameModes && T.Size >= 1);
  FlamePlan P;
  P.Modes = T.Modes;
  P.SelfWidths = T.SelfWidths;
  NodeFacts F = nodeFacts(T);
  for (unsigned M = 0; M < T.Modes; ++M)
    P.Total[M] = F.fit(0, M);
  P.InGraph = F.Frames[0] - 1;
  std::vector<uint8_t> Drawn = chooseFrames(T, F, L, P);
  orderFrames(T, Drawn, P);
  collectOthers(T, F, Drawn, L, P);
  return P;
}

static void widthsJson(json::OStream &J, StringRef Key, const double *W,
                       unsigned Modes) {
  J.attributeArray(Key, [&] {
    for (unsigned M = 0; M < Modes; ++M)
      J.value(W[M]);
  });
}

static void shareJson(json::OStream &J, StringRef Key,
                      const FlamePlan::Share &S, unsigned Modes) {
  J.attributeObject(Key, [&] {
    J.attribute("tops", int64_t(S.Tops));
    J.attribute("frames", int64_t(S.Frames));
    J.attribute("levels", int64_t(S.Levels));
    widthsJson(J, "width_ns", S.Width, Modes);
  });
}

void report::flameJson(json::OStream &J, StringRef Key, const FlamePlan &P,
                       const FlameLimits &L,
                       function_ref<void(uint32_t)> NodeFields) {
  auto Parent = [&](uint32_t Pos) {
    if (Pos == UINT32_MAX)
      J.attribute("parent", nullptr);
    else
      J.attribute("parent", int64_t(Pos));
  };
  J.attributeObject(Key, [&] {
    widthsJson(J, "total_ns", P.Total, P.Modes);
    J.attribute("self_widths", P.SelfWidths);
    J.attributeObject("limits", [&] {
      J.attribute("min_share", L.MinShare);
      J.attribute("max_frames", int64_t(L.MaxFrames));
      J.attribute("max_depth", int64_t(L.MaxDepth));
    });
    J.attributeObject("pruned", [&] {
      J.attribute("frames_in_graph", int64_t(P.InGraph));
      J.attribute("frames_drawn", int64_t(P.Drawn.size()));
      shareJson(J, "narrow", P.Narrow, P.Modes);
      shareJson(J, "deeper", P.Deep, P.Modes);
      J.attribute("frame_cap_hit", P.FrameCapHit);
      J.attribute("frame_cap_width_ns", P.FrameCapWidth);
    });
    J.attributeArray("nodes", [&] {
      for (size_t K = 0; K < P.Drawn.size(); ++K)
        J.object([&] {
          Parent(P.DrawnParent[K]);
          NodeFields(P.Drawn[K]);
        });
      for (const FlamePlan::Other &O : P.Others)
        J.object([&] {
          Parent(O.Parent);
          J.attributeObject("other", [&] {
            J.attribute("deeper", O.Deeper);
            J.attribute("tops", int64_t(O.Tops));
            J.attribute("frames", int64_t(O.Frames));
            J.attribute("levels", int64_t(O.Levels));
          });
          widthsJson(J, "width_ns", O.Width, P.Modes);
        });
    });
  });
}
