//===- Merge.cpp - Merging raw profiles -------------------------------------===//
//
// Part of ActiveTime. Merging keeps every process block (and so every
// thread); it only refuses to mix profiles of different programs, whose
// function tables would not describe the same code.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include "activetime/Profile/OutputFile.h"
#include "activetime/raw_format.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

std::string profile::buildIdHex(const Process &P) {
  return toHex(P.BuildId, /*LowerCase=*/true);
}

std::string profile::describeBinary(const Process &P) {
  std::string S = P.Exe.empty() ? std::string("<unknown executable>") : P.Exe;
  if (!P.BuildId.empty())
    S += " build-id " + buildIdHex(P);
  return S;
}

// Hashes of the modules linked into the executable itself; shared libraries
// may legitimately differ between runs (other versions, dlopen).
static std::vector<uint64_t> mainModuleHashes(const Process &P) {
  std::vector<uint64_t> H;
  for (const Module &M : P.Modules)
    if (M.Path == P.Exe)
      H.push_back(M.Hash);
  llvm::sort(H);
  H.erase(std::unique(H.begin(), H.end()), H.end());
  return H;
}

static bool sameBinary(const Process &A, const Process &B) {
  if (!A.BuildId.empty() && !B.BuildId.empty())
    return A.BuildId == B.BuildId;
  return sys::path::filename(A.Exe) == sys::path::filename(B.Exe) &&
         mainModuleHashes(A) == mainModuleHashes(B);
}

/// One process run: the same pid, start time and binary are the same
/// process block, seen twice (a file given twice, or a merged file and one
/// of its inputs).
static std::string runKey(const Process &P) {
  return P.Host + "/" + utostr(P.Pid) + "/" + utostr(P.StartUnixNs) + "/" +
         utostr(P.StartTick) + "/" + describeBinary(P);
}

static Module mainModuleIdentity(const Module &M) {
  Module Id;
  Id.Hash = M.Hash;
  Id.Path = M.Path;
  return Id;
}

namespace {
/// The checks of a merge, one process block at a time in input order:
/// every block from the first one's binary, none twice. Keeps only the
/// first block's identity and one key per block, so a streamed merge's
/// memory does not grow with the inputs' contents.
class MergeChecker {
public:
  Error check(const Process &P, StringRef Name) {
    if (Error E = checkBinary(P, Name))
      return E;
    return checkOnce(P, Name);
  }

  /// An error if \p P is from another binary than the first block.
  Error checkBinary(const Process &P, StringRef Name) {
    if (!HaveRef) {
      HaveRef = true;
      Ref.BuildId = P.BuildId;
      Ref.Exe = P.Exe;
      for (const Module &M : P.Modules)
        if (M.Path == P.Exe)
          Ref.Modules.push_back(mainModuleIdentity(M));
      RefName = Name.str();
    } else if (!sameBinary(Ref, P)) {
      return createStringError(
          inconvertibleErrorCode(),
          Name + ": profile is from a different binary than " + RefName +
              " (" + describeBinary(P) + " vs " + describeBinary(Ref) + ")");
    }
    return Error::success();
  }

  /// An error if the block appeared before: its calls would be counted
  /// twice.
  Error checkOnce(const Process &P, StringRef Name) {
    auto [It, New] = Seen.try_emplace(runKey(P), Name.str());
    if (!New)
      return createStringError(
          inconvertibleErrorCode(),
          Name + ": process " + utostr(P.Pid) + " is already in " +
              It->second +
              " (the same run given twice would count its calls twice)");
    return Error::success();
  }

private:
  bool HaveRef = false;
  Process Ref; // the first block's binary: build id, path, main modules
  std::string RefName;
  StringMap<std::string> Seen;
};
} // namespace

