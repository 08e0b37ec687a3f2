//===- ChecksumVectors.h - XXH3-64 reference values -------------*- C++ -*-===//
//
// Part of ActiveTime. XXH3-64 (seed 0) of known inputs as the reference
// xxHash computes it (python3-xxhash 3.2.0 over libxxhash 0.8.1). The
// runtime's checksum (reference xxHash, header-only) and the tool's
// (llvm::xxh3_64bits) are each held to these values, so a profile one
// writes is one the other verifies. The lengths cover each of XXH3's code
// paths: 0, 1-3, 4-8, 9-16, 17-128, 129-240 and the long input loop (one
// stripe block and several).
//
// Input of length N: byte I is (I * 131 + 17) mod 256.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNITTESTS_CHECKSUMVECTORS_H
#define ACTIVETIME_UNITTESTS_CHECKSUMVECTORS_H

#include <cstdint>
#include <string>

namespace activetime {
namespace testutil {

struct ChecksumVector {
  uint32_t Length;
  uint64_t Xxh3;
};

constexpr ChecksumVector kChecksumVectors[] = {
    {0u, 0x2d06800538d394c2ull},      {1u, 0xf319fe2bdfcdfebdull},
    {3u, 0xa107bb65b715c89bull},      {4u, 0x509f0567aa8a3123ull},
    {8u, 0xb1433dc39b7f946eull},      {9u, 0xfe2542440b36ddc7ull},
    {16u, 0x715189ff3dcdcff6ull},     {17u, 0x7d33163b8af0179cull},
    {128u, 0xee847f7fcef4ddbcull},    {129u, 0x7e3e7b750239d4fcull},
    {240u, 0x44089a144aade02dull},    {241u, 0xed93572e52acac83ull},
    {1024u, 0xf0c5763fadfacd25ull},   {4096u, 0xb6ea541381e0f6f9ull},
    {100003u, 0xfb84181115cd8d1dull},
};

inline std::string checksumInput(uint32_t Length) {
  std::string S(Length, '\0');
  for (uint32_t I = 0; I < Length; ++I)
    S[I] = char((I * 131 + 17) & 0xff);
  return S;
}

} // namespace testutil
} // namespace activetime

#endif // ACTIVETIME_UNITTESTS_CHECKSUMVECTORS_H
