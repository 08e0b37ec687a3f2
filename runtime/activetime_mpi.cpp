//===- activetime_mpi.cpp - MPI rank, job size and message bytes -*- C++ -*-===//
//
// See activetime_mpi.h. The runtime's side of the optional MPI part: the
// wrappers' module is an ordinary registered module (its calls are nodes
// and their time is the probes'), so all that is left here is what the
// call tree cannot hold: the rank and job size of the process record and
// the message bytes of the mpi section.
//
//===----------------------------------------------------------------------===//

#include "activetime_mpi.h"

#include "activetime_collector.h"
#include "activetime_interface.h"
#include "activetime_module.h"
#include "activetime_writer.h"

namespace __activetime {

namespace raw = activetime::raw;

namespace {
// Set once by the MPI part's constructor (before any wrapper runs).
const ModuleDesc *mpi_module;
const u64 *mpi_bytes;
// MPI_COMM_WORLD's rank and size; size 0 until MPI_Init returned.
u32 mpi_rank;
u32 mpi_size;

bool ParseRank(const char *S, u32 *Rank) {
  if (!S || !*S)
    return false;
  u64 V = 0;
  for (; *S; ++S) {
    if (*S < '0' || *S > '9' || V > 0xfffffffu)
      return false;
    V = V * 10 + u64(*S - '0');
  }
  *Rank = u32(V);
  return true;
}

void FillMpiProcess(raw::ProcessRecord &R) {
  u32 Size = __atomic_load_n(&mpi_size, __ATOMIC_ACQUIRE);
  R.MpiSize = Size;
  R.MpiRank = Size ? mpi_rank : 0;
}

// The routines that moved bytes, by function id: the module's table is in
// id order, so the records come out ascending.
void WriteMpiSection(ProfileWriter &W) {
  if (!mpi_module || !mpi_module->RuntimeData)
    return;
  const ModuleInfo *MI = (const ModuleInfo *)mpi_module->RuntimeData;
  raw::MpiRecord R;
  internal_memset(&R, 0, sizeof(R));
  for (u32 I = 0; I < MI->NumFuncs; ++I)
    R.NumRoutines += __atomic_load_n(&mpi_bytes[I], __ATOMIC_RELAXED) != 0;
  W.Section(raw::SK_Mpi, [&] {
    W.Out->Append(&R, sizeof(R));
    for (u32 I = 0, Left = R.NumRoutines; I < MI->NumFuncs && Left; ++I) {
      raw::MpiRoutineRecord RR;
      internal_memset(&RR, 0, sizeof(RR));
      RR.Func = MI->FirstId + I;
      RR.Bytes = __atomic_load_n(&mpi_bytes[I], __ATOMIC_RELAXED);
      if (!RR.Bytes)
        continue;
      W.Out->Append(&RR, sizeof(RR));
      --Left;
    }
  });
}
} // namespace

bool MpiRank(u32 *Rank) {
  if (!__atomic_load_n(&mpi_size, __ATOMIC_ACQUIRE))
    return false;
  *Rank = mpi_rank;
  return true;
}

bool LauncherRank(u32 *Rank) {
  static const char *const kVars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                      "PMI_RANK"};
  for (const char *V : kVars)
    if (ParseRank(GetEnv(V), Rank))
      return true;
  return false;
}

// After the ompt collector (Parallel), before the sampler's Samples.
const Collector kMpiCollector = {
    .Name = "mpi",
    .Order = 95,
    .FillProcess = FillMpiProcess,
    .WriteSections = WriteMpiSection,
};
AT_REGISTER_COLLECTOR(kMpiCollector);

} // namespace __activetime

using namespace __activetime;

extern "C" void __activetime_mpi_attach(activetime::abi::ModuleDesc *M,
                                        const u64 *Bytes) {
  if (!M || !Bytes || mpi_module)
    return;
  RegisterModule(M);
  mpi_bytes = Bytes;
  mpi_module = M;
}

extern "C" void __activetime_mpi_rank(int Rank, int Size) {
  if (Rank < 0 || Size <= 0 || Rank >= Size)
    return;
  mpi_rank = u32(Rank);
  __atomic_store_n(&mpi_size, u32(Size), __ATOMIC_RELEASE);
}
