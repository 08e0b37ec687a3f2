//===- RawReader.h - The raw profile reader's parts -------------*- C++ -*-===//
//
// Part of ActiveTime. Internal to the reader (Reader*.cpp). Reader.cpp
// checks the file header and each section header, then hands the section's
// payload to its kind's entry of the section table: where the section may
// come in a process block (Order, and the kind's check of what the block
// holds so far) and its parser. The table is built from RawData.inc's
// section list; the parsers live one section kind per file:
//
//   ReaderProcess.cpp    process and module sections (the block's head)
//   ReaderThread.cpp     thread sections
//   ReaderTrace.cpp      trace sections
//   ReaderStrides.cpp    strides sections
//   ReaderBlockCounts.cpp block counts sections
//   ReaderParallel.cpp   the parallel section
//   ReaderSamples.cpp    the samples section
//
// A new kind is one file, Section<Kind>.cpp, holding its parser, its order
// check (sectionsSeen and blockHeadComplete serve it), its writer and its
// records' mappings (ACTIVETIME_REGISTER_MAPPING): the section's line in
// RawData.inc declares the three functions, and the file list is the
// directory's.
//
// Which model field each record field fills is RawMapping.h's (or the
// section file's), shared with the writer.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_RAWREADER_H
#define ACTIVETIME_PROFILE_RAWREADER_H

#include "activetime/Profile/Profile.h"
#include "activetime/Profile/RawMapping.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace activetime {
namespace profile {
namespace rawreader {

// Upper bound of any tick count in a valid profile (see checkNode).
constexpr uint64_t kMaxTicks = uint64_t(1) << 60;
// The tick rates a process record may carry (ticks per second).
constexpr uint64_t kMinTickRate = 1000;
constexpr uint64_t kMaxTickRate = 1000000000000ull;

// More bytes than any address space holds (57-bit virtual addresses, the
// widest of x86-64 and AArch64).
constexpr uint64_t kMaxAddressBytes = uint64_t(1) << 57;
// The slack of the plausibility bounds below: a second of the process's
// clock (clock conversion, a runtime's rounding, a thread still running).
constexpr uint64_t kSlackNs = 1000000000;

/// A count the runtime kept of something that happened, named as the
/// reader's messages name it ("dropped events").
struct EventCount {
  const char *Name;
  uint64_t Value;
};

inline llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Sequential little-endian reader over one section payload. Callers check
/// remaining() before each record so the loads below never overrun.
class Cursor {
public:
  Cursor(llvm::StringRef Data) : Data(Data) {}
  uint64_t remaining() const { return Data.size() - Pos; }
  uint64_t offset() const { return Pos; }
  /// The next record, read through RawMapping<Rec>.
  template <class Rec> RecordIn<Rec> record() {
    RecordIn<Rec> R(Data.data() + Pos);
    Pos += sizeof(Rec);
    return R;
  }
  llvm::StringRef bytes(uint64_t N) {
    llvm::StringRef S = Data.substr(Pos, N);
    Pos += N;
    return S;
  }

private:
  llvm::StringRef Data;
  uint64_t Pos = 0;
};

class Parser;

/// How many kinds of section there are.
constexpr unsigned kNumSectionKinds = 0
#define AT_RAW_SECTION(Name, Kind, Place, Label) +1
#include "activetime/RawData.inc"
    ;

/// One kind of section (RawData.inc's AT_RAW_SECTION).
struct SectionKindInfo {
  uint32_t Kind;
  /// Names the kind in messages: "section 5 (thread)".
  const char *Label;
  /// The section's place in a process block: 0 opens one, every other kind
  /// needs one open.
  unsigned Order;
  /// Whether the section may come now, given what the open block holds.
  llvm::Error (Parser::*CheckOrder)();
  llvm::Error (Parser::*Parse)(Cursor Payload);
};

/// The kind's entry, or null for a kind this version does not have.
const SectionKindInfo *findSectionKind(uint32_t Kind);

/// The state of one parse: the profile so far and the process block being
/// read, with one parser per section kind (see the file comment for where
/// each is defined).
class Parser {
public:
  llvm::Expected<Profile> parse(llvm::StringRef Buf);

  // The section table's entries, named after RawData.inc's sections.
#define AT_RAW_SECTION(Name, Kind, Place, Label)                               \
  llvm::Error check##Name##Order();                                            \
  llvm::Error parse##Name(Cursor C);
#include "activetime/RawData.inc"

private:
  llvm::Error parseFileHeader(llvm::StringRef Buf, uint32_t &NumSections);
  llvm::Error checkVersion(llvm::StringRef Buf);
  /// The header of section \p Index at \p Off: in the file, checksum
  /// verified, kind known, size a multiple of 8.
  llvm::Error checkSectionHeader(llvm::StringRef Buf, uint32_t Index,
                                 uint64_t Off, uint32_t &Kind, uint64_t &Size);
  /// Through the section table: the kind's place, then its parser.
  llvm::Error parseSection(uint32_t Kind, Cursor Payload);

  // Process and module sections (ReaderProcess.cpp).
  llvm::Error checkProcessRecord(const RecordIn<raw::ProcessRecord> &In);
  llvm::Error parseInlinedAway(Cursor &C, Module &M, uint32_t ModIdx,
                               uint32_t Num, const std::string &What);
  llvm::Error parseFunctions(Cursor &C, uint32_t ModIdx, uint32_t Num,
                             const std::string &What);

