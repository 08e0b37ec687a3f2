//===- BottomUpReport.cpp - `report --bottom-up` --------------------------===//
//
// Part of ActiveTime. The inverted call tree: functions by self-active
// time, each expanded into the call paths that led to it with the share of
// its self time each path carries. Text (depth-limited by --max-depth) and
// the "bottom_up" object of `report --json`: a flat pre-order list with
// parent links, like "tree". The model is CallerCallee.h.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// Pre-order walk of the inverted tree without recursion; \p Visit gets
/// each node but the root, and the top-level ancestor it belongs to.
template <typename Fn>
static void walkInverted(const std::vector<InvertedNode> &Inv, unsigned Top,
                         Fn Visit) {
  std::vector<uint32_t> Stack;
  const std::vector<uint32_t> &Roots = Inv[0].Children;
  size_t NumRoots = Top ? std::min<size_t>(Top, Roots.size()) : Roots.size();
  for (size_t R = NumRoots; R-- > 0;)
    Stack.push_back(Roots[R]);
  std::vector<uint32_t> RootOf(Inv.size(), 0);
  while (!Stack.empty()) {
    uint32_t I = Stack.back();
    Stack.pop_back();
    RootOf[I] = Inv[I].Depth == 1 ? I : RootOf[Inv[I].Parent];
    Visit(I, RootOf[I]);
    for (size_t C = Inv[I].Children.size(); C-- > 0;)
      Stack.push_back(Inv[I].Children[C]);
  }
}

static double shareOf(double X, double Of) { return Of != 0 ? X / Of : 0; }

void report::printBottomUp(const Aggregate &A, raw_ostream &OS,
                           const ReportModel &M, unsigned Top,
                           unsigned MaxDepth) {
  std::vector<InvertedNode> Inv = invertTree(A, MaxDepth);
  OS << "\nbottom-up (functions by self-active time; below each, the callers "
        "on the paths to it, with the part of its self time each path "
        "carries):\n";
  OS << right_justify("self-active", 12) << ' ' << right_justify("share", 7)
     << "  function\n";
  bool AnyDeep = false;
  walkInverted(Inv, Top, [&](uint32_t I, uint32_t Root) {
    const InvertedNode &N = Inv[I];
    OS << right_justify(formatTime(N.SelfActiveNs), 12) << ' '
       << right_justify(
              formatv("{0:F1}%",
                      100 * shareOf(N.SelfActiveNs, Inv[Root].SelfActiveNs))
                  .str(),
              7)
       << "  " << treeIndent(N.Depth)
       << (N.Depth > 1 ? "<- " : "") << M.Names.name(N.Func);
    if (N.Truncated)
      OS << "  ... (--max-depth)";
    OS << "\n";
    AnyDeep |= isDeepIndent(N.Depth);
  });
  if (AnyDeep)
    OS << kDeepIndentNote << "\n";
  size_t Roots = Inv[0].Children.size();
  if (Top && Roots > Top)
    OS << "(" << Roots - Top << " more functions; --top 0 lists all)\n";
}

void report::bottomUpJson(const Aggregate &A, json::OStream &J,
                          unsigned MaxDepth) {
  std::vector<InvertedNode> Inv = invertTree(A, MaxDepth);
  std::vector<uint32_t> JsonId(A.Functions.size(), UINT32_MAX);
  for (size_t I = 0; I < A.Flat.size(); ++I)
    JsonId[A.Flat[I].Func] = I;
  J.attributeObject("bottom_up", [&] {
    J.attribute("max_depth", int64_t(MaxDepth));
    J.attributeArray("nodes", [&] {
      std::vector<uint32_t> Order(Inv.size(), UINT32_MAX);
      uint32_t Next = 0;
      walkInverted(Inv, 0, [&](uint32_t I, uint32_t Root) {
        const InvertedNode &N = Inv[I];
        Order[I] = Next++;
        J.object([&] {
          J.attribute("id", int64_t(Order[I]));
          J.attribute("parent", N.Depth == 1 ? json::Value(nullptr)
                                             : json::Value(Order[N.Parent]));
          J.attribute("depth", int64_t(N.Depth));
          J.attribute("function", int64_t(JsonId[N.Func]));
          jsonNumber(J, "self_active_ns", N.SelfActiveNs);
          jsonNumber(J, "share",
                     shareOf(N.SelfActiveNs, Inv[Root].SelfActiveNs));
          jsonNumber(J, "ends_ns", N.EndsNs);
          J.attribute("truncated", N.Truncated);
        });
      });
    });
  });
}
