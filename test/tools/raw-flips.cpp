//===- raw-flips.cpp - every single-byte flip of a raw profile ------------===//
//
// Part of ActiveTime's test tools. Loads a raw profile, checks that the
// reader accepts it, then for every byte of the file and every XOR mask
// changes that byte in memory, hands the image to the tool's reader and
// restores it. A flip the reader accepts is a damaged profile that the
// report would have shown as if it were real. Prints
//
//   flips: N, accepted: M, checksum errors: C, other errors: E
//
// and the first accepted flips (offset and mask). Errors must be one line;
// a multi-line one is counted and shown as well. Running `activetime report`
// once per flip would take minutes; this takes well under a second for a
// profile of a few kilobytes.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace activetime::profile;

static cl::opt<std::string> InputPath(cl::Positional, cl::Required,
                                      cl::desc("<raw profile>"));
static cl::list<std::string>
    Masks("mask", cl::CommaSeparated,
          cl::desc("XOR masks to apply to each byte (default: each of the "
                   "8 single bits, and 0xff)"));
static cl::opt<unsigned> ShowAccepted("show", cl::init(10),
                                      cl::desc("accepted flips to list"));

namespace {

struct Tally {
  uint64_t Flips = 0, Accepted = 0, Checksum = 0, Other = 0, MultiLine = 0;
};

std::vector<uint8_t> masks() {
  std::vector<uint8_t> Out;
  for (const std::string &M : Masks) {
    unsigned V;
    if (StringRef(M).getAsInteger(0, V) || V == 0 || V > 0xff) {
      WithColor::error() << "--mask=" << M << ": not a byte in 1..0xff\n";
      exit(1);
    }
    Out.push_back(uint8_t(V));
  }
  if (Out.empty())
    Out = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff};
  return Out;
}

/// One flip: parse and classify the outcome.
void tryFlip(std::string &Bytes, size_t Off, uint8_t Mask, Tally &T) {
  Bytes[Off] ^= char(Mask);
  Expected<Profile> P = readProfile(MemoryBufferRef(Bytes, "flipped"));
  Bytes[Off] ^= char(Mask);
  ++T.Flips;
  if (P) {
    if (T.Accepted++ < ShowAccepted)
      outs() << "accepted: offset " << Off << " mask "
             << format_hex(Mask, 4) << "\n";
    return;
  }
  std::string Msg = toString(P.takeError());
  if (Msg.find('\n') != std::string::npos && T.MultiLine++ < ShowAccepted)
    outs() << "multi-line error: offset " << Off << ": " << Msg << "\n";
  if (Msg.find("checksum does not match") != std::string::npos)
    ++T.Checksum;
  else
    ++T.Other;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "every single-byte flip of a raw "
                                          "profile through the reader\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(InputPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf) {
    WithColor::error() << InputPath << ": " << Buf.getError().message()
                       << "\n";
    return 1;
  }
  std::string Bytes = (*Buf)->getBuffer().str();
  if (Expected<Profile> P = readProfile(MemoryBufferRef(Bytes, InputPath));
      !P) {
    WithColor::error() << InputPath << ": " << toString(P.takeError())
                       << "\n";
    return 1;
  }
  std::vector<uint8_t> Ms = masks();
  Tally T;
  for (size_t Off = 0; Off < Bytes.size(); ++Off)
    for (uint8_t M : Ms)
      tryFlip(Bytes, Off, M, T);
  outs() << "bytes: " << Bytes.size() << ", masks: " << Ms.size() << "\n";
  outs() << "flips: " << T.Flips << ", accepted: " << T.Accepted
         << ", checksum errors: " << T.Checksum
         << ", other errors: " << T.Other
         << ", multi-line errors: " << T.MultiLine << "\n";
  return 0;
}
