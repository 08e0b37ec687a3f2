//===- activetime/Profile/Checksum.h - Raw profile checksums ----*- C++ -*-===//
//
// Part of ActiveTime. The checksums of the raw format (raw_format.h,
// "Checksums"), computed with llvm::xxh3_64bits: the runtime computes the
// same XXH3-64 with the reference xxHash.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CHECKSUM_H
#define ACTIVETIME_PROFILE_CHECKSUM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace activetime {
namespace profile {

/// The checksum of a file header: \p Header holds at least its first
/// raw::kFileHeaderChecksummed bytes.
uint64_t fileHeaderChecksum(llvm::StringRef Header);

/// The checksum of a section: \p Section is the whole section, header and
/// payload (the checksum field itself is not hashed).
uint32_t sectionChecksum(llvm::StringRef Section);

/// Sets every checksum of the raw profile image \p Image to what its bytes
/// hash to, following the section headers as far as they lie inside the
/// image. For tests and the fuzzer: a deliberately altered image then
/// passes the checksums and reaches the checks behind them.
void resealRawProfile(llvm::MutableArrayRef<char> Image);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_CHECKSUM_H
