//===- Diff.cpp - Comparing two profiles ----------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Diff.h. Both sides' functions
// and call paths are interned into one set of ids (paths as a trie of
// (parent path, function) pairs, so a deep path costs one entry per frame,
// not its length), then each side's whole profile and each of its runs
// fills a table of figures over those ids.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Diff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

std::vector<std::vector<uint32_t>> profile::splitRuns(const Profile &P) {
  size_t N = P.Processes.size();
  // Widened: a pid read from a file may be ~0U or ~0U - 1, which a
  // DenseMap<uint32_t> reserves (and would answer with an empty bucket).
  DenseMap<uint64_t, SmallVector<uint32_t, 1>> ByPid;
  for (uint32_t I = 0; I < N; ++I)
    ByPid[uint64_t(P.Processes[I].Pid)].push_back(I);
  // A parent started before its child; (start time, index) orders processes
  // strictly, so a reused pid can never make the relation a cycle.
  auto Before = [&](uint32_t A, uint32_t B) {
    uint64_t SA = P.Processes[A].StartUnixNs, SB = P.Processes[B].StartUnixNs;
    return SA != SB ? SA < SB : A < B;
  };
  std::vector<uint32_t> Parent(N, UINT32_MAX);
  for (uint32_t I = 0; I < N; ++I) {
    auto It = ByPid.find(uint64_t(P.Processes[I].ParentPid));
    if (It == ByPid.end())
      continue;
    for (uint32_t J : It->second) // the latest candidate started before I
      if (J != I && Before(J, I) &&
          (Parent[I] == UINT32_MAX || Before(Parent[I], J)))
        Parent[I] = J;
  }
  // Parents come before children in (start, index) order: resolve roots in
  // that order so each process's root is known when its children ask.
  std::vector<uint32_t> Order(N);
  for (uint32_t I = 0; I < N; ++I)
    Order[I] = I;
  llvm::sort(Order, Before);
  std::vector<uint32_t> Root(N);
  for (uint32_t I : Order)
    Root[I] = Parent[I] == UINT32_MAX ? I : Root[Parent[I]];
  std::vector<std::vector<uint32_t>> Runs;
  std::vector<uint32_t> RunOf(N, UINT32_MAX);
  for (uint32_t I = 0; I < N; ++I) {
    uint32_t R = Root[I];
    if (RunOf[R] == UINT32_MAX) {
      RunOf[R] = Runs.size();
      Runs.emplace_back();
    }
    Runs[RunOf[R]].push_back(I);
  }
  // A child listed before its root would have opened the run: order runs by
  // their roots' indices.
  llvm::sort(Runs, [&](const std::vector<uint32_t> &A,
                       const std::vector<uint32_t> &B) {
    return Root[A.front()] < Root[B.front()];
  });
  return Runs;
}

std::vector<Aggregate>
profile::aggregateRuns(Profile &P, ArrayRef<std::vector<uint32_t>> Runs) {
  std::vector<Aggregate> Out;
  Out.reserve(Runs.size());
  for (const std::vector<uint32_t> &Run : Runs) {
    Profile R;
    R.Merged = P.Merged;
    for (uint32_t I : Run)
      R.Processes.push_back(std::move(P.Processes[I]));
    Out.push_back(aggregate(R));
    for (size_t K = 0; K < Run.size(); ++K)
      P.Processes[Run[K]] = std::move(R.Processes[K]);
  }
  return Out;
}

std::string profile::matchKey(const FunctionInfo &F) {
  // '\0' occurs in neither name, so the key is unambiguous.
  std::string Key = F.Name;
  if (F.Local) {
    Key.push_back('\0');
    Key += F.Module;
  }
  return Key;
}

const char *profile::markName(Mark M) {
  switch (M) {
  case Mark::Significant:
    return "significant";
  case Mark::Noise:
    return "noise";
  case Mark::BelowFloor:
    return "below_floor";
  case Mark::Unknown:
    return "unknown";
  case Mark::NotComparable:
    return "not_comparable";
  }
  return "unknown";
}

std::optional<double> DiffTime::ratio() const {
  if (!comparable() || !(Base > 0))
    return std::nullopt;
  return std::max(New, 0.0) / Base;
}

double profile::tickStepNs(const Profile &P) {
  double Step = 0;
  for (const Process &Pr : P.Processes)
    Step = std::max(Step, Pr.TickStep256 ? ticks256ToNs(Pr, Pr.TickStep256)
                                         : 1e9 / double(Pr.TickRate));
  return Step;
}

