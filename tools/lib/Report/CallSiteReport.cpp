//===- CallSiteReport.cpp - `report --call-sites` -------------------------===//
//
// Part of ActiveTime. Who called each function from where: for each function
// of the flat table, its call sites (caller, source line of the call) with
// their calls, and for a call instruction that reached several functions (an
// indirect or virtual call) how its calls divided among them. Text and the
// "call_sites" array of `report --json`. The model is CallSites.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Reports.h"
#include "activetime/Profile/CallSites.h"
#include "activetime/abi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// Source position of a call: file:line of the call instruction, with the
/// function it was inlined into when the profiled build had inlined it.
struct SiteLocation {
  std::string File;
  uint32_t Line = 0;
  std::string InlinedInto; // outermost function, when not the innermost
};

class CallSiteView {
public:
  /// \p M: names as the text tables print them; JSON's (null) are the
  /// full demangled names.
  CallSiteView(const Profile &P, const Aggregate &A, bool Demangle,
               const ReportModel *M = nullptr)
      : A(A), Demangle(Demangle), M(M), G(buildCallGraph(P, A)) {
    symbolize::LLVMSymbolizer::Options SO;
    SO.Demangle = false;
    Sym = std::make_unique<symbolize::LLVMSymbolizer>(SO);
    build();
  }
  void text(raw_ostream &OS, const std::vector<FunctionStats> &Order,
            unsigned Top);
  void json(json::OStream &J);

private:
  struct Site {
    const CallEdge *E;
    SiteLocation Loc;
    uint32_t Targets = 1;     // callees reached from this call instruction
    double SiteCalls = 0;     // calls of all of them from it
  };
  std::string name(uint32_t F) const {
    if (F == kNoFunc)
      return "<outside the program>";
    return M ? M->name(F) : displayName(A.Functions[F].Name, Demangle);
  }
  SiteLocation locate(const CallEdge &E);
  std::string where(const Site &S) const;

  void build();

  const Aggregate &A;
  bool Demangle;
  const ReportModel *M;
  CallGraph G;
  std::unique_ptr<symbolize::LLVMSymbolizer> Sym;
  std::map<uint32_t, std::vector<Site>> ByCallee;
};

SiteLocation CallSiteView::locate(const CallEdge &E) {
  SiteLocation L;
  DIInliningInfo Frames = symbolizeCall(*Sym, E);
  uint32_t N = Frames.getNumberOfFrames();
  if (!N || Frames.getFrame(0).Line == 0)
    return L;
  L.File = sys::path::filename(Frames.getFrame(0).FileName).str();
  L.Line = Frames.getFrame(0).Line;
  if (N > 1)
    L.InlinedInto = Frames.getFrame(N - 1).FunctionName;
  return L;
}

void CallSiteView::build() {
  // Calls per call instruction over all its callees.
  std::map<std::pair<std::string, uint64_t>, std::pair<uint32_t, double>> PerSite;
  for (const CallEdge &E : G.Edges)
    if (E.ReturnAddr) {
      auto &X = PerSite[{E.Object, E.ReturnAddr}];
      X.first++;
      X.second += E.calls();
    }
  for (const CallEdge &E : G.Edges) {
    Site S{&E, locate(E)};
    if (E.ReturnAddr) {
      const auto &X = PerSite[{E.Object, E.ReturnAddr}];
      S.Targets = X.first;
      S.SiteCalls = X.second;
    }
    ByCallee[E.Callee].push_back(std::move(S));
  }
}

std::string CallSiteView::where(const Site &S) const {
  if (S.E->Caller == kNoFunc)
    return "";
  if (S.Loc.Line == 0)
    return "(no line info)";
  std::string W = formatv("{0}:{1}", S.Loc.File, S.Loc.Line).str();
  if (!S.Loc.InlinedInto.empty())
    W += " (inlined into " + displayName(S.Loc.InlinedInto, Demangle) + ")";
  return W;
}

std::string callCount(const CallEdge &E) {
  uint64_t N = uint64_t(std::llround(E.calls()));
  return E.Counted > 0 ? formatv("{0}~", N).str() : formatv("{0} ", N).str();
}

void CallSiteView::text(raw_ostream &OS, const std::vector<FunctionStats> &Order,
                        unsigned Top) {
  OS << "\ncall sites (calls from each call instruction; ~ = includes "
        "counted calls placed by code samples, an estimate):\n";
  unsigned Shown = 0;
  for (const FunctionStats &FS : Order) {
    auto It = ByCallee.find(FS.Func);
    if (It == ByCallee.end())
      continue;
    if (Top && Shown++ == Top)
      break;
    OS << "  " << name(FS.Func) << "  (" << FS.S.Calls << " calls)\n";
    for (const Site &S : It->second) {
      OS << "    " << right_justify(callCount(*S.E), 14) << "  "
         << name(S.E->Caller);
      std::string W = where(S);
      if (!W.empty())
        OS << "  " << W;
      if (S.Targets > 1 && S.SiteCalls > 0)
        OS << formatv("  [{0:F1}% of this call's {1} targets' calls]",
                      100 * S.E->calls() / S.SiteCalls, S.Targets);
      OS << "\n";
    }
  }
}

void CallSiteView::json(json::OStream &J) {
  J.attributeArray("call_sites", [&] {
    for (const auto &KV : ByCallee)
      for (const Site &S : KV.second)
        J.object([&] {
          J.attribute("callee", name(KV.first));
          J.attribute("caller", S.E->Caller == kNoFunc
                                    ? json::Value(nullptr)
                                    : json::Value(name(S.E->Caller)));
          J.attribute("object", S.E->Object);
          J.attribute("return_address", S.E->ReturnAddr
                                            ? json::Value(formatv(
                                                  "{0:x}", S.E->ReturnAddr)
                                                              .str())
                                            : json::Value(nullptr));
          J.attribute("file", S.Loc.File);
          J.attribute("line", int64_t(S.Loc.Line));
          J.attribute("inlined_into", S.Loc.InlinedInto);
          J.attribute("timed_calls", int64_t(S.E->Timed));
          J.attribute("counted_calls_estimate", S.E->Counted);
          J.attribute("counted_code_samples", int64_t(S.E->Samples));
          J.attribute("targets_at_site", int64_t(S.Targets));
        });
  });
}

} // namespace

void report::printCallSites(const Profile &P, const Aggregate &A,
                          raw_ostream &OS, const ReportModel &M,
                          unsigned Top) {
  CallSiteView(P, A, M.Demangle, &M).text(OS, A.Flat, Top);
}

void report::callSitesJson(const Profile &P, const Aggregate &A,
                         json::OStream &J, bool Demangle) {
  CallSiteView(P, A, Demangle).json(J);
}
