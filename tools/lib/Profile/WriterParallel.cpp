//===- WriterParallel.cpp - The parallel section --------------------------===//
//
// Part of ActiveTime. The raw writer's parallel section (OpenMP worker
// states), for the processes that have one.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

/// The regions' paths go after the entries, each region pointing at its own.
void ProfileWriter::writeParallelSections(const Process &P) {
  if (!P.Par.Present)
    return;
  const Parallel &Par = P.Par;
  std::string Strings;
  for (const Region &Reg : Par.Regions)
    Strings += Reg.Path;
  RecordOut<raw::ParallelRecord> R(Par);
  R.set(&raw::ParallelRecord::StringBytes, Strings.size());
  SectionBuilder B;
  B.record(R);
  uint32_t PathOffset = 0;
  for (const Region &Reg : Par.Regions) {
    RecordOut<raw::RegionRecord> RR(Reg);
    RR.set(&raw::RegionRecord::PathOffset, PathOffset);
    PathOffset += Reg.Path.size();
    B.record(RR);
  }
  for (const RegionThread &E : Par.Entries)
    B.add<raw::RegionThreadRecord>(E);
  B.bytes(Strings);
  add(raw::SK_Parallel, B);
}
