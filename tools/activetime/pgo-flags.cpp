//===- pgo-flags.cpp - `activetime pgo-flags` -----------------------------===//
//
// Part of ActiveTime. The compiler flags of the profile-guided optimization
// loop (docs/pgo.md), so that nobody has to copy them from a document:
//
//   train          what to add to activetime-clang(++) for the training
//                  build: LLVM's IR PGO instrumentation, its counters
//                  relocated so the pass can make them per-thread, and the
//                  pass's block counts mode;
//   use PROFILE    what to add to clang-19 for the optimized build, for the
//                  format of PROFILE (written by `export --format=pgo`, or a
//                  sample profile).
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "activetime/Profile/Profile.h"
#include "activetime/raw_format.h"

#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/ProfileData/SampleProfReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::tool;

static cl::SubCommand PgoFlagsCommand(
    "pgo-flags", "Print the compiler flags of a profile-guided optimization "
                 "build: `train` (the training build, with activetime-clang) "
                 "or `use PROFILE` (the optimized build, with clang-19)");

static cl::list<std::string> Args(cl::Positional, cl::sub(PgoFlagsCommand),
                                  cl::desc("train | use PROFILE"),
                                  cl::cat(ToolCategory));

/// The training build: LLVM places the counters (the CFG hashes the optimized
/// build checks are computed at the same point of the same pipeline), the
/// pass takes them over per thread.
static const char kTrainFlags[] =
    "-Xclang -fprofile-instrument=llvm -mllvm -activetime-block-counts";

static Expected<std::string> useFlags(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = profile::openInputFile(Path);
  if (!Buf)
    return Buf.takeError();
  const MemoryBuffer &B = **Buf;
  // Absolute: a build system compiles in directories of its own.
  SmallString<256> Abs(Path);
  if (std::error_code EC = sys::fs::make_absolute(Abs))
    return createFileError(Path, EC);
  if (IndexedInstrProfReader::hasFormat(B))
    return "-fprofile-instr-use=" + Abs.str().str();
  if (B.getBuffer().starts_with(StringRef(raw::kMagic, sizeof(raw::kMagic))))
    return createStringError(inconvertibleErrorCode(),
                             "%s: an ActiveTime raw profile; write the "
                             "compiler's profile with `activetime export "
                             "--format=pgo -o FILE %s` first",
                             Path.str().c_str(), Path.str().c_str());
  if (sampleprof::SampleProfileReaderExtBinary::hasFormat(B) ||
      sampleprof::SampleProfileReaderText::hasFormat(B) ||
      sampleprof::SampleProfileReaderRawBinary::hasFormat(B))
    return "-fprofile-sample-use=" + Abs.str().str() +
           " -fdebug-info-for-profiling -mllvm -sample-profile-use-profi";
  return createStringError(inconvertibleErrorCode(),
                           "%s: not an indexed instrumentation profile nor a "
                           "sample profile",
                           Path.str().c_str());
}

static int pgoFlagsMain() {
  if (Args.size() == 1 && Args[0] == "train") {
    outs() << kTrainFlags << '\n';
    return 0;
  }
  if (Args.size() == 2 && Args[0] == "use") {
    Expected<std::string> Flags = useFlags(Args[1]);
    if (!Flags)
      return reportError(Flags.takeError());
    outs() << *Flags << '\n';
    return 0;
  }
  return reportError(createStringError(
      inconvertibleErrorCode(),
      "pgo-flags: expected `train` or `use PROFILE` (see "
      "`activetime pgo-flags --help`)"));
}

static CommandRegistration
    Unused(&PgoFlagsCommand, "activetime pgo-flags train | use PROFILE",
           pgoFlagsMain);