/// The continued fraction of the regularized incomplete beta function
/// (modified Lentz's method, as in Numerical Recipes' betacf).
static double betaFraction(double A, double B, double X) {
  constexpr double Tiny = 1e-300, Eps = 1e-15;
  double C = 1, D = 1 - (A + B) * X / (A + 1);
  D = 1 / (std::fabs(D) < Tiny ? Tiny : D);
  double H = D;
  for (int M = 1; M <= 300; ++M) {
    for (int Odd = 0; Odd < 2; ++Odd) {
      double Num = Odd ? -(A + M) * (A + B + M) * X /
                             ((A + 2 * M) * (A + 2 * M + 1))
                       : M * (B - M) * X / ((A + 2 * M - 1) * (A + 2 * M));
      D = 1 + Num * D;
      D = 1 / (std::fabs(D) < Tiny ? Tiny : D);
      C = 1 + Num / C;
      C = std::fabs(C) < Tiny ? Tiny : C;
      H *= D * C;
      if (Odd && std::fabs(D * C - 1) < Eps)
        return H;
    }
  }
  return H;
}

/// The regularized incomplete beta function I_X(A, B).
static double incompleteBeta(double A, double B, double X) {
  if (X <= 0)
    return 0;
  if (X >= 1)
    return 1;
  double Front = std::exp(std::lgamma(A + B) - std::lgamma(A) -
                          std::lgamma(B) + A * std::log(X) +
                          B * std::log1p(-X));
  if (X < (A + 1) / (A + B + 2))
    return Front * betaFraction(A, B, X) / A;
  return 1 - Front * betaFraction(B, A, 1 - X) / B;
}

double profile::tQuantile975(double Df) {
  // P(|T| > t) = I_{Df / (Df + t^2)}(Df / 2, 1 / 2), decreasing in t:
  // bisect for 0.05 (on a log scale: t(1) is 12.7, t(inf) 1.96).
  double Lo = 1, Hi = 1e7;
  for (int I = 0; I < 200 && Hi - Lo > 1e-9 * Lo; ++I) {
    double Mid = std::sqrt(Lo * Hi);
    double Tail = incompleteBeta(Df / 2, 0.5, Df / (Df + Mid * Mid));
    (Tail > 0.05 ? Lo : Hi) = Mid;
  }
  return (Lo + Hi) / 2;
}

/// The mean and the sample variance (n - 1) of \p V.
static std::pair<double, double> meanAndVariance(ArrayRef<double> V) {
  double Mean = 0;
  for (double X : V)
    Mean += X;
  Mean /= double(V.size());
  double Sum = 0;
  for (double X : V)
    Sum += (X - Mean) * (X - Mean);
  return {Mean, Sum / double(V.size() - 1)};
}

double profile::welchSpread(ArrayRef<double> BaseRuns,
                            ArrayRef<double> NewRuns) {
  if (BaseRuns.size() < 2 || NewRuns.size() < 2)
    return -1;
  double NB = double(BaseRuns.size()), NN = double(NewRuns.size());
  double VB = meanAndVariance(BaseRuns).second / NB; // squared std. errors
  double VN = meanAndVariance(NewRuns).second / NN;
  double Var = VB + VN;
  if (!(Var > 0))
    return 0; // every run gave the same value on both sides
  double Df = Var * Var / (VB * VB / (NB - 1) + VN * VN / (NN - 1));
  return tQuantile975(Df) * std::sqrt(Var);
}

double profile::noiseBound(double Spread, double BaseErr, double NewErr,
                           double StepNs) {
  double B = BaseErr + NewErr + std::max(Spread, 0.0);
  return std::max(B, StepNs);
}

Mark profile::markDelta(double Delta, double Spread, double Bound,
                        const DiffOptions &O) {
  double A = std::fabs(Delta);
  if (A < O.MinDeltaNs)
    return Mark::BelowFloor;
  if (A <= O.NoiseFactor * Bound)
    return Mark::Noise;
  if (Spread < 0)
    return Mark::Unknown;
  return Mark::Significant;
}

namespace {

/// An entry's figures on one side (or in one run).
struct Figures {
  Has Calls = Has::Absent, Active = Has::Absent;
  bool Present = false;
  double NCalls = 0, Self = 0, Incl = 0; // as printed (activeFigures)
  double SelfErr = 0, InclErr = 0;       // their +-95%
};

/// Combines a figure's state: any part without it leaves the sum without it.
Has combine(Has Old, Has Part) {
  if (Old == Has::Unknown || Part == Has::Unknown)
    return Has::Unknown;
  return Has::Value;
}

/// One aggregate's figures over the joint ids.
struct Table {
  std::vector<Figures> Functions, Paths;
};

class Differ {
public:
  Differ(const DiffSide &Base, const DiffSide &New, const DiffOptions &O)
      : Sides{&Base, &New}, O(O) {}
  DiffResult run();

private:
  Table collect(const Aggregate &A, ArrayRef<uint32_t> Fn);
  std::vector<uint32_t> mapFunctions(const Aggregate &A);
  uint32_t path(uint32_t Parent, uint32_t Func);
  void fill(std::vector<DiffEntry> &Out, const Table (&Whole)[2],
            const std::vector<Table> (&Runs)[2], bool Paths);
  DiffTime time(const Figures &B, const Figures &N, Has BH, Has NH,
                double Figures::*Field, double Figures::*Err,
                const std::vector<Table> (&Runs)[2], bool Paths, size_t Id);

