//===- CallSiteReport.cpp - `report --call-sites` -------------------------===//
//
// Part of ActiveTime. Who called each function from where: for each function
// of the flat table, its call sites (caller, source position of the call)
// with their timed calls and the counted calls placed there, and for a call
// instruction that reached several functions (an indirect or virtual call,
// or a tail call) how its calls divided among them. Text and the
// "call_sites" array of `report --json`. The rows are the one placement of
// calls at sites (profile::placeCalls) that `--callers` prints too.
//
//===----------------------------------------------------------------------===//

#include "CallSiteRows.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// How a function's counted calls were placed, when it had any.
std::string placementLine(const CountedPlacement &Pl) {
  std::vector<std::string> Parts;
  if (Pl.BySamples)
    Parts.push_back(utostr(Pl.BySamples) + " placed by code samples");
  if (Pl.ByTimedShare)
    Parts.push_back(utostr(Pl.ByTimedShare) +
                    " by the timed calls' sites (no sample gave a site)");
  if (Pl.Unplaced)
    Parts.push_back(utostr(Pl.Unplaced) +
                    " unplaced (neither a sample nor a timed call gave a "
                    "site)");
  return join(Parts, ", ");
}

void printText(const CallSiteRows &V, raw_ostream &OS,
               const std::vector<FunctionStats> &Order, unsigned Top) {
  const CallSiteTable &T = V.table();
  OS << "\ncall sites (per caller and source position of the call; timed: "
        "calls through the entry probe, exact; "
     << CallSiteRows::CountedNote << "):\n";
  unsigned Shown = 0;
  for (const FunctionStats &FS : Order) {
    const std::vector<uint32_t> &Rows = T.ByCallee[FS.Func];
    if (Rows.empty())
      continue;
    if (Top && Shown++ == Top)
      break;
    OS << "  " << V.name(FS.Func) << "  (" << FS.S.Calls << " calls";
    if (FS.S.CountedCalls)
      OS << ": " << FS.S.Calls - FS.S.CountedCalls << " timed, "
         << FS.S.CountedCalls << " counted";
    OS << ")\n";
    OS << "    " << right_justify("timed", 14) << "  "
       << right_justify("~counted", 10) << "  caller  call site\n";
    for (uint32_t I : Rows) {
      const SiteRow &R = T.Rows[I];
      OS << "    " << right_justify(CallSiteRows::timedCalls(R), 14) << "  "
         << right_justify(CallSiteRows::countedCalls(R), 10) << "  "
         << V.caller(R);
      std::string W = V.location(R);
      if (!W.empty())
        OS << "  " << W;
      if (R.Targets > 1 && R.SiteCalls > 0)
        OS << formatv("  [{0:F1}% of this call's {1} targets' calls]",
                      100 * R.calls() / R.SiteCalls, R.Targets);
      OS << "\n";
    }
    if (FS.S.CountedCalls)
      OS << "    counted calls: " << placementLine(T.Graph.Placement[FS.Func])
         << "\n";
  }
}

void printJson(const CallSiteRows &V, json::OStream &J,
               const std::vector<uint32_t> &JsonId) {
  const CallSiteTable &T = V.table();
  J.attributeArray("call_sites", [&] {
    for (uint32_t F = 0; F < T.ByCallee.size(); ++F)
      for (uint32_t I : T.ByCallee[F]) {
        const SiteRow &R = T.Rows[I];
        J.object([&] {
          J.attribute("callee", V.name(F));
          J.attribute("callee_function", JsonId[F] == UINT32_MAX
                                             ? json::Value(nullptr)
                                             : json::Value(JsonId[F]));
          J.attribute("caller", R.Kind == CallerKind::Function
                                    ? json::Value(V.name(R.Caller))
                                    : json::Value(nullptr));
          J.attribute("caller_function", R.Kind == CallerKind::Function &&
                                                 JsonId[R.Caller] != UINT32_MAX
                                             ? json::Value(JsonId[R.Caller])
                                             : json::Value(nullptr));
          V.json(J, R, JsonId);
        });
      }
  });
}

std::vector<uint32_t> jsonIds(const Aggregate &A) {
  std::vector<uint32_t> Id(A.Functions.size(), UINT32_MAX);
  for (size_t I = 0; I < A.Flat.size(); ++I)
    Id[A.Flat[I].Func] = I;
  return Id;
}

} // namespace

void report::printCallSites(const Profile &P, const Aggregate &A,
                            raw_ostream &OS, const ReportModel &M,
                            unsigned Top) {
  CallSiteRows V(P, A, M.Names);
  printText(V, OS, A.Flat, Top);
}

void report::callSitesJson(const Profile &P, const Aggregate &A,
                           json::OStream &J, const ViewOptions &O) {
  FunctionNamer Names(A, O.names(NameUse::JsonCallSite));
  CallSiteRows V(P, A, Names);
  printJson(V, J, jsonIds(A));
}
