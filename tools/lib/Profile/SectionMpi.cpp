//===- SectionMpi.cpp - The mpi section -----------------------------------===//
//
// Part of ActiveTime. The mpi section (v14) of a program linked with the MPI
// part (libactivetime_mpi): the message bytes of each MPI routine. Its
// parser, its order check, its writer and its records' mappings; the
// routines' calls and times are their functions' nodes (abi::FF_Mpi).
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"
#include "RawWriter.h"

#include "activetime/abi.h"

#include "llvm/Support/FormatVariadic.h"

namespace activetime {
namespace profile {

/// NumRoutines: the routines' records after it; Reserved: 0.
template <> struct RawMapping<raw::MpiRecord> {
  using R = raw::MpiRecord;
  using Model = MpiData;
  template <class IO, class M> static void map(IO &io, M &D) {
    static_assert(kIsModel<M, Model>);
    io.count(&R::NumRoutines, D.Routines);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::MpiRoutineRecord> {
  using R = raw::MpiRoutineRecord;
  using Model = MpiRoutineBytes;
  template <class IO, class M> static void map(IO &io, M &X) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Func, X.Func);
    io.sectionOwned(&R::Reserved);
    io.field(&R::Bytes, X.Bytes);
  }
};

ACTIVETIME_REGISTER_MAPPING(MpiRecord);
ACTIVETIME_REGISTER_MAPPING(MpiRoutineRecord);

} // namespace profile
} // namespace activetime

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;
using namespace activetime::profile::rawwriter;

/// After the block's functions (its module sections), once per block.
Error Parser::checkMpiOrder() {
  if (!blockHeadComplete())
    return fail(formatv("process (pid {0}): mpi section before its module, "
                        "thread, trace, strides and block counts sections",
                        Cur->Pid));
  if (sectionsSeen(raw::SK_Mpi))
    return fail(formatv("process (pid {0}): more than one mpi section",
                        Cur->Pid));
  return Error::success();
}

Error Parser::parseMpi(Cursor C) {
  std::string What = formatv("mpi section of process (pid {0})", Cur->Pid);
  if (Error E = needBytes(C, sizeof(raw::MpiRecord), What))
    return E;
  using R = raw::MpiRecord;
  MpiData &D = Cur->Mpi;
  D.Present = true;
  RecordIn<R> In = C.record<R>();
  In.map(D);
  uint32_t Num = In.get(&R::NumRoutines);
  if (In.get(&R::Reserved))
    return fail(What + ": reserved field is not 0");
  if (uint64_t(Num) * sizeof(raw::MpiRoutineRecord) != C.remaining())
    return fail(formatv("{0}: {1} routines do not match the section's {2} "
                        "bytes",
                        What, Num, C.remaining()));
  D.Routines.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    RecordIn<raw::MpiRoutineRecord> RIn = C.record<raw::MpiRoutineRecord>();
    MpiRoutineBytes &X = D.Routines[I];
    RIn.map(X);
    if (RIn.get(&raw::MpiRoutineRecord::Reserved))
      return fail(formatv("{0}: routine {1}: reserved field is not 0", What,
                          I));
    if (X.Func >= Cur->Functions.size() ||
        !(Cur->Functions[X.Func].Flags & abi::FF_Mpi))
      return fail(formatv("{0}: routine {1}: function {2} is not an MPI "
                          "routine of the process",
                          What, I, X.Func));
    if (I && X.Func <= D.Routines[I - 1].Func)
      return fail(formatv("{0}: routine {1}: functions not ascending", What,
                          I));
    if (!X.Bytes)
      return fail(formatv("{0}: routine {1}: 0 bytes", What, I));
  }
  return Error::success();
}

void ProfileWriter::writeMpiSections(const Process &P) {
  if (!P.Mpi.Present)
    return;
  SectionBuilder B;
  B.add<raw::MpiRecord>(P.Mpi);
  for (const MpiRoutineBytes &X : P.Mpi.Routines)
    B.add<raw::MpiRoutineRecord>(X);
  add(raw::SK_Mpi, B);
}
