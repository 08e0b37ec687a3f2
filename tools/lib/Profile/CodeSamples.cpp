//===- CodeSamples.cpp - Code sample addresses to functions -----------------===//
//
// Part of ActiveTime. Code samples record run-time instruction addresses
// (raw_format.h, CodeSampleRecord). A timed frame's self time is divided
// among the functions its samples fall in, so each address must be mapped
// to the function holding it: the ELF symbol (with its size) that contains
// it, matched to the profile's functions by their run-time addresses. The
// load bias of each object follows from those same addresses.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

struct SymRange {
  uint64_t Start = 0, End = 0; // link-time addresses
  std::string Name;
};

/// The function symbols of one ELF object and its load bias in a process.
struct ObjectSymbols {
  std::vector<SymRange> Syms; // sorted by Start
  int64_t Bias = 0;
  bool Usable = false;

  const SymRange *find(uint64_t RunAddr) const {
    uint64_t A = RunAddr - uint64_t(Bias);
    auto It = std::upper_bound(
        Syms.begin(), Syms.end(), A,
        [](uint64_t X, const SymRange &S) { return X < S.Start; });
    if (It == Syms.begin())
      return nullptr;
    --It;
    return A < It->End ? &*It : nullptr;
  }
};

/// The runtime's own code: probes and their slow paths, sanitizer_common.
bool isRuntimeSymbol(StringRef Name) {
  return Name.starts_with("__activetime") ||
         Name.starts_with("_ZN12__activetime") ||
         Name.starts_with("_ZN11__sanitizer") ||
         Name.starts_with("__sanitizer") ||
         Name.starts_with("_ZN14__interception");
}

std::string gnuBuildId(const object::ObjectFile &Obj) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name || *Name != ".note.gnu.build-id") {
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Data = S.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      return "";
    }
    // Elf_Nhdr: namesz, descsz, type; then "GNU\0"; then the id.
    if (Data->size() < 16)
      return "";
    uint32_t NameSz = support::endian::read32le(Data->data());
    uint32_t DescSz = support::endian::read32le(Data->data() + 4);
    uint64_t Off = 12 + alignTo(NameSz, 4);
    if (Off + DescSz > Data->size())
      return "";
    return Data->substr(Off, DescSz).str();
  }
  return "";
}

