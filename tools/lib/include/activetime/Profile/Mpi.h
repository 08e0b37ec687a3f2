//===- activetime/Profile/Mpi.h - Time and bytes in MPI ---------*- C++ -*-===//
//
// Part of ActiveTime. The MPI summary of a profile whose program was linked
// with the MPI part (libactivetime_mpi): per MPI routine, its calls, the
// time inside them and their message bytes, over every process (rank) of
// the profile. The calls and times are the routines' functions' figures
// in the aggregate (each wrapper is a function with abi::FF_Mpi, a callee
// of the function that called it); the bytes are the mpi sections'.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_MPI_H
#define ACTIVETIME_PROFILE_MPI_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Profile.h"

#include <cstdint>
#include <vector>

namespace activetime {
namespace profile {

struct MpiRoutine {
  uint32_t Func = 0;     // index into Aggregate::Functions
  uint64_t Calls = 0;
  double ActiveNs = 0;   // inclusive active time of the calls
  double ElapsedNs = 0;  // inclusive elapsed (wall) time of the calls
  uint64_t Bytes = 0;
};

/// One rank's time as the MPI analysis classifies it (mpiP's task times):
/// computing, its threads' active time outside MPI calls, and waiting, the
/// elapsed time inside them. A progress engine spins while it waits, so
/// the active time inside MPI calls is waiting too (WaitingOnCpuNs says how
/// much of the wait was spent on the CPU).
struct MpiRankTime {
  uint32_t Rank = 0;
  double WallNs = 0; // its process's (processes', if runs were merged)
  double ComputingNs = 0;
  double WaitingNs = 0;
  double WaitingOnCpuNs = 0;
  /// Waiting / wall: the share of the rank's run spent inside MPI.
  double mpiShare() const { return WallNs > 0 ? WaitingNs / WallNs : 0; }
};

struct MpiSummary {
  /// Processes with an MPI rank (MPI_Init returned), and the largest job
  /// size among them (0: no MPI run).
  uint32_t Ranks = 0;
  uint32_t JobSize = 0;
  /// Routines called at least once, by elapsed time (then name) descending.
  std::vector<MpiRoutine> Routines;
  double ActiveNs = 0, ElapsedNs = 0; // sums over the routines
  uint64_t Bytes = 0;
  /// Per rank (processes with a rank), by rank.
  std::vector<MpiRankTime> PerRank;
  /// The profile had MPI routines' functions at all.
  bool present() const { return JobSize || !Routines.empty(); }
};

/// The summary of \p P, whose aggregate is \p A.
MpiSummary mpiSummary(const Profile &P, const Aggregate &A);

/// One function's time across the ranks of a job: per rank the function's
/// computing time, its inclusive active time less the active time of the
/// MPI calls under it (a rank that waited spun there: classified as
/// waiting, MpiRankTime), or its self time where it had counted calls,
/// which have no inclusive figure; for an MPI routine its elapsed time
/// (the wait, on or off the CPU, is what imbalance costs). Summed over the
/// rank's threads (and its processes, if one rank's runs were merged). A
/// rank that never called the function counts 0.
struct RankSpread {
  uint32_t Func = 0; // index into Aggregate::Functions
  bool Mpi = false;  // an MPI routine: elapsed time
  bool SelfOnly = false; // counted calls on some rank: self time
  double MeanNs = 0, MinNs = 0, MaxNs = 0, StdDevNs = 0;
  uint32_t MinRank = 0, MaxRank = 0;
  /// StdDev / Mean (0 when the mean is 0).
  double CfVar = 0;
  /// Max - Mean: what the job lost to its slowest rank in this function.
  double ImbalanceNs = 0;
  /// The time on each rank, in RankSpreads::RankIds order.
  std::vector<double> ValuesNs;
  /// What ValuesNs measure, as JSON names it.
  const char *metric() const {
    return Mpi ? "elapsed" : SelfOnly ? "self_active" : "computing";
  }
};

struct RankSpreads {
  uint32_t Ranks = 0; // distinct ranks among \p P's MPI processes
  std::vector<uint32_t> RankIds; // those ranks, ascending
  /// Per function, its spread over them (at least two ranks, else none),
  /// by imbalance cost descending (then name).
  std::vector<RankSpread> Functions;
};
RankSpreads rankSpreads(const Profile &P, const Aggregate &A);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_MPI_H
