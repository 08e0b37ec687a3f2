//===- ChecksumTest.cpp - Raw profile checksums (tool side) ---------------===//
//
// Part of ActiveTime. LLVM's XXH3-64 against the reference values the
// runtime's copy of xxHash is also held to (unittests/ChecksumVectors.h),
// the checksums' definitions (raw_format.h, "Checksums"), and that the
// writer's checksums are what resealRawProfile computes.
//
//===----------------------------------------------------------------------===//

#include "../ChecksumVectors.h"
#include "ProfileTestUtil.h"
#include "activetime/Profile/Checksum.h"
#include "activetime/raw_format.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::testutil;

namespace {

TEST(Checksum, LlvmXxh3MatchesTheReference) {
  for (const ChecksumVector &V : kChecksumVectors)
    EXPECT_EQ(xxh3_64bits(StringRef(checksumInput(V.Length))), V.Xxh3)
        << "length " << V.Length;
}

TEST(Checksum, Definitions) {
  // A file header: the hash of its first 32 bytes, whatever follows.
  std::string H = checksumInput(40);
  EXPECT_EQ(profile::fileHeaderChecksum(H),
            xxh3_64bits(StringRef(H).take_front(32)));
  H[35] ^= 1;
  EXPECT_EQ(profile::fileHeaderChecksum(H),
            xxh3_64bits(StringRef(H).take_front(32)));
  // A section: the low half of the hash of everything after its first four
  // bytes (the checksum field).
  std::string S = checksumInput(16 + 240);
  uint32_t Sum = profile::sectionChecksum(S);
  EXPECT_EQ(Sum, uint32_t(xxh3_64bits(StringRef(S).drop_front(4))));
  S[0] ^= 0xff;
  EXPECT_EQ(profile::sectionChecksum(S), Sum);
  S[4] ^= 1;
  EXPECT_NE(profile::sectionChecksum(S), Sum);
}

// A profile of every section kind but strides and parallel (ProfileTest's
// makeProfile lives there; a small one is enough here).
profile::Profile smallProfile() {
  profile::Profile P;
  profile::Process Pr;
  Pr.TickRate = 1000;
  Pr.Pid = 1;
  Pr.Exe = "/bin/x";
  profile::Module M;
  M.Name = "x.c";
  Pr.Modules.push_back(M);
  profile::Function F;
  F.Name = "main";
  Pr.Functions.push_back(F);
  profile::Thread T;
  T.Tid = 1;
  profile::Node N;
  N.Parent = raw::kNoParent;
  N.Calls = 1;
  N.Incl = N.Excl = N.Min = N.Max = 10;
  T.Nodes.push_back(N);
  Pr.Threads.push_back(T);
  P.Processes.push_back(Pr);
  return P;
}

TEST(Checksum, WriterSealsEverySection) {
  std::string S = serialize(smallProfile());
  ASSERT_GE(S.size(), sizeof(raw::FileHeader));
  std::string Resealed = S;
  reseal(Resealed);
  EXPECT_EQ(Resealed, S);
  EXPECT_EQ(parseError(S), "<no error>");
  // And they were written at all (not a zero left where one belongs).
  EXPECT_NE(support::endian::read64le(S.data() + 32), 0u);
  EXPECT_NE(support::endian::read32le(S.data() + sizeof(raw::FileHeader)), 0u);
}

} // namespace
