//===- Mpi.cpp - Time and bytes in MPI ------------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Mpi.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Mpi.h"

#include "activetime/Profile/Flags.h"

#include <algorithm>
#include <map>

using namespace activetime;
using namespace activetime::profile;

MpiSummary profile::mpiSummary(const Profile &P, const Aggregate &A) {
  MpiSummary S;
  // Aggregate function id -> bytes, for every MPI routine's function.
  std::map<uint32_t, uint64_t> Bytes;
  for (size_t PI = 0; PI < P.Processes.size(); ++PI) {
    const Process &Pr = P.Processes[PI];
    if (Pr.MpiSize) {
      ++S.Ranks;
      S.JobSize = std::max(S.JobSize, Pr.MpiSize);
    }
    const std::vector<uint32_t> &Ids = A.FunctionIds[PI];
    for (size_t F = 0; F < Pr.Functions.size() && F < Ids.size(); ++F)
      if (isMpi(Pr.Functions[F]))
        Bytes.emplace(Ids[F], 0);
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