Expected<Profile> profile::mergeProfiles(std::vector<NamedProfile> Inputs) {
  if (Inputs.empty())
    return createStringError(inconvertibleErrorCode(), "no input profiles");
  Profile Out;
  Out.Merged = true;
  // Every binary first: a file from another program is the error to see,
  // even if it also repeats a run.
  MergeChecker Check;
  size_t Total = 0;
  for (const NamedProfile &In : Inputs)
    for (const Process &P : In.Prof.Processes) {
      if (Error E = Check.checkBinary(P, In.Name))
        return std::move(E);
      ++Total;
    }
  for (const NamedProfile &In : Inputs)
    for (const Process &P : In.Prof.Processes)
      if (Error E = Check.checkOnce(P, In.Name))
        return std::move(E);
  Out.Processes.reserve(Total);
  for (NamedProfile &In : Inputs)
    for (Process &P : In.Prof.Processes)
      Out.Processes.push_back(std::move(P));
  return std::move(Out);
}

namespace {
/// One input of a streamed merge, read and serialized by a worker.
struct ReadInput {
  std::string Err; // the reader's or writer's one-line error
  std::unique_ptr<Profile> Prof;
  std::vector<SerializedBlock> Blocks;
};

void readAndSerialize(const std::string &Path, ReadInput &Out) {
  Expected<Profile> P = readProfile(Path);
  if (!P) {
    Out.Err = toString(P.takeError());
    return;
  }
  Out.Prof = std::make_unique<Profile>(std::move(*P));
  for (size_t I = 0; I < Out.Prof->Processes.size(); ++I) {
    Expected<SerializedBlock> B = serializeBlock(Out.Prof->Processes[I], I);
    if (!B) {
      Out.Err = Path + ": " + toString(B.takeError());
      return;
    }
    Out.Blocks.push_back(std::move(*B));
  }
}
} // namespace

Error profile::mergeFiles(ArrayRef<std::string> Inputs, StringRef Output,
                          unsigned Jobs, function_ref<void(size_t)> Done) {
  if (Inputs.empty())
    return createStringError(inconvertibleErrorCode(), "no input files");
  ThreadPoolStrategy Strategy = hardware_concurrency(Jobs);
  unsigned Workers = std::max(1u, Strategy.compute_thread_count());
  // A few inputs per worker in flight: enough to keep them busy while the
  // blocks before are written, few enough that memory holds a handful.
  size_t Chunk = size_t(Workers) * 4;
  DefaultThreadPool Pool(Strategy);
  return writeFileAtomically(Output, [&](raw_pwrite_stream &OS) -> Error {
    // The header comes first but counts what follows: a file is written
    // behind a placeholder and the header put in place at the end; stdout
    // (maybe a pipe) gets the blocks kept in memory.
    bool Seekable = Output != "-";
    std::string Kept;
    raw_string_ostream KeptOS(Kept);
    raw_ostream &Body = Seekable ? static_cast<raw_ostream &>(OS) : KeptOS;
    if (Seekable)
      Body << std::string(sizeof(raw::FileHeader), '\0');
    MergeChecker Check;
    uint64_t Payload = 0, Sections = 0;
    for (size_t Begin = 0; Begin < Inputs.size(); Begin += Chunk) {
      size_t End = std::min(Inputs.size(), Begin + Chunk);
      std::vector<ReadInput> Read(End - Begin);
      for (size_t I = Begin; I < End; ++I)
        Pool.async([&, I] { readAndSerialize(Inputs[I], Read[I - Begin]); });
      Pool.wait();
      for (size_t I = Begin; I < End; ++I) {
        ReadInput &R = Read[I - Begin];
        if (!R.Err.empty())
          return createStringError(inconvertibleErrorCode(), R.Err);
        for (size_t P = 0; P < R.Blocks.size(); ++P) {
          if (Error E = Check.check(R.Prof->Processes[P], Inputs[I]))
            return E;
          Body << R.Blocks[P].Bytes;
          Payload += R.Blocks[P].Bytes.size();
          Sections += R.Blocks[P].NumSections;
        }
        R = ReadInput();
        Done(I + 1);
      }
    }
    Expected<std::string> Header = fileHeader(Sections, Payload, true);
    if (!Header)
      return Header.takeError();
    if (Seekable) {
      OS.pwrite(Header->data(), Header->size(), 0);
    } else {
      OS << *Header;
      OS << KeptOS.str();
    }
    return Error::success();
  });
}