/// Reads Path's function symbols; the empty result when it cannot.
Expected<std::vector<SymRange>> readSymbols(StringRef Path,
                                            const std::string &WantBuildId) {
  auto Bin = object::ObjectFile::createObjectFile(Path);
  if (!Bin)
    return Bin.takeError();
  const object::ObjectFile &Obj = *Bin->getBinary();
  if (!WantBuildId.empty() && gnuBuildId(Obj) != WantBuildId)
    return createStringError(inconvertibleErrorCode(),
                             "its build id is not the profiled program's");
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj);
  if (!Elf)
    return createStringError(inconvertibleErrorCode(), "not an ELF object");
  std::vector<SymRange> Syms;
  for (const object::ELFSymbolRef &S : Elf->symbols()) {
    Expected<object::SymbolRef::Type> Ty = S.getType();
    Expected<uint64_t> Addr = S.getAddress();
    Expected<StringRef> Name = S.getName();
    if (!Ty || !Addr || !Name) {
      consumeError(Ty.takeError());
      consumeError(Addr.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (*Ty != object::SymbolRef::ST_Function || !S.getSize())
      continue;
    Syms.push_back({*Addr, *Addr + S.getSize(), Name->str()});
  }
  llvm::sort(Syms, [](const SymRange &A, const SymRange &B) {
    return A.Start < B.Start;
  });
  return Syms;
}

/// The load bias of an object: run-time minus link-time address, agreed by
/// the profile's functions whose names occur once in the object.
bool findBias(ObjectSymbols &O, const Process &P, uint32_t ModuleIdx,
              const std::vector<uint32_t> &SameObject) {
  StringMap<int> Seen;
  StringMap<uint64_t> Start;
  for (const SymRange &S : O.Syms) {
    Seen[S.Name]++;
    Start[S.Name] = S.Start;
  }
  (void)ModuleIdx;
  for (const Function &F : P.Functions) {
    if (!F.Addr ||
        std::find(SameObject.begin(), SameObject.end(), F.Module) ==
            SameObject.end())
      continue;
    auto It = Seen.find(F.Name);
    if (It == Seen.end() || It->second != 1)
      continue;
    O.Bias = int64_t(F.Addr - Start[F.Name]);
    return true;
  }
  return false;
}

class Resolver {
public:
  explicit Resolver(Process &P) : P(P) {}
  void run(std::vector<std::string> &Warnings);

private:
  void loadObjects(std::vector<std::string> &Warnings);
  void resolve(CodeSample &S) const;
  void resolveNearest(CodeSample &S) const;
  CallerCode callerCode(uint64_t ReturnAddr) const;

  uint32_t timedCopyOf(StringRef Name, uint64_t RunAddr, bool &Found) const;

  Process &P;
  std::vector<ObjectSymbols> Objects;
  DenseMap<uint64_t, uint32_t> FuncAt;              // run-time address -> id
  StringMap<SmallVector<uint32_t, 1>> FuncsNamed;   // linkage name -> ids
  std::vector<std::pair<uint64_t, uint32_t>> Sorted; // by address
};

void Resolver::loadObjects(std::vector<std::string> &Warnings) {
  StringMap<std::vector<uint32_t>> ByPath; // object path -> its modules
  for (uint32_t M = 0; M < P.Modules.size(); ++M)
    if (!P.Modules[M].Path.empty())
      ByPath[P.Modules[M].Path].push_back(M);
  for (auto &E : ByPath) {
    const std::string &Path = E.getKey().str();
    std::string WantId = Path == P.Exe ? P.BuildId : "";
    Expected<std::vector<SymRange>> Syms = readSymbols(Path, WantId);
    ObjectSymbols O;
    if (!Syms) {
      Warnings.push_back(formatv("code samples of pid {0}: cannot read the "
                                 "symbols of {1} ({2}); mapping them to the "
                                 "nearest function start below",
                                 P.Pid, Path, toString(Syms.takeError())));
      P.CodeResolvedByNearest = true;
      continue;
    }
    O.Syms = std::move(*Syms);
    O.Usable = findBias(O, P, E.getValue().front(), E.getValue());
    if (O.Usable) {
      for (uint32_t M : E.getValue()) {
        P.Modules[M].Bias = O.Bias;
        P.Modules[M].BiasKnown = true;
      }
      Objects.push_back(std::move(O));
      continue;
    }
    Warnings.push_back(formatv("code samples of pid {0}: none of the profiled "
                               "functions is named once in the symbols of {1}; "
                               "mapping them to the nearest function start "
                               "below",
                               P.Pid, Path));
    P.CodeResolvedByNearest = true;
  }
}

void Resolver::resolveNearest(CodeSample &S) const {
  auto It = std::upper_bound(
      Sorted.begin(), Sorted.end(), S.Addr,
      [](uint64_t A, const std::pair<uint64_t, uint32_t> &E) {
        return A < E.first;
      });
  if (It == Sorted.begin()) {
    S.Kind = CodeKind::Outside;
    return;
  }
  S.Kind = CodeKind::Function;
  S.Func = std::prev(It)->second;
}

/// The function whose timed copy (abi::kTimedCopySuffix) the symbol Name
/// at RunAddr is: the one of that name nearest to it (a static function's
/// copy is emitted next to it).
uint32_t Resolver::timedCopyOf(StringRef Name, uint64_t RunAddr,
                               bool &Found) const {
  Found = false;
  StringRef Source = sourceFunctionName(Name);
  if (Source.size() == Name.size())
    return 0;
  Name = Source;
  auto It = FuncsNamed.find(Name);
  if (It == FuncsNamed.end())
    return 0;
  uint32_t Best = It->second.front();
  for (uint32_t Id : It->second) {
    auto Dist = [&](uint32_t F) {
      uint64_t A = P.Functions[F].Addr;
      return A > RunAddr ? A - RunAddr : RunAddr - A;
    };
    if (Dist(Id) < Dist(Best))
      Best = Id;
  }
  Found = true;
  return Best;
}

void Resolver::resolve(CodeSample &S) const {
  if (!S.Addr) {
    S.Kind = CodeKind::Outside;
    return;
  }
  // A return address: the call instruction that precedes it is what ran.
  uint64_t A = (S.Flags & raw::CSR_Caller) ? S.Addr - 1 : S.Addr;
  for (const ObjectSymbols &O : Objects) {
    const SymRange *Sym = O.find(A);
    if (!Sym)
      continue;
    uint64_t Start = Sym->Start + uint64_t(O.Bias);
    auto It = FuncAt.find(Start);
    bool Copy;
    uint32_t Orig = timedCopyOf(Sym->Name, Start, Copy);
    if (It != FuncAt.end() || Copy) {
      S.Kind = CodeKind::Function;
      S.Func = Copy ? Orig : It->second;
    } else {
      S.Kind = isRuntimeSymbol(Sym->Name) ? CodeKind::Runtime : CodeKind::Outside;
    }
    return;
  }
  if (P.CodeResolvedByNearest) {
    CodeSample Copy = S;
    Copy.Addr = A;
    resolveNearest(Copy);
    S.Kind = Copy.Kind;
    S.Func = Copy.Func;
    return;
  }
  S.Kind = CodeKind::Outside;
}

/// The program function a return address returns into, from the object
/// symbols only (the nearest-start fallback could place a library's return
/// address in the program).
CallerCode Resolver::callerCode(uint64_t ReturnAddr) const {
  CallerCode C;
  if (!ReturnAddr)
    return C;
  // Outside every object is outside the program only if every object of
  // the process could be read.
  C.Known = !P.CodeResolvedByNearest;
  CodeSample S;
  S.Addr = ReturnAddr;
  S.Flags = raw::CSR_Caller;
  for (const ObjectSymbols &O : Objects)
    if (O.find(ReturnAddr - 1)) {
      resolve(S);
      if (S.Kind == CodeKind::Function) {
        C.Func = S.Func;
        C.LinkAddr = ReturnAddr - uint64_t(O.Bias);
      }
      C.Known = true;
      break;
    }
  return C;
}

void Resolver::run(std::vector<std::string> &Warnings) {
  bool Any = false;
  for (const Thread &T : P.Threads) {
    Any |= !T.CodeSamples.empty();
    for (const Node &N : T.Nodes)
      Any |= N.CallSite != 0;
  }
  if (!Any)
    return;
  for (uint32_t I = 0; I < P.Functions.size(); ++I)
    if (P.Functions[I].Addr) {
      FuncAt.try_emplace(P.Functions[I].Addr, I);
      FuncsNamed[P.Functions[I].Name].push_back(I);
      Sorted.emplace_back(P.Functions[I].Addr, I);
    }
  llvm::sort(Sorted);
  loadObjects(Warnings);
  for (Thread &T : P.Threads) {
    for (CodeSample &S : T.CodeSamples) {
      resolve(S);
      S.CallerAt = callerCode(S.Caller);
    }
    for (Node &N : T.Nodes)
      N.Site = callerCode(N.CallSite);
  }
}

} // namespace

StringRef profile::sourceFunctionName(StringRef Name) {
  // Demangled: "f() (.activetime.timed)", "f() (.activetime.timed.cold.1)".
  std::string Demangled = std::string(" (") + abi::kTimedCopySuffix;
  size_t At = Name.find(Demangled);
  if (At != StringRef::npos && Name.ends_with(")"))
    return Name.take_front(At);
  At = Name.find(abi::kTimedCopySuffix);
  if (At == StringRef::npos || At == 0)
    return Name;
  // Only a whole suffix component: ".activetime.timed" followed by the end
  // of the name or by another '.'-suffix.
  size_t End = At + StringRef(abi::kTimedCopySuffix).size();
  if (End != Name.size() && Name[End] != '.')
    return Name;
  return Name.take_front(At);
}

std::vector<std::string> profile::resolveCodeSamples(Profile &Prof) {
  std::vector<std::string> Warnings;
  for (Process &P : Prof.Processes)
    Resolver(P).run(Warnings);
  return Warnings;
}
