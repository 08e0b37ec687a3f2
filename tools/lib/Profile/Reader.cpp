//===- Reader.cpp - Raw profile reader --------------------------------------===//
//
// Part of ActiveTime. Parses a raw profile (docs/raw-format.md) into the
// model of Profile.h: the file header, then each section through the
// section table, whose parsers live one section kind per file
// (RawReader.h). The input may be truncated or garbage: the file header's
// and every section's checksum are verified before their fields are
// trusted, every record is bounds-checked before it is read (little-endian
// loads, the buffer need not be aligned), and every inconsistency becomes a
// one-line error instead of a crash later.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/ThreadIds.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

/// RawData.inc's section list: each kind's place in a block and its
/// parsers.
static const SectionKindInfo SectionKinds[kNumSectionKinds] = {
#define AT_RAW_SECTION(Name, Kind, Place, Label)                               \
  {raw::SK_##Name, Label, Place, &Parser::check##Name##Order,                  \
   &Parser::parse##Name},
#include "activetime/RawData.inc"
};

const SectionKindInfo *rawreader::findSectionKind(uint32_t Kind) {
  for (const SectionKindInfo &Info : SectionKinds)
    if (Info.Kind == Kind)
      return &Info;
  return nullptr; // not a section kind of this version
}

namespace {

/// "section 5 (thread)", or "section 5 (kind 9)" for an unknown kind.
std::string sectionName(uint32_t Index, uint32_t Kind) {
  if (const SectionKindInfo *Info = findSectionKind(Kind))
    return formatv("section {0} ({1})", Index, Info->Label).str();
  return formatv("section {0} (kind {1})", Index, Kind).str();
}

/// What a checksum mismatch says after naming the header or section.
constexpr const char *kChecksumMismatch =
    "checksum does not match its contents (the file is corrupt or was "
    "modified)";

} // namespace

Error Parser::needBytes(const Cursor &C, size_t Need, const Twine &What) {
  if (C.remaining() < Need)
    return fail(formatv("{0}: section too small: {1} bytes, need {2}", What,
                        C.remaining(), Need));
  return Error::success();
}

Error Parser::moreThanHeader(StringRef Kind, uint32_t Expected) {
  return fail(formatv("process (pid {0}): more {1} sections than its header "
                      "says ({2})",
                      Cur->Pid, Kind, Expected));
}

Error Parser::checkPadding(const Cursor &C, uint64_t Size, const Twine &What) {
  uint64_t Used = C.offset();
  if (alignTo(Used, 8) != Size)
    return fail(formatv("{0}: section size {1} does not match its contents "
                        "({2} bytes, {3} with padding)",
                        What, Size, Used, alignTo(Used, 8)));
  return Error::success();
}

uint64_t Parser::spanNs(uint64_t Ticks) const {
  // In double: the bounds need no precision, only no overflow.
  double Ns = double(Ticks) * 1e9 / double(Cur->TickRate);
  return Ns >= 1.8e19 ? UINT64_MAX : uint64_t(Ns);
}

uint64_t Parser::maxEvents(uint64_t Ticks) const {
  uint64_t Ns = spanNs(Ticks);
  return Ns > UINT64_MAX - kSlackNs ? UINT64_MAX : Ns + kSlackNs;
}

Error Parser::checkEvents(ArrayRef<EventCount> Counts, uint64_t SpanTicks,
                          StringRef Span, const std::string &What) {
  uint64_t Max = maxEvents(SpanTicks);
  for (const EventCount &C : Counts)
    if (C.Value > Max)
      return fail(formatv("{0}: {1} {2} is implausible: more than one per "
                          "nanosecond of {3} ({4} ticks; at most {5})",
                          What, C.Name, C.Value, Span, SpanTicks, Max));
  return Error::success();
}

bool Parser::plausibleDuration(uint64_t Ticks, uint64_t SpanTicks) const {
  return Ticks / 2 <= SpanTicks || Ticks / 2 - SpanTicks <= Cur->TickRate;
}

uint64_t Parser::processSpan() const { return Cur->EndTick - Cur->StartTick; }

Error Parser::finishBlock() {
  if (!Cur)
    return Error::success();
  size_t Idx = Prof.Processes.size() - 1;
  if (ModulesSeen != ExpectedModules)
    return fail(formatv("process {0} (pid {1}) has {2} module sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, ModulesSeen, ExpectedModules));
  if (ThreadsSeen != ExpectedThreads)
    return fail(formatv("process {0} (pid {1}) has {2} thread sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, ThreadsSeen, ExpectedThreads));
  if (TracesSeen != ExpectedTraces)
    return fail(formatv("process {0} (pid {1}) has {2} trace sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, TracesSeen, ExpectedTraces));
  if (StridesSeen != ExpectedStrides)
    return fail(formatv("process {0} (pid {1}) has {2} strides sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, StridesSeen, ExpectedStrides));
  if (Cur->BlockCounts.size() != ExpectedBlockCounts)
    return fail(formatv("process {0} (pid {1}) has {2} block counts "
                        "sections, its header says {3}",
                        Idx, Cur->Pid, Cur->BlockCounts.size(),
                        ExpectedBlockCounts));
  numberReusedTids(*Cur);
  return Error::success();
}

/// The magic, the version and the header size, each checked exactly before
/// the checksum: a file of another version is named as such, not as
/// corrupt.
Error Parser::checkVersion(StringRef Buf) {
  using R = raw::FileHeader;
  if (Buf.size() < sizeof(raw::kMagic) ||
      std::memcmp(Buf.data(), raw::kMagic, sizeof(raw::kMagic)) != 0)
    return fail("not an ActiveTime raw profile (bad magic)");
  if (Buf.size() < offsetof(R, FileSize))
    return fail(formatv("truncated: file has {0} bytes, the header alone "
                        "needs {1}",
                        Buf.size(), sizeof(R)));
  RecordIn<R> H(Buf.data());
  uint32_t Version = H.get(&R::Version);
  if (Version > raw::kVersion)
    return fail(formatv("format version {0} is newer than supported (this "
                        "activetime reads version {1})",
                        Version, raw::kVersion));
  if (Version < raw::kVersion)
    return fail(formatv("format version {0} is older than supported (this "
                        "activetime reads version {1}; re-profile with the "
                        "current runtime)",
                        Version, raw::kVersion));
  if (H.get(&R::HeaderSize) != sizeof(R))
    return fail(formatv("bad header size {0} (version {1} has {2})",
                        H.get(&R::HeaderSize), Version, sizeof(R)));
  if (Buf.size() < sizeof(R))
    return fail(formatv("truncated: file has {0} bytes, the header alone "
                        "needs {1}",
                        Buf.size(), sizeof(R)));
  return Error::success();
}

/// Checks the file header against the buffer; sets Prof.Merged.
Error Parser::parseFileHeader(StringRef Buf, uint32_t &NumSections) {
  if (Error E = checkVersion(Buf))
    return E;
  using R = raw::FileHeader;
  RecordIn<R> H(Buf.data());
  if (H.get(&R::Checksum) != fileHeaderChecksum(Buf))
    return fail(formatv("file header: {0}", kChecksumMismatch));
  uint64_t FileSize = H.get(&R::FileSize);
  uint32_t Flags = H.get(&R::Flags);
  NumSections = H.get(&R::NumSections);
  if (FileSize > Buf.size())
    return fail(formatv("truncated: header says {0} bytes, file has {1}",
                        FileSize, Buf.size()));
  if (FileSize < Buf.size())
    return fail(formatv("trailing garbage: header says {0} bytes, file has "
                        "{1}",
                        FileSize, Buf.size()));
  if (Flags & ~uint32_t(raw::FH_Merged))
    return fail(formatv("unknown file flags {0:x}", Flags));
  Prof.Merged = Flags & raw::FH_Merged;
  return Error::success();
}

Error Parser::checkSectionHeader(StringRef Buf, uint32_t Index, uint64_t Off,
                                 uint32_t &Kind, uint64_t &Size) {
  using R = raw::SectionHeader;
  RecordIn<R> SH(Buf.data() + Off);
  Kind = SH.get(&R::Kind);
  Size = SH.get(&R::Size);
  uint64_t PayloadOff = Off + sizeof(R);
  // The size first: the checksum covers the payload it delimits.
  if (Size > Buf.size() - PayloadOff)
    return fail(formatv("{0}: {1} bytes at offset {2} overrun the file ({3} "
                        "bytes)",
                        sectionName(Index, Kind), Size, PayloadOff,
                        Buf.size()));
  StringRef Section = Buf.substr(Off, sizeof(R) + Size);
  if (SH.get(&R::Checksum) != sectionChecksum(Section))
    return fail(formatv("{0}: {1}", sectionName(Index, Kind),
                        kChecksumMismatch));
  if (!findSectionKind(Kind))
    return fail(formatv("section {0} at offset {1}: unknown section kind "
                        "{2}",
                        Index, Off, Kind));
  if (Size % 8)
    return fail(formatv("{0}: size {1} is not a multiple of 8",
                        sectionName(Index, Kind), Size));
  return Error::success();
}

Error Parser::parseSection(uint32_t Kind, Cursor Payload) {
  const SectionKindInfo *Info = findSectionKind(Kind);
  assert(Info && "the caller rejected unknown section kinds");
  if (Info->Order && !Cur)
    return fail(formatv("{0} section before any process section",
                        Info->Label));
  if (Error E = (this->*Info->CheckOrder)())
    return E;
  if (Info->Order == 0)
    std::fill(std::begin(SeenOfKind), std::end(SeenOfKind), 0);
  ++SeenOfKind[Info - SectionKinds];
  return (this->*Info->Parse)(Payload);
}

uint32_t Parser::sectionsSeen(uint32_t Kind) const {
  const SectionKindInfo *Info = findSectionKind(Kind);
  return Info ? SeenOfKind[Info - SectionKinds] : 0;
}

bool Parser::throughStridesComplete() const {
  return ModulesSeen == ExpectedModules && ThreadsSeen == ExpectedThreads &&
         TracesSeen == ExpectedTraces && StridesSeen == ExpectedStrides;
}

bool Parser::blockHeadComplete() const {
  return throughStridesComplete() &&
         Cur->BlockCounts.size() == ExpectedBlockCounts;
}

Expected<Profile> Parser::parse(StringRef Buf) {
  uint32_t NumSections = 0;
  if (Error E = parseFileHeader(Buf, NumSections))
    return std::move(E);
  uint64_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < NumSections; ++S) {
    if (Buf.size() - Off < sizeof(raw::SectionHeader))
      return fail(formatv("section {0} of {1}: header at offset {2} overruns "
                          "the file ({3} bytes)",
                          S, NumSections, Off, Buf.size()));
    uint32_t Kind;
    uint64_t Size;
    if (Error E = checkSectionHeader(Buf, S, Off, Kind, Size))
      return std::move(E);
    Off += sizeof(raw::SectionHeader);
    Cursor Payload(Buf.substr(Off, Size));
    Off += Size;
    if (Error E = parseSection(Kind, Payload))
      return std::move(E);
  }
  if (Off != Buf.size())
    return fail(formatv("{0} bytes after the last of {1} sections",
                        Buf.size() - Off, NumSections));
  if (Error E = finishBlock())
    return std::move(E);
  if (Prof.Processes.empty())
    return fail("the profile contains no process");
  return std::move(Prof);
}

Expected<Profile> profile::readProfile(MemoryBufferRef Buffer) {
  return Parser().parse(Buffer.getBuffer());
}

Expected<std::unique_ptr<MemoryBuffer>>
profile::openInputFile(StringRef Path) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return createStringError(EC, Path + ": " + EC.message());
  if (St.type() != sys::fs::file_type::regular_file)
    return createStringError(
        std::make_error_code(std::errc::invalid_argument),
        Path + ": not a regular file (" +
            (St.type() == sys::fs::file_type::directory_file ? "a directory"
             : St.type() == sys::fs::file_type::fifo_file    ? "a FIFO"
             : St.type() == sys::fs::file_type::character_file ||
                     St.type() == sys::fs::file_type::block_file
                 ? "a device"
                 : "not a file") +
            "): give the file a program wrote");
  // Not null-terminated, so mapped (a large non-profile costs no reading);
  // the parser needs only the bytes.
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufOrErr = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return createStringError(BufOrErr.getError(),
                             Path + ": " + BufOrErr.getError().message());
  return std::move(*BufOrErr);
}

Expected<Profile> profile::readProfile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> BufOrErr = openInputFile(Path);
  if (!BufOrErr)
    return BufOrErr.takeError();
  Expected<Profile> P = readProfile((*BufOrErr)->getMemBufferRef());
  if (!P)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(P.takeError()));
  return P;
}