  const DiffSide *Sides[2];
  const DiffOptions &O;
  DiffResult R;
  StringMap<uint32_t> FuncIds;
  DenseMap<uint64_t, uint32_t> PathIds; // (parent + 1) << 32 | func
};

std::vector<uint32_t> Differ::mapFunctions(const Aggregate &A) {
  std::vector<uint32_t> Ids(A.Functions.size());
  for (size_t I = 0; I < A.Functions.size(); ++I) {
    auto [It, New] = FuncIds.try_emplace(matchKey(A.Functions[I]),
                                         R.Functions.size());
    if (New)
      R.Functions.push_back({It->first().str(), kNoFunc, kNoFunc});
    Ids[I] = It->second;
  }
  return Ids;
}

uint32_t Differ::path(uint32_t Parent, uint32_t Func) {
  auto [It, New] = PathIds.try_emplace(
      (uint64_t(Parent + 1) << 32) | Func, R.Paths.size());
  if (New) {
    uint32_t Depth = Parent == kNoPath ? 1 : R.Paths[Parent].Depth + 1;
    R.Paths.push_back({Parent, Func, Depth});
  }
  return It->second;
}

/// The flat profile and the call tree of \p A over the joint ids. In the
/// tree a counted function's node (its sampled time inside a timed frame)
/// adds to the path of that function under the frame: the path's time is
/// then known, its calls and inclusive time are not.
Table Differ::collect(const Aggregate &A, ArrayRef<uint32_t> Fn) {
  Table T;
  T.Functions.resize(R.Functions.size());
  for (const FunctionStats &F : A.Flat) {
    Figures &G = T.Functions[Fn[F.Func]];
    G.Present = true;
    G.Calls = Has::Value;
    G.NCalls = double(F.S.Calls);
    ActiveFigures AF = activeFigures(F.S);
    G.Self = AF.Self.Shown;
    G.SelfErr = AF.Self.Error;
    G.Active = AF.HasActive ? Has::Value : Has::Unknown;
    G.Incl = AF.HasActive ? AF.Active.Shown : 0;
    G.InclErr = AF.HasActive ? AF.Active.Error : 0;
  }
  // Every node's path first, then the table at its final size: grown
  // path by path, a million paths' table was copied as it doubled.
  std::vector<uint32_t> PathOf(A.Tree.size(), kNoPath);
  uint32_t Last = 0;
  for (size_t I = 1; I < A.Tree.size(); ++I) {
    PathOf[I] = path(PathOf[A.Tree[I].Parent], Fn[A.Tree[I].Func]);
    Last = std::max(Last, PathOf[I] + 1);
  }
  T.Paths.resize(Last);
  for (size_t I = 1; I < A.Tree.size(); ++I) {
    const TreeNode &N = A.Tree[I];
    Figures &G = T.Paths[PathOf[I]];
    Has Part = N.Counted ? Has::Unknown : Has::Value;
    G.Calls = G.Present ? combine(G.Calls, Part) : Part;
    G.Active = G.Present ? combine(G.Active, Part) : Part;
    G.Present = true;
    G.NCalls += N.Counted ? 0 : double(N.S.Calls);
    ActiveFigures AF = activeFigures(N.S, N.Counted);
    G.Self += AF.Self.Shown;
    G.SelfErr += AF.Self.Error;
    G.Incl += N.Counted ? 0 : AF.Active.Shown;
    G.InclErr += N.Counted ? 0 : AF.Active.Error;
  }
  return T;
}

DiffTime Differ::time(const Figures &B, const Figures &N, Has BH, Has NH,
                      double Figures::*Field, double Figures::*Err,
                      const std::vector<Table> (&Runs)[2], bool Paths,
                      size_t Id) {
  DiffTime D;
  D.BaseHas = BH;
  D.NewHas = NH;
  D.StepNs = std::max(Sides[0]->TickStepNs, Sides[1]->TickStepNs);
  const Figures *Whole[2] = {&B, &N};
  double *Mean[2] = {&D.Base, &D.New};
  double *MeanErr[2] = {&D.BaseErr, &D.NewErr};
  std::vector<double> *PerRun[2] = {&D.BaseRuns, &D.NewRuns};
  Has States[2] = {BH, NH};
  for (int S = 0; S < 2; ++S) {
    if (States[S] != Has::Value)
      continue;
    *Mean[S] = Whole[S]->*Field / double(Sides[S]->NumRuns);
    *MeanErr[S] = Whole[S]->*Err / double(Sides[S]->NumRuns);
    for (const Table &T : Runs[S]) {
      const std::vector<Figures> &V = Paths ? T.Paths : T.Functions;
      PerRun[S]->push_back(Id < V.size() ? V[Id].*Field : 0);
    }
  }
  if (!D.comparable()) {
    D.M = Mark::NotComparable;
    return D;
  }
  // An absent side ran the entry 0 times in each run.
  for (int S = 0; S < 2; ++S)
    if (States[S] == Has::Absent)
      PerRun[S]->assign(Runs[S].size(), 0.0);
  D.Spread = welchSpread(D.BaseRuns, D.NewRuns);
  D.Bound = noiseBound(D.Spread, D.BaseErr, D.NewErr, D.StepNs);
  D.M = markDelta(D.delta(), D.Spread, D.Bound, O);
  return D;
}

void Differ::fill(std::vector<DiffEntry> &Out, const Table (&Whole)[2],
                  const std::vector<Table> (&Runs)[2], bool Paths) {
  size_t N = Paths ? R.Paths.size() : R.Functions.size();
  Out.resize(N);
  static const Figures None;
  for (size_t I = 0; I < N; ++I) {
    const std::vector<Figures> &BV =
        Paths ? Whole[0].Paths : Whole[0].Functions;
    const std::vector<Figures> &NV =
        Paths ? Whole[1].Paths : Whole[1].Functions;
    const Figures &B = I < BV.size() ? BV[I] : None;
    const Figures &Nw = I < NV.size() ? NV[I] : None;
    DiffEntry &E = Out[I];
    E.InBase = B.Present;
    E.InNew = Nw.Present;
    E.Calls.BaseHas = B.Calls;
    E.Calls.NewHas = Nw.Calls;
    E.Calls.Base = B.Calls == Has::Value ? B.NCalls / Sides[0]->NumRuns : 0;
    E.Calls.New = Nw.Calls == Has::Value ? Nw.NCalls / Sides[1]->NumRuns : 0;
    Has BS = B.Present ? Has::Value : Has::Absent;
    Has NS = Nw.Present ? Has::Value : Has::Absent;
    E.Self = time(B, Nw, BS, NS, &Figures::Self, &Figures::SelfErr, Runs,
                  Paths, I);
    E.Active = time(B, Nw, B.Active, Nw.Active, &Figures::Incl,
                    &Figures::InclErr, Runs, Paths, I);
  }
}

DiffResult Differ::run() {
  Table Whole[2];
  std::vector<Table> Runs[2];
  for (int S = 0; S < 2; ++S) {
    std::vector<uint32_t> Fn = mapFunctions(*Sides[S]->Whole);
    for (size_t I = 0; I < Fn.size(); ++I)
      (S == 0 ? R.Functions[Fn[I]].Base : R.Functions[Fn[I]].New) = I;
    Whole[S] = collect(*Sides[S]->Whole, Fn);
    for (const Aggregate &A : Sides[S]->Runs)
      Runs[S].push_back(collect(A, mapFunctions(A)));
  }
  R.SpreadKnown = Sides[0]->Runs.size() >= 2 && Sides[1]->Runs.size() >= 2;
  fill(R.FunctionDiffs, Whole, Runs, /*Paths=*/false);
  fill(R.PathDiffs, Whole, Runs, /*Paths=*/true);
  return std::move(R);
}

} // namespace

