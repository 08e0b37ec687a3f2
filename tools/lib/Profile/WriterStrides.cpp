//===- WriterStrides.cpp - Strides sections -------------------------------===//
//
// Part of ActiveTime. The raw writer's strides sections: each module's
// memory access sites.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

/// The site table is written one strides section per module.
Error rawwriter::checkSites(const Process &P, size_t Idx) {
  for (size_t I = 0; I < P.Sites.size(); ++I) {
    const MemSite &S = P.Sites[I];
    if (S.Module >= P.Modules.size() ||
        (I && S.Module < P.Sites[I - 1].Module))
      return fail(formatv("process {0}: site table is not grouped by module",
                          Idx));
    if (!fits32(S.Func.size()) || !fits32(S.File.size()))
      return fail(formatv("process {0}: site {1} too large", Idx, I));
  }
  return Error::success();
}

/// One strides section per module with sites (checkSites: grouped).
void ProfileWriter::writeStridesSections(const Process &P) {
  for (size_t I = 0; I < P.Sites.size();) {
    size_t End = I;
    while (End < P.Sites.size() && P.Sites[End].Module == P.Sites[I].Module)
      ++End;
    writeStrides(P, I, End);
    I = End;
  }
}

/// The sites [FirstSite, EndSite) of one module.
void ProfileWriter::writeStrides(const Process &P, size_t FirstSite,
                                 size_t EndSite) {
  RecordOut<raw::StridesRecord> R;
  R.set(&raw::StridesRecord::Module, P.Sites[FirstSite].Module);
  R.set(&raw::StridesRecord::NumSites, EndSite - FirstSite);
  R.set(&raw::StridesRecord::ProbeGapTicks, P.ProbeGapTicks);
  SectionBuilder B;
  B.record(R);
  for (size_t I = FirstSite; I < EndSite; ++I) {
    const MemSite &S = P.Sites[I];
    B.add<raw::SiteRecord>(S);
    B.bytes(S.Func);
    B.bytes(S.File);
  }
  add(raw::SK_Strides, B);
}