  // Thread sections (ReaderThread.cpp).
  llvm::Error checkThreadRecord(const Thread &T, uint32_t NumLatency,
                                const std::string &What);
  llvm::Error checkThreadCounts(const Thread &T, uint32_t NumNodes,
                                const std::string &What);
  llvm::Error parseNodes(Cursor &C, Thread &T, uint32_t Num,
                         const std::string &What);
  llvm::Error checkNode(const Node &N, uint32_t I, const std::string &What);
  llvm::Error parseCounts(Cursor &C, Thread &T, uint32_t Num,
                          const std::string &What);
  llvm::Error parseLatency(Cursor &C, Thread &T, uint32_t Num,
                           const std::string &What);
  llvm::Error parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                               const std::string &What);

  // Trace sections (ReaderTrace.cpp).
  llvm::Error parseEvents(Cursor &C, Trace &T, uint64_t Num,
                          const std::string &What);
  llvm::Error parseSwitches(Cursor &C, Trace &T, uint64_t Num,
                            const std::string &What);
  llvm::Error checkTraceCounts(const Trace &T, const std::string &What);

  // The parallel section (ReaderParallel.cpp).
  llvm::Error
  parseRegions(Cursor &C, uint32_t Num, uint32_t StringBytes,
               std::vector<std::pair<uint32_t, uint32_t>> &PathRefs,
               const std::string &What);
  llvm::Error parseRegionThreads(Cursor &C, uint32_t Num, uint32_t NumRegions,
                                 const std::string &What);
  llvm::Error checkRegionThread(const RegionThread &E,
                                const std::string &What);

  // The samples section (ReaderSamples.cpp).
  llvm::Error checkSample(const SampleSet &S, uint64_t I,
                          const std::string &What);
  llvm::Error checkSamplerCounts(const SampleSet &S, const std::string &What);

  // Strides sections (ReaderStrides.cpp).
  llvm::Error parseSite(Cursor &C, uint32_t ModIdx, uint32_t I,
                        const std::string &What);
  llvm::Error checkSite(const MemSite &S, uint32_t I, const std::string &What);
  llvm::Error checkCopyChains(size_t FirstSite, const std::string &What);
  llvm::Error checkProbeLeads(size_t FirstSite, const std::string &What);

  // Block counts sections (ReaderBlockCounts.cpp).
  llvm::Error checkBlockCounts(const BlockCountTable &T,
                               const std::string &What);

  // Plausibility of the values the checksums cannot vouch for (Reader.cpp).
  /// \p Ticks of the open process's clock in ns (saturated).
  uint64_t spanNs(uint64_t Ticks) const;
  /// The most events \p Ticks of the open process's clock can hold: one per
  /// nanosecond (no probe, context switch or sample takes less) plus
  /// kSlackNs.
  uint64_t maxEvents(uint64_t Ticks) const;
  /// Each count at most maxEvents(SpanTicks); \p Span names the span.
  llvm::Error checkEvents(llvm::ArrayRef<EventCount> Counts,
                          uint64_t SpanTicks, llvm::StringRef Span,
                          const std::string &What);
  /// A duration of \p Ticks inside a span of \p SpanTicks: at most twice
  /// the span plus a second (the slack leaves clock conversion alone).
  bool plausibleDuration(uint64_t Ticks, uint64_t SpanTicks) const;
  /// The open process's span, StartTick to EndTick.
  uint64_t processSpan() const;

  // The block (Reader.cpp).
  llvm::Error finishBlock();
  /// The padding after the last record must be what alignment requires,
  /// so a wrong length field is caught rather than silently skipped.
  llvm::Error checkPadding(const Cursor &C, uint64_t Size,
                           const llvm::Twine &What);
  /// "<What>: section too small: ..." when C holds fewer than Need bytes.
  llvm::Error needBytes(const Cursor &C, size_t Need, const llvm::Twine &What);
  /// The block already holds the Expected sections of Kind its header names.
  llvm::Error moreThanHeader(llvm::StringRef Kind, uint32_t Expected);

  // For a section kind's order check (check<Name>Order), whatever the kind:
  /// How many sections of \p Kind the open block holds (the one being
  /// parsed included, while its parser runs).
  uint32_t sectionsSeen(uint32_t Kind) const;
  /// Whether the block's module, thread, trace and strides sections are all
  /// there, as many as the process record says ...
  bool throughStridesComplete() const;
  /// ... and its block counts sections too.
  bool blockHeadComplete() const;
  /// The kinds' counts of sectionsSeen, by index into the section table.
  uint32_t SeenOfKind[kNumSectionKinds] = {};

  Profile Prof;
  Process *Cur = nullptr;
  uint32_t ModulesSeen = 0;
  uint32_t ThreadsSeen = 0;
  uint32_t TracesSeen = 0;
  bool ParallelSeen = false;
  uint32_t StridesSeen = 0;
  uint32_t ExpectedStrides = 0;
  uint32_t ExpectedBlockCounts = 0;
  uint32_t ExpectedModules = 0;
  uint32_t ExpectedThreads = 0;
  uint32_t ExpectedTraces = 0;
};

} // namespace rawreader
} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_RAWREADER_H
