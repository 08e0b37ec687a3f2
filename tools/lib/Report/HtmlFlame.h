//===- HtmlFlame.h - The HTML pages' flame graphs, pruned -------*- C++ -*-===//
//
// Part of ActiveTime. Internal to the ActiveTimeReport library. A flame
// graph of a large profile has far more frames than a page can hold or a
// browser can draw (a million-node call tree made a 3 GB page), and most of
// them are narrower than a pixel. So the pages draw the widest frames only:
// a frame narrower than a share of the graph's width (--prune-below), the
// frames beyond a count, and the levels beyond a depth are left out, and
// what was left out under each drawn frame is drawn as one frame of its own
// ("[other]" or "[deeper]") as wide as what it replaces, so every width
// stays true. The pages say how much was left out (docs/exports.md).
//
// Trees of every kind (the call tree, the inverted tree, the samples' call
// paths, NEW's paths in a diff) are planned here without recursion, and
// written as a flat list of frames in pre-order with parent links.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_HTMLFLAME_H
#define ACTIVETIME_REPORT_HTMLFLAME_H

#include "activetime/Report/Views.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <vector>

namespace activetime {
namespace report {

/// Widths per frame at most (the call tree: active and elapsed time).
constexpr unsigned kMaxFlameModes = 2;

/// What a page's flame graph draws at most.
struct FlameLimits {
  /// Frames narrower than this share of the graph's width are left out.
  double MinShare = kDefaultPrunePercent / 100;
  /// The widest frames are drawn up to this many (their size in the page,
  /// the browser's time to draw them).
  uint32_t MaxFrames = 20000;
  /// Levels drawn (a browser lays a deeper graph out too slowly, and the
  /// page is 18 pixels per level high).
  uint32_t MaxDepth = 10000;
};

/// A tree to draw. Node 0 is the root, which is not drawn; every other
/// node's parent has a smaller index.
struct FlameTree {
  size_t Size = 0;
  llvm::function_ref<uint32_t(uint32_t)> Parent;
  /// In drawing order (left to right).
  llvm::function_ref<llvm::ArrayRef<uint32_t>(uint32_t)> Children;
  /// The frame's own width in mode \p M (< Modes): its inclusive figure,
  /// which is raised to its children's widths together where they are wider
  /// (negative ones count as 0), or with SelfWidths its own part, which its
  /// children's widths are added to (the samples charged to the frame).
  unsigned Modes = 1;
  llvm::function_ref<double(uint32_t Node, unsigned M)> Width;
  bool SelfWidths = false;
  /// Whether a node is in the graph at all (a path of one side only, a
  /// sample path without time of the graph's kind); what is not, and
  /// everything under it, is neither drawn nor counted as left out. None:
  /// every node is.
  llvm::function_ref<bool(uint32_t)> InGraph;
};

/// The frames drawn, and what was left out.
struct FlamePlan {
  /// What was left out under one drawn frame (or the root), drawn as one
  /// frame after its siblings.
  struct Other {
    uint32_t Parent = UINT32_MAX; // the drawn frame's position; the root's
    uint64_t Tops = 0;            // the children left out
    uint64_t Frames = 0;          // ... with everything under them
    uint32_t Levels = 0;          // the levels they span
    bool Deeper = false;          // left out at the depth limit (else narrow)
    double Width[kMaxFlameModes] = {0, 0};
  };
  /// What was left out for one reason, over the graph.
  struct Share {
    uint64_t Tops = 0, Frames = 0;
    uint32_t Levels = 0;
    double Width[kMaxFlameModes] = {0, 0};
  };
  std::vector<uint32_t> Drawn;       // the tree's nodes in pre-order
  std::vector<uint32_t> DrawnParent; // their parents' positions (root: max)
  std::vector<Other> Others;
  unsigned Modes = 1;
  bool SelfWidths = false;
  double Total[kMaxFlameModes] = {0, 0}; // the graph's width
  Share Narrow; // below the share, or beyond the frame count
  Share Deep;   // below the depth limit
  /// MaxFrames were drawn while frames wider than the share remained: the
  /// widest frame left out.
  bool FrameCapHit = false;
  double FrameCapWidth = 0;
  uint64_t InGraph = 0; // the tree's nodes in the graph
};

/// Chooses the frames to draw: the widest first (a frame is at least as
/// wide as its children, so the drawn frames form a tree) until the next
/// one is narrower than L.MinShare of the total (the widest of its modes)
/// or L.MaxFrames are drawn; frames below L.MaxDepth levels are left out.
FlamePlan planFlame(const FlameTree &T, const FlameLimits &L);

/// Writes \p Key: the graph as a page draws it (docs/exports.md):
///   {"total_ns": [per mode], "self_widths": bool, "limits": {...},
///    "pruned": {...},
///    "nodes": [ {"parent": position or null, NodeFields...}, ...,
///               {"parent": ..., "other": {...}, "width_ns": [...]} ]}
/// Drawn frames come first in pre-order, then the left-out ones.
void flameJson(llvm::json::OStream &J, llvm::StringRef Key,
               const FlamePlan &P, const FlameLimits &L,
               llvm::function_ref<void(uint32_t Node)> NodeFields);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_HTMLFLAME_H
