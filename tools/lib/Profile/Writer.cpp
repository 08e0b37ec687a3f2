//===- Writer.cpp - Raw profile writer --------------------------------------===//
//
// Part of ActiveTime. Serializes a Profile in the raw format so that merged
// profiles are read back by the same reader as runtime-written ones: each
// process block through the section table, one writer per section kind
// (RawWriter.h), like the reader's parsers.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/OutputFile.h"

#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

/// The section behind its header, whose checksum covers Kind, Size and the
/// payload (docs/raw-format.md, "Checksums").
void ProfileWriter::add(uint32_t Kind, SectionBuilder &B) {
  B.pad();
  RecordOut<raw::SectionHeader> SH;
  SH.set(&raw::SectionHeader::Kind, Kind);
  SH.set(&raw::SectionHeader::Size, B.data().size());
  std::string S = (SH.bytes() + B.data()).str();
  SH.set(&raw::SectionHeader::Checksum, sectionChecksum(S));
  std::memcpy(S.data(), SH.bytes().data(), sizeof(raw::SectionHeader));
  Sections.push_back(std::move(S));
}

/// One process block: the sections of each kind in the order of RawData.inc's
/// section list, which is the order of a block.
void ProfileWriter::writeBlock(const Process &P) {
  static constexpr void (ProfileWriter::*SectionWriters[])(const Process &) = {
#define AT_RAW_SECTION(Name, Kind, Place, Label)                               \
  &ProfileWriter::write##Name##Sections,
#include "activetime/RawData.inc"
  };
  for (auto Write : SectionWriters)
    (this->*Write)(P);
}

Expected<std::string> profile::fileHeader(uint64_t NumSections,
                                          uint64_t PayloadBytes, bool Merged) {
  if (!fits32(NumSections))
    return fail("too many sections for the raw format");
  using H = raw::FileHeader;
  RecordOut<H> Header;
  Header.text(&H::Magic, StringRef(raw::kMagic, sizeof(raw::kMagic)));
  Header.set(&H::Version, raw::kVersion);
  Header.set(&H::HeaderSize, sizeof(raw::FileHeader));
  Header.set(&H::FileSize, sizeof(raw::FileHeader) + PayloadBytes);
  Header.set(&H::NumSections, NumSections);
  Header.set(&H::Flags, Merged ? raw::FH_Merged : 0);
  Header.set(&H::Checksum, fileHeaderChecksum(Header.bytes()));
  return Header.bytes().str();
}

/// The file header, then every section behind its section header.
Error ProfileWriter::finish(bool Merged, raw_ostream &OS) {
  uint64_t Payload = 0;
  for (const std::string &S : Sections)
    Payload += S.size();
  Expected<std::string> Header = fileHeader(Sections.size(), Payload, Merged);
  if (!Header)
    return Header.takeError();
  OS << *Header;
  for (const std::string &S : Sections)
    OS << S;
  return Error::success();
}

SerializedBlock ProfileWriter::takeBlock() {
  SerializedBlock B;
  B.NumSections = Sections.size();
  for (const std::string &S : Sections)
    B.Bytes += S;
  Sections.clear();
  return B;
}

Expected<SerializedBlock> profile::serializeBlock(const Process &P,
                                                  size_t Idx) {
  if (Error E = checkProcess(P, Idx))
    return std::move(E);
  ProfileWriter W;
  W.writeBlock(P);
  return W.takeBlock();
}

Error profile::writeProfile(const Profile &Prof, raw_ostream &OS) {
  for (size_t I = 0; I < Prof.Processes.size(); ++I)
    if (Error E = checkProcess(Prof.Processes[I], I))
      return E;
  ProfileWriter W;
  for (const Process &P : Prof.Processes)
    W.writeBlock(P);
  return W.finish(Prof.Merged, OS);
}

Error profile::writeProfile(const Profile &Prof, StringRef Path) {
  auto Prefixed = [&](Error E) {
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(std::move(E)));
  };
  // Serialize first: a model the format cannot express fails before any
  // file is created.
  std::string Data;
  raw_string_ostream DS(Data);
  if (Error E = writeProfile(Prof, DS))
    return Prefixed(std::move(E));
  DS.flush();

  // Through the tool's temporary file, renamed when whole; its errors name
  // the path.
  return writeFileAtomically(Path, [&](raw_ostream &OS) {
    OS << Data;
    return Error::success();
  });
}
