//===- RawWriter.h - The raw profile writer's parts -------------*- C++ -*-===//
//
// Part of ActiveTime. Internal to the writer (Writer*.cpp), which mirrors the
// reader (RawReader.h): Writer.cpp checks the model, writes each process
// block through the section table -- one function per section kind, in the
// order of RawData.inc's section list, which is a block's order -- and puts
// the file header in front. The section writers and the model checks the
// reader's refusals call for live one section kind per file:
//
//   WriterProcess.cpp    process and module sections, the process's checks
//   WriterThread.cpp     thread sections
//   WriterTrace.cpp      trace sections
//   WriterStrides.cpp    strides sections
//   WriterBlockCounts.cpp block counts sections
//   WriterParallel.cpp   the parallel section
//   WriterSamples.cpp    the samples section
//
// Which model field goes to which record field is RawMapping.h's, shared
// with the reader.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_RAWWRITER_H
#define ACTIVETIME_PROFILE_RAWWRITER_H

#include "activetime/Profile/Profile.h"
#include "activetime/Profile/RawMapping.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace profile {
namespace rawwriter {

inline llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

inline bool fits32(size_t N) { return N <= UINT32_MAX; }

/// Builds the payload of one section in memory so its size is known before
/// the section header is emitted.
class SectionBuilder {
public:
  /// Appends \p Model as raw record Rec through RawMapping<Rec>.
  template <class Rec, class M> void add(const M &Model) {
    record(RecordOut<Rec>(Model));
  }
  /// Appends a record whose section-dependent fields the caller set.
  template <class Rec> void record(const RecordOut<Rec> &R) { OS << R.bytes(); }
  void bytes(llvm::StringRef S) { OS << S; }
  void pad() { OS.write_zeros(llvm::alignTo(Buf.size(), 8) - Buf.size()); }
  llvm::StringRef data() const { return Buf; }

private:
  llvm::SmallString<256> Buf;
  llvm::raw_svector_ostream OS{Buf};
};

// What the reader would reject, or what does not fit the raw format's
// fields, is refused before anything is written: checkProcess
// (WriterProcess.cpp) checks process \p Idx with the checks of its
// sections' files below.
llvm::Error checkProcess(const Process &P, size_t Idx);
llvm::Error checkThread(const Process &P, size_t Idx, const Thread &T);
llvm::Error checkSites(const Process &P, size_t Idx);
llvm::Error checkTrace(const Process &P, size_t Idx, const Trace &T);
llvm::Error checkSamples(const Process &P, size_t Idx);
llvm::Error checkBlockCounts(const Process &P, size_t Idx);

/// Serializes a checked profile, one function per section kind, mirroring
/// the reader's parsers.
class ProfileWriter {
public:
  void writeBlock(const Process &P);
  llvm::Error finish(bool Merged, llvm::raw_ostream &OS);
  /// The sections written so far, as one block; none are left.
  SerializedBlock takeBlock();

  // The section table's entries, named after RawData.inc's sections: each
  // writes the block's sections of its kind (none, one or several).
#define AT_RAW_SECTION(Name, Kind, Place, Label)                               \
  void write##Name##Sections(const Process &P);
#include "activetime/RawData.inc"

private:
  void writeModule(const Process &P, uint32_t ModIdx, size_t FirstFunc,
                   size_t EndFunc);
  void writeThread(const Thread &T);
  void writeTrace(const Trace &T);
  void writeStrides(const Process &P, size_t FirstSite, size_t EndSite);
  /// Appends the section: its header, then \p B's payload, padded.
  void add(uint32_t Kind, SectionBuilder &B);

  /// Each a whole section: header and payload.
  std::vector<std::string> Sections;
};

} // namespace rawwriter
} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_RAWWRITER_H
