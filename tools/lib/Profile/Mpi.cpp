//===- Mpi.cpp - Time and bytes in MPI ------------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Mpi.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Mpi.h"

#include "activetime/Profile/Flags.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>

using namespace activetime;
using namespace activetime::profile;

/// Every MPI routine's function (abi::FF_Mpi in some process), by
/// Aggregate id.
static std::vector<bool> mpiFunctions(const Profile &P, const Aggregate &A) {
  std::vector<bool> Mpi(A.Functions.size());
  for (size_t PI = 0; PI < P.Processes.size(); ++PI) {
    const Process &Pr = P.Processes[PI];
    const std::vector<uint32_t> &Ids = A.FunctionIds[PI];
    for (size_t F = 0; F < Pr.Functions.size() && F < Ids.size(); ++F)
      if (isMpi(Pr.Functions[F]))
        Mpi[Ids[F]] = true;
  }
  return Mpi;
}

/// The ranks of \p P's MPI processes, ascending, each with its column.
static std::map<uint32_t, uint32_t> rankColumns(const Profile &P) {
  std::map<uint32_t, uint32_t> Column;
  for (const Process &Pr : P.Processes)
    if (Pr.MpiSize)
      Column.emplace(Pr.MpiRank, 0);
  uint32_t Next = 0;
  for (auto &[Rank, Col] : Column)
    Col = Next++;
  return Column;
}

/// Each rank's computing and waiting time (MpiRankTime).
static std::vector<MpiRankTime> rankTimes(const Profile &P, const Aggregate &A,
                                          const std::vector<bool> &Mpi) {
  std::map<uint32_t, uint32_t> Column = rankColumns(P);
  std::vector<MpiRankTime> Out(Column.size());
  for (auto &[Rank, Col] : Column)
    Out[Col].Rank = Rank;
  for (const Process &Pr : P.Processes)
    if (Pr.MpiSize)
      Out[Column[Pr.MpiRank]].WallNs += ticksToNs(Pr, Pr.EndTick - Pr.StartTick);
  for (const ThreadSummary &T : A.Threads) {
    const Process &Pr = P.Processes[T.Process];
    if (!Pr.MpiSize)
      continue;
    MpiRankTime &R = Out[Column[Pr.MpiRank]];
    R.ComputingNs += T.TotalSelfActive;
    for (const FunctionStats &F : T.Functions)
      if (Mpi[F.Func]) {
        R.ComputingNs -= F.S.SelfActive;
        R.WaitingNs += F.S.Elapsed;
        R.WaitingOnCpuNs += F.S.Active;
      }
  }
  return Out;
}

MpiSummary profile::mpiSummary(const Profile &P, const Aggregate &A) {
  MpiSummary S;
  // Aggregate function id -> bytes, for every MPI routine's function.
  std::map<uint32_t, uint64_t> Bytes;
  std::vector<bool> Mpi = mpiFunctions(P, A);
  for (uint32_t F = 0; F < Mpi.size(); ++F)
    if (Mpi[F])
      Bytes.emplace(F, 0);
  for (size_t PI = 0; PI < P.Processes.size(); ++PI) {
    const Process &Pr = P.Processes[PI];
    if (Pr.MpiSize) {
      ++S.Ranks;
      S.JobSize = std::max(S.JobSize, Pr.MpiSize);
    }
    const std::vector<uint32_t> &Ids = A.FunctionIds[PI];
    for (const MpiRoutineBytes &X : Pr.Mpi.Routines)
      if (X.Func < Ids.size())
        Bytes[Ids[X.Func]] += X.Bytes;
  }
  for (const FunctionStats &F : A.Flat) {
    auto It = Bytes.find(F.Func);
    if (It == Bytes.end() || !F.S.Calls)
      continue;
    MpiRoutine R;
    R.Func = F.Func;
    R.Calls = F.S.Calls;
    R.ActiveNs = F.S.Active;
    R.ElapsedNs = F.S.Elapsed;
    R.Bytes = It->second;
    S.ActiveNs += R.ActiveNs;
    S.ElapsedNs += R.ElapsedNs;
    S.Bytes += R.Bytes;
    S.Routines.push_back(R);
  }
  std::sort(S.Routines.begin(), S.Routines.end(),
            [&](const MpiRoutine &X, const MpiRoutine &Y) {
              if (X.ElapsedNs != Y.ElapsedNs)
                return X.ElapsedNs > Y.ElapsedNs;
              return A.Functions[X.Func].Name < A.Functions[Y.Func].Name;
            });
  S.PerRank = rankTimes(P, A, Mpi);
  return S;
}