DiffResult profile::diffProfiles(const DiffSide &Base, const DiffSide &New,
                                 const DiffOptions &O) {
  return Differ(Base, New, O).run();
}

static double metricDelta(const DiffEntry &E, DiffMetric M) {
  switch (M) {
  case DiffMetric::SelfActive:
    return E.Self.comparable() ? std::fabs(E.Self.delta()) : -1;
  case DiffMetric::Active:
    return E.Active.comparable() ? std::fabs(E.Active.delta()) : -1;
  case DiffMetric::Calls:
    return E.Calls.comparable() ? std::fabs(E.Calls.delta()) : -1;
  }
  return -1;
}

std::vector<uint32_t> profile::sortByDelta(ArrayRef<DiffEntry> Entries,
                                           DiffMetric Metric,
                                           ArrayRef<std::string> Names) {
  std::vector<uint32_t> Idx;
  for (uint32_t I = 0; I < Entries.size(); ++I)
    if (Entries[I].InBase || Entries[I].InNew)
      Idx.push_back(I);
  llvm::sort(Idx, [&](uint32_t A, uint32_t B) {
    double DA = metricDelta(Entries[A], Metric),
           DB = metricDelta(Entries[B], Metric);
    if (DA != DB)
      return DA > DB;
    if (Names[A] != Names[B])
      return Names[A] < Names[B];
    return A < B;
  });
  return Idx;
}
