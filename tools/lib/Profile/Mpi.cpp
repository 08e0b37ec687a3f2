//===- Mpi.cpp - Time and bytes in MPI ------------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Mpi.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Mpi.h"

#include "activetime/Profile/Flags.h"

#include <algorithm>
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
  return S;
}

RankSpreads profile::rankSpreads(const Profile &P, const Aggregate &A) {
  // The ranks present, in order, and each process's column.
  std::map<uint32_t, uint32_t> Column;
  for (const Process &Pr : P.Processes)
    if (Pr.MpiSize)
      Column.emplace(Pr.MpiRank, 0);
  RankSpreads Out;
  if (Column.size() < 2)
    return Out;
  Out.Ranks = Column.size();
  std::vector<uint32_t> Ranks;
  for (auto &[Rank, Col] : Column) {
    Col = Ranks.size();
    Ranks.push_back(Rank);
  }
  size_t NR = Ranks.size();
  // Per function: per rank its inclusive time (an MPI routine's elapsed)
  // and its self time; whether it had counted calls.
  std::map<uint32_t, std::vector<double>> Incl, Self;
  std::map<uint32_t, bool> SelfOnly;
  std::vector<bool> IsMpi = mpiFunctions(P, A);
  for (const ThreadSummary &T : A.Threads) {
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
      I[Col] += Mpi ? F.S.Elapsed : AF.Active.Shown;
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
    Out.Functions.push_back(R);
  }
  std::sort(Out.Functions.begin(), Out.Functions.end(),
            [&](const RankSpread &X, const RankSpread &Y) {
              if (X.ImbalanceNs != Y.ImbalanceNs)
                return X.ImbalanceNs > Y.ImbalanceNs;
              return A.Functions[X.Func].Name < A.Functions[Y.Func].Name;
            });
  return Out;
}
