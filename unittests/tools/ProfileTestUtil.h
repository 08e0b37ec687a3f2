//===- ProfileTestUtil.h - Shared helpers of the profile tests -*- C++ -*-===//
//
// Part of ActiveTime. Writes a Profile to bytes and reads bytes back to the
// reader's error message, for the round-trip and corruption tests; reseals
// an altered image so that it gets past the checksums; builds the threads
// the aggregation and filter tests feed in.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNITTESTS_PROFILETESTUTIL_H
#define ACTIVETIME_UNITTESTS_PROFILETESTUTIL_H

#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/Profile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace activetime {
namespace testutil {

inline std::string serialize(const profile::Profile &P) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  EXPECT_FALSE(bool(profile::writeProfile(P, OS)));
  OS.flush();
  return S;
}

inline llvm::Expected<profile::Profile> parse(llvm::StringRef Bytes) {
  return profile::readProfile(llvm::MemoryBufferRef(Bytes, "test"));
}

// The reader's error for Bytes, or "<no error>".
/// Recomputes the checksums of \p Bytes (a corruption test's altered file),
/// so the reader reaches the check the test is about.
inline void reseal(std::string &Bytes) {
  profile::resealRawProfile(
      llvm::MutableArrayRef<char>(Bytes.data(), Bytes.size()));
}

/// A thread of \p Nodes that ran from tick 0 to 1,000,000.
inline profile::Thread makeThread(uint64_t Tid,
                                  std::vector<profile::Node> Nodes) {
  profile::Thread T;
  T.Tid = Tid;
  T.EndTick = 1000000;
  T.Nodes = std::move(Nodes);
  return T;
}

inline std::string parseError(llvm::StringRef Bytes) {
  llvm::Expected<profile::Profile> P = parse(Bytes);
  if (P)
    return "<no error>";
  return llvm::toString(P.takeError());
}

} // namespace testutil
} // namespace activetime

#endif
