//===- CallGraphReport.cpp - `report --callers` ---------------------------===//
//
// Part of ActiveTime. gprof's call graph with call sites: for each function
// of the flat table its callers (caller, source position of the call, the
// calls made there and the function's active time in the timed ones) and
// its callees (callee, position, calls, the callee's active time under
// it). Text and the "call_graph" array of `report --json`. The rows are
// the one placement of calls at sites (profile::placeCalls) that
// `--call-sites` prints too, so the two views agree on callers and calls.
//
//===----------------------------------------------------------------------===//

#include "CallSiteRows.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

class CallGraphView {
public:
  /// \p Names: as the text tables print them (NameUse::Asked) or as JSON
  /// does (NameUse::JsonCallSite).
  CallGraphView(const Profile &P, const Aggregate &A,
                const FunctionNamer &Names)
      : A(A), Rows(P, A, Names), JsonId(A.Functions.size(), UINT32_MAX) {
    for (size_t I = 0; I < A.Flat.size(); ++I)
      JsonId[A.Flat[I].Func] = I;
  }
  void text(raw_ostream &OS, unsigned Top);
  void json(json::OStream &J);

private:
  void arcsText(raw_ostream &OS, ArrayRef<uint32_t> Arcs, bool Callers);
  void arcsJson(json::OStream &J, ArrayRef<uint32_t> Arcs, bool Callers);

  const Aggregate &A;
  CallSiteRows Rows;
  std::vector<uint32_t> JsonId; // positions in the flat order
  bool AnyClamped = false;
};

/// A figure as the tables print it, marked when clamped.
std::string shown(const Figure &F) {
  return formatTime(F.Shown) + (F.Clamped ? std::string(1, kClampMark) : "");
}

void CallGraphView::arcsText(raw_ostream &OS, ArrayRef<uint32_t> Arcs,
                             bool Callers) {
  OS << "    " << (Callers ? "callers:" : "callees:");
  if (Arcs.empty()) {
    OS << " none\n";
    return;
  }
  OS << "\n";
  const CallSiteTable &T = Rows.table();
  for (uint32_t I : Arcs) {
    const SiteRow &R = T.Rows[I];
    Figure F = R.active();
    // Counted calls alone have no time: no figure rather than 0.
    bool Timed = R.Timed != 0;
    AnyClamped |= Timed && F.Clamped;
    OS << "      " << right_justify(CallSiteRows::timedCalls(R), 18) << ' '
       << right_justify(Timed ? shown(F) : "-", 11) << ' '
       << right_justify(Timed ? formatTime(F.Error) : "-", 11) << ' '
       << right_justify(CallSiteRows::countedCalls(R), 10) << "  "
       << (Callers ? Rows.caller(R) : Rows.name(R.Callee));
    std::string W = Rows.location(R);
    if (!W.empty())
      OS << "  " << W;
    OS << "\n";
  }
}

void CallGraphView::text(raw_ostream &OS, unsigned Top) {
  OS << "\ncallers and callees (per caller and source position of the call, "
        "as --call-sites places them; calls: timed calls, exact, with their "
        "active time, a recursive call's time counted once, in the "
        "outermost call (rec: calls made inside an outer call of the same "
        "function); "
     << CallSiteRows::CountedNote << "):\n";
  OS << "      " << right_justify("calls", 18) << ' '
     << right_justify("active", 11) << ' ' << right_justify("+-95%", 11) << ' '
     << right_justify("~counted", 10) << "  function  call site\n";
  unsigned Shown = 0;
  const CallSiteTable &T = Rows.table();
  for (const FunctionStats &FS : A.Flat) {
    if (Top && Shown++ == Top) {
      OS << "  (" << A.Flat.size() - Top
         << " more functions; --top 0 lists all)\n";
      break;
    }
    const Stats &S = FS.S;
    ActiveFigures F = ReportModel::figures(S);
    AnyClamped |= F.Self.Clamped || (F.HasActive && F.Active.Clamped);
    OS << "  " << Rows.name(FS.Func) << "  (calls " << S.Calls;
    if (S.CountedCalls)
      OS << ": " << S.Calls - S.CountedCalls << " timed, " << S.CountedCalls
         << " counted";
    OS << ", active " << (F.HasActive ? shown(F.Active) : std::string("-"))
       << ", self-active " << shown(F.Self) << ")\n";
    arcsText(OS, T.ByCallee[FS.Func], true);
    arcsText(OS, T.ByCaller[FS.Func], false);
  }
  if (AnyClamped)
    OS << ClampNote << "\n";
}

void CallGraphView::arcsJson(json::OStream &J, ArrayRef<uint32_t> Arcs,
                             bool Callers) {
  const CallSiteTable &T = Rows.table();
  J.attributeArray(Callers ? "callers" : "callees", [&] {
    for (uint32_t I : Arcs) {
      const SiteRow &R = T.Rows[I];
      uint32_t F = Callers
                       ? (R.Kind == CallerKind::Function ? R.Caller : kNoFunc)
                       : R.Callee;
      J.object([&] {
        // null: not a function of the program (Callers only: the thread
        // root, or code outside the program; "caller_kind" says which).
        J.attribute("function", F == kNoFunc || JsonId[F] == UINT32_MAX
                                    ? json::Value(nullptr)
                                    : json::Value(JsonId[F]));
        J.attribute("name", F == kNoFunc ? json::Value(nullptr)
                                         : json::Value(Rows.name(F)));
        Rows.json(J, R, JsonId);
      });
    }
  });
}

void CallGraphView::json(json::OStream &J) {
  const CallSiteTable &T = Rows.table();
  J.attributeArray("call_graph", [&] {
    for (const FunctionStats &FS : A.Flat)
      J.object([&] {
        ActiveFigures F = ReportModel::figures(FS.S);
        J.attribute("function", int64_t(JsonId[FS.Func]));
        J.attribute("name", Rows.name(FS.Func));
        J.attribute("calls", int64_t(FS.S.Calls));
        J.attribute("counted_calls", int64_t(FS.S.CountedCalls));
        J.attribute("active_ns", F.HasActive
                                     ? json::Value(jsonNs(F.Active.Shown))
                                     : json::Value(nullptr));
        J.attribute("self_active_ns", jsonNs(F.Self.Shown));
        const CountedPlacement &Pl = T.Graph.Placement[FS.Func];
        J.attributeObject("counted_placement", [&] {
          J.attribute("by_samples", int64_t(Pl.BySamples));
          J.attribute("by_timed_share", int64_t(Pl.ByTimedShare));
          J.attribute("unplaced", int64_t(Pl.Unplaced));
        });
        arcsJson(J, T.ByCallee[FS.Func], true);
        arcsJson(J, T.ByCaller[FS.Func], false);
      });
  });
}

} // namespace

void report::printCallGraph(const Profile &P, const Aggregate &A,
                            raw_ostream &OS, const ReportModel &M,
                            unsigned Top) {
  CallGraphView(P, A, M.Names).text(OS, Top);
}

void report::callGraphJson(const Profile &P, const Aggregate &A,
                           json::OStream &J, const ViewOptions &O) {
  FunctionNamer Names(A, O.names(NameUse::JsonCallSite));
  CallGraphView(P, A, Names).json(J);
}
