//===- Checksum.cpp - Raw profile checksums --------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Checksum.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Checksum.h"
#include "activetime/raw_format.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;
using namespace activetime;

uint64_t profile::fileHeaderChecksum(StringRef Header) {
  return xxh3_64bits(Header.take_front(raw::kFileHeaderChecksummed));
}

uint32_t profile::sectionChecksum(StringRef Section) {
  return uint32_t(xxh3_64bits(Section.drop_front(raw::kSectionChecksumFrom)));
}

void profile::resealRawProfile(MutableArrayRef<char> Image) {
  using namespace support::endian;
  if (Image.size() < sizeof(raw::FileHeader))
    return;
  StringRef Bytes(Image.data(), Image.size());
  uint32_t NumSections =
      read32le(Image.data() + offsetof(raw::FileHeader, NumSections));
  uint64_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < NumSections; ++S) {
    if (Image.size() - Off < sizeof(raw::SectionHeader))
      break;
    uint64_t Size =
        read64le(Image.data() + Off + offsetof(raw::SectionHeader, Size));
    if (Size > Image.size() - Off - sizeof(raw::SectionHeader))
      break;
    uint64_t End = Off + sizeof(raw::SectionHeader) + Size;
    write32le(Image.data() + Off + offsetof(raw::SectionHeader, Checksum),
              sectionChecksum(Bytes.slice(Off, End)));
    Off = End;
  }
  write64le(Image.data() + offsetof(raw::FileHeader, Checksum),
            fileHeaderChecksum(Bytes));
}
