//===- activetime/Profile/CallSites.h - Call-site edges ---------*- C++ -*-===//
//
// Part of ActiveTime. Who called each function, from which call instruction,
// how often: gprof's arcs with the call site added, the one placement of
// calls at sites that the callers view, the call-sites view and the
// sample-profile export (PGO) all read.
//
// Who called: the function whose code holds the call instruction (the
// return address the entry probe read, resolved through the objects'
// symbols), which is the caller even when it was only counted and so has
// no node of its own (the node's parent is then its nearest timed caller).
// Where no program function holds it: a thread's first instrumented call
// made from outside the program is the thread's root; a call from code
// outside the program inside a timed call (a library calling back) is
// "outside" with that timed call's function around it; a call site that
// was not recorded or cannot be resolved (the object's symbols missing)
// leaves the nearest timed caller, with no location.
//
// Timed calls are exact: their entry probe read the return address, and the
// runtime keeps a node per (calling context, callee, call site). Calls that
// were only counted ran no probe; the thread's exact count of them is placed
// at call sites in proportion to the function's code samples from each site
// (each sample of a counted call carries its frame's return address), or,
// when none of its samples gave a site, in proportion to its timed calls per
// site. Those placements are estimates and are kept apart from the exact
// figure.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CALLSITES_H
#define ACTIVETIME_PROFILE_CALLSITES_H

#include "activetime/Profile/Aggregate.h"

#include "llvm/DebugInfo/DIContext.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
namespace symbolize {
class LLVMSymbolizer;
} // namespace symbolize
} // namespace llvm

namespace activetime {
namespace profile {

/// Who made an edge's calls (see the file comment).
enum class CallerKind : uint8_t {
  Function,   // Caller's code (or, site unknown, the nearest timed caller)
  ThreadRoot, // the thread's first instrumented call, from outside
  Outside,    // code outside the program, inside a timed call of Enclosing
};

/// Calls of one function (Callee) from one call instruction.
struct CallEdge {
  CallerKind Kind = CallerKind::Function;
  /// Aggregate::Functions id of the caller (Kind Function), else kNoFunc.
  uint32_t Caller = kNoFunc;
  /// Kind Outside: the function of the timed call the outside code ran in.
  uint32_t Enclosing = kNoFunc;
  uint32_t Callee = 0;
  /// The instruction after the call, as a link-time address of Object (0:
  /// unknown). Object is the ELF file of the caller's module.
  std::string Object;
  uint64_t ReturnAddr = 0;
  /// Kind Function without ReturnAddr: the call site was recorded but its
  /// object's symbols could not be read (else it was not recorded).
  bool Unresolved = false;
  uint64_t Timed = 0;      // calls timed here (entry probe: exact)
  /// Of the timed calls, those made inside an outer call of the callee's
  /// own function: their time is in that outer call's (recursion once).
  uint64_t RecursiveTimed = 0;
  /// The timed calls' inclusive figures, of the outermost ones only
  /// (Aggregate's rule), with the active time's error parts.
  double ActiveNs = 0, ElapsedNs = 0;
  ErrorParts ActiveErr;
  double Counted = 0;      // counted calls placed here (estimate)
  uint64_t Samples = 0;    // code samples of counted calls from here
  double calls() const { return double(Timed) + Counted; }
  /// The active time as printed: clamped into [0, elapsed], with its +-95%.
  Figure active() const {
    return clampFigure(ActiveNs, halfWidth95(ActiveErr, 0), 0, ElapsedNs);
  }
};

/// How the counted calls of one function were placed.
struct CountedPlacement {
  uint64_t BySamples = 0;   // placed by code samples
  uint64_t ByTimedShare = 0; // no sample gave a site: by the timed calls
  uint64_t Unplaced = 0;    // neither: sites unknown
};

struct CallGraph {
  /// Sorted by callee, then calls descending.
  std::vector<CallEdge> Edges;
  /// By Aggregate::Functions id. (Every call of a function, timed and
  /// counted, is its flat Stats::Calls in the Aggregate.)
  std::vector<CountedPlacement> Placement;
};

/// The call-site edges of \p P (its code samples and call sites resolved,
/// resolveCodeSamples), with function ids of \p A = aggregate(P).
CallGraph buildCallGraph(const Profile &P, const Aggregate &A);

/// The call instruction of \p E (the byte before its return address) with
/// its inline frames, innermost first, from the debug info of E.Object; no
/// frames when the call is outside the program or the symbolizer fails.
/// Every frame is named by its function (a timed copy by the function it
/// copies).
llvm::DIInliningInfo symbolizeCall(llvm::symbolize::LLVMSymbolizer &Sym,
                                   const CallEdge &E);

/// Where in the source a call instruction is: the position of the call and
/// the inline frames it sits in.
struct SourceSite {
  std::string File;   // file name of the call's position ("": no line)
  uint32_t Line = 0, Column = 0, Discriminator = 0;
  /// With the call in inlined code: the function it was written in (the
  /// innermost frame, linkage name) and the line of the caller's own code
  /// where that code was inlined (the outermost frame's); else empty / 0.
  std::string InlinedFrom;
  std::string InlinedAtFile; // file name of that line
  uint32_t InlinedAt = 0;
  /// Every frame between, as (function, line) innermost first: what tells
  /// apart two calls of one line inlined through different functions.
  std::vector<std::pair<std::string, uint32_t>> Frames;
  bool known() const { return Line != 0; }
};

/// One row of the callers and call-sites views: the calls of Callee by one
/// caller from one position of the source. The call instructions compiled
/// from it (a function and its timed copy, an unrolled loop's copies)
/// are one row; calls of one line told apart by column, discriminator or
/// the functions inlined there are separate rows, and Detail says how much
/// of the position it takes to tell this row from the caller's others of
/// the same callee.
struct SiteRow {
  CallerKind Kind = CallerKind::Function;
  uint32_t Caller = kNoFunc, Enclosing = kNoFunc, Callee = 0;
  SourceSite Where;
  /// How much of Where the printed location needs: 0 file:line, 1 with the
  /// column, 2 with the discriminator, 3 with the inline frames.
  unsigned Detail = 0;
  std::vector<uint32_t> Edges; // CallGraph edges merged here
  uint64_t Timed = 0, RecursiveTimed = 0, Samples = 0;
  double Counted = 0, ActiveNs = 0, ElapsedNs = 0;
  ErrorParts ActiveErr;
  /// Functions reached from this row's call instructions (an indirect or
  /// virtual call, or a tail call reaching another function: one), and
  /// their calls from there in all.
  uint32_t Targets = 1;
  double SiteCalls = 0;
  double calls() const { return double(Timed) + Counted; }
  Figure active() const {
    return clampFigure(ActiveNs, halfWidth95(ActiveErr, 0), 0, ElapsedNs);
  }
};

/// The one placement of calls at sites both views print.
struct CallSiteTable {
  CallGraph Graph;
  std::vector<SiteRow> Rows;
  /// Per Aggregate function id: its rows as callee and as caller (Kind
  /// Function), each by active time, then calls, descending.
  std::vector<std::vector<uint32_t>> ByCallee, ByCaller;
};

/// Builds the table of \p P (call sites resolved: resolveCodeSamples) with
/// function ids of \p A = aggregate(P). \p Sym symbolizes the call
/// instructions; null: none, every instruction its own row.
CallSiteTable placeCalls(const Profile &P, const Aggregate &A,
                         llvm::symbolize::LLVMSymbolizer *Sym);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_CALLSITES_H
