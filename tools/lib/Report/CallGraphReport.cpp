//===- CallGraphReport.cpp - `report --callers`
//----------------------------===//
//
// Part of ActiveTime. gprof's call graph with call sites: for each function
// of the flat table its callers (caller, source line of the call, calls,
// the function's active time when called from there) and its callees
// (callee, line, calls, the callee's active time under it). Text and the
// "call_graph" array of `report --json`. The model is CallerCallee.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallerCallee.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

class CallGraphView {
public:
  /// \p M: names as the text tables print them; JSON's (null) are the
  /// full demangled names, as its "functions" array's.
  CallGraphView(const Profile &P, const Aggregate &A, bool Demangle,
                const ReportModel *M = nullptr)
      : A(A), Demangle(Demangle), M(M), G(buildCallArcs(P, A)),
        JsonId(A.Functions.size(), UINT32_MAX) {
    for (size_t I = 0; I < A.Flat.size(); ++I)
      JsonId[A.Flat[I].Func] = I;
    symbolize::LLVMSymbolizer::Options SO;
    SO.Demangle = false;
    Sym = std::make_unique<symbolize::LLVMSymbolizer>(SO);
  }
  void text(raw_ostream &OS, unsigned Top);
  void json(json::OStream &J);

private:
  struct Line {
    std::string File;
    uint32_t Line = 0;
  };
  std::string name(uint32_t F) const {
    if (F == kNoFunc)
      return "<thread root>";
    return M ? M->name(F) : displayName(A.Functions[F].Name, Demangle);
  }
  const Line &line(uint32_t Arc);
  std::string where(uint32_t Arc);
  void arcsText(raw_ostream &OS, ArrayRef<uint32_t> Arcs, bool Callers);
  void arcsJson(json::OStream &J, ArrayRef<uint32_t> Arcs, bool Callers);

  const Aggregate &A;
  bool Demangle;
  const ReportModel *M;
  CallArcs G;
  std::unique_ptr<symbolize::LLVMSymbolizer> Sym;
  std::map<uint32_t, Line> Lines; // by arc, symbolized once
  std::vector<uint32_t> JsonId;   // positions in the flat order
};

const CallGraphView::Line &CallGraphView::line(uint32_t Arc) {
  auto [It, New] = Lines.try_emplace(Arc);
  if (New) {
    DIInliningInfo Frames = symbolizeCall(*Sym, G.Arcs[Arc].edge());
    if (Frames.getNumberOfFrames() && Frames.getFrame(0).Line) {
      It->second.File = sys::path::filename(Frames.getFrame(0).FileName).str();
      It->second.Line = Frames.getFrame(0).Line;
    }
  }
  return It->second;
}

std::string CallGraphView::where(uint32_t Arc) {
  const CallArc &X = G.Arcs[Arc];
  if (!X.ReturnAddr)
    return "";
  const Line &L = line(Arc);
  if (!L.Line)
    return formatv("(no line info, return address {0:x})", X.ReturnAddr);
  return formatv("{0}:{1}", L.File, L.Line).str();
}

void CallGraphView::arcsText(raw_ostream &OS, ArrayRef<uint32_t> Arcs,
                             bool Callers) {
  OS << "    " << (Callers ? "callers:" : "callees:");
  if (Arcs.empty()) {
    OS << " none\n";
    return;
  }
  OS << "\n";
  for (uint32_t I : Arcs) {
    const CallArc &X = G.Arcs[I];
    std::string Calls = utostr(X.Calls);
    if (X.RecursiveCalls)
      Calls += formatv(" ({0} rec)", X.RecursiveCalls).str();
    OS << "      " << right_justify(Calls, 18) << ' '
       << right_justify(formatTime(X.ActiveNs), 11) << "  "
       << name(Callers ? X.Caller : X.Callee);
    std::string W = where(I);
    if (!W.empty())
      OS << "  " << W;
    OS << "\n";
  }
}

void CallGraphView::text(raw_ostream &OS, unsigned Top) {
  OS << "\ncallers and callees (timed calls; active: of the callee's calls "
        "on that arc, a recursive call's time counted once, in the "
        "outermost call; rec: calls made inside an outer call of the same "
        "function):\n";
  OS << "      " << right_justify("calls", 18) << ' '
     << right_justify("active", 11) << "  function  call site\n";
  unsigned Shown = 0;
  for (const FunctionStats &FS : A.Flat) {
    if (Top && Shown++ == Top) {
      OS << "  (" << A.Flat.size() - Top
         << " more functions; --top 0 lists all)\n";
      break;
    }
    const Stats &S = FS.S;
    OS << "  " << name(FS.Func) << "  (calls " << S.Calls << ", active "
       << formatTime(S.Active) << ", self-active " << formatTime(S.SelfActive)
       << ")";
    if (S.CountedCalls)
      OS << "  [" << S.CountedCalls
         << " counted calls: not in these arcs (no probe, no node); "
            "--call-sites places them by code samples]";
    OS << "\n";
    arcsText(OS, G.Callers[FS.Func], true);
    arcsText(OS, G.Callees[FS.Func], false);
  }
}

void CallGraphView::arcsJson(json::OStream &J, ArrayRef<uint32_t> Arcs,
                             bool Callers) {
  J.attributeArray(Callers ? "callers" : "callees", [&] {
    for (uint32_t I : Arcs) {
      const CallArc &X = G.Arcs[I];
      uint32_t F = Callers ? X.Caller : X.Callee;
      J.object([&] {
        // null: a thread's root call (callers only).
        J.attribute("function", F == kNoFunc ? json::Value(nullptr)
                                             : json::Value(JsonId[F]));
        J.attribute("name",
                    F == kNoFunc ? json::Value(nullptr) : json::Value(name(F)));
        const Line &L = X.ReturnAddr ? line(I) : Line();
        J.attribute("file", L.File);
        J.attribute("line", int64_t(L.Line));
        J.attribute("return_address",
                    X.ReturnAddr
                        ? json::Value(formatv("{0:x}", X.ReturnAddr).str())
                        : json::Value(nullptr));
        J.attribute("calls", int64_t(X.Calls));
        J.attribute("recursive_calls", int64_t(X.RecursiveCalls));
        J.attribute("active_ns", X.ActiveNs);
      });
    }
  });
}

void CallGraphView::json(json::OStream &J) {
  J.attributeArray("call_graph", [&] {
    for (const FunctionStats &FS : A.Flat)
      J.object([&] {
        J.attribute("function", int64_t(JsonId[FS.Func]));
        J.attribute("name", name(FS.Func));
        J.attribute("calls", int64_t(FS.S.Calls));
        J.attribute("counted_calls", int64_t(FS.S.CountedCalls));
        J.attribute("active_ns", FS.S.Active);
        J.attribute("self_active_ns", FS.S.SelfActive);
        arcsJson(J, G.Callers[FS.Func], true);
        arcsJson(J, G.Callees[FS.Func], false);
      });
  });
}

} // namespace

void report::printCallGraph(const Profile &P, const Aggregate &A,
                            raw_ostream &OS, const ReportModel &M,
                            unsigned Top) {
  CallGraphView(P, A, M.Demangle, &M).text(OS, Top);
}

void report::callGraphJson(const Profile &P, const Aggregate &A,
                           json::OStream &J, bool Demangle) {
  CallGraphView(P, A, Demangle).json(J);
}