/// Per thread of \p P's MPI processes, per function, the active time of the
/// MPI calls under the function's outermost calls (each MPI call counted
/// once per function on its path, as inclusive figures count it):
/// [thread summary][function] ns, empty for a thread with no MPI call.
static std::vector<std::map<uint32_t, double>>
mpiActiveBeneath(const Profile &P, const Aggregate &A,
                 const std::vector<bool> &Mpi) {
  // A.Threads holds every process's threads in order.
  std::vector<std::map<uint32_t, double>> Out(A.Threads.size());
  size_t TI = 0;
  std::vector<uint32_t> Seen;
  for (size_t PI = 0; PI < P.Processes.size(); ++PI) {
    const Process &Pr = P.Processes[PI];
    const std::vector<uint32_t> &Ids = A.FunctionIds[PI];
    for (const Thread &T : Pr.Threads) {
      std::map<uint32_t, double> &Beneath = Out[TI++];
      if (!Pr.MpiSize)
        continue;
      for (const Node &Nd : T.Nodes) {
        if (!Nd.Calls || !Mpi[Ids[Nd.Func]])
          continue;
        double Ns = signedTicksToNs(Pr, Nd.active());
        Seen.clear();
        for (uint32_t Up = Nd.Parent; Up != kNoParent;
             Up = T.Nodes[Up].Parent) {
          uint32_t F = Ids[T.Nodes[Up].Func];
          if (std::find(Seen.begin(), Seen.end(), F) == Seen.end()) {
            Seen.push_back(F);
            Beneath[F] += Ns;
          }
        }
      }
    }
  }
  assert(TI == A.Threads.size() && "threads in process order");
  return Out;
}

RankSpreads profile::rankSpreads(const Profile &P, const Aggregate &A) {
  std::map<uint32_t, uint32_t> Column = rankColumns(P);
  RankSpreads Out;
  if (Column.size() < 2)
    return Out;
  Out.Ranks = Column.size();
  for (auto &[Rank, Col] : Column)
    Out.RankIds.push_back(Rank);
  const std::vector<uint32_t> &Ranks = Out.RankIds;
  size_t NR = Ranks.size();
  // Per function: per rank its inclusive time (an MPI routine's elapsed)
  // and its self time; whether it had counted calls.
  std::map<uint32_t, std::vector<double>> Incl, Self;
  std::map<uint32_t, bool> SelfOnly;
  std::vector<bool> IsMpi = mpiFunctions(P, A);
  std::vector<std::map<uint32_t, double>> Beneath =
      mpiActiveBeneath(P, A, IsMpi);
  for (size_t TI = 0; TI < A.Threads.size(); ++TI) {
    const ThreadSummary &T = A.Threads[TI];
    const Process &Pr = P.Processes[T.Process];
    if (!Pr.MpiSize)
      continue;
    uint32_t Col = Column[Pr.MpiRank];
    for (const FunctionStats &F : T.Functions) {
      std::vector<double> &I = Incl[F.Func], &S = Self[F.Func];
      I.resize(NR);
      S.resize(NR);
      bool Mpi = IsMpi[F.Func];
      ActiveFigures AF = activeFigures(F.S);
      if (!Mpi && !AF.HasActive)
        SelfOnly[F.Func] = true;
      auto Waited = Beneath[TI].find(F.Func);
      I[Col] += Mpi ? F.S.Elapsed
                    : AF.Active.Shown -
                          (Waited == Beneath[TI].end() ? 0 : Waited->second);
      S[Col] += AF.Self.Shown;
    }
  }
  for (auto &[Func, InclV] : Incl) {
    RankSpread R;
    R.Func = Func;
    R.Mpi = IsMpi[Func];
    // Counted calls on some rank (no inclusive figure there): self time on
    // every rank, so the ranks compare like with like.
    R.SelfOnly = SelfOnly.count(Func);
    const std::vector<double> &V = R.SelfOnly ? Self[Func] : InclV;
    double Sum = 0;
    size_t MinI = 0, MaxI = 0;
    for (size_t I = 0; I < NR; ++I) {
      Sum += V[I];
      if (V[I] < V[MinI])
        MinI = I;
      if (V[I] > V[MaxI])
        MaxI = I;
    }
    R.MeanNs = Sum / NR;
    double Var = 0;
    for (double X : V)
      Var += (X - R.MeanNs) * (X - R.MeanNs);
    R.StdDevNs = std::sqrt(Var / NR);
    R.MinNs = V[MinI];
    R.MaxNs = V[MaxI];
    R.MinRank = Ranks[MinI];
    R.MaxRank = Ranks[MaxI];
    R.CfVar = R.MeanNs > 0 ? R.StdDevNs / R.MeanNs : 0;
    R.ImbalanceNs = R.MaxNs - R.MeanNs;
    R.ValuesNs = V;
    Out.Functions.push_back(std::move(R));
  }
  std::sort(Out.Functions.begin(), Out.Functions.end(),
            [&](const RankSpread &X, const RankSpread &Y) {
              if (X.ImbalanceNs != Y.ImbalanceNs)
                return X.ImbalanceNs > Y.ImbalanceNs;
              return A.Functions[X.Func].Name < A.Functions[Y.Func].Name;
            });
  return Out;
}
