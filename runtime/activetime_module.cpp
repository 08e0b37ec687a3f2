//===- activetime_module.cpp - Instrumented module registry -----*- C++ -*-===//

#include "activetime_module.h"

#include "activetime_codesamples.h"
#include "activetime_collector.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_strides.h"
#include "activetime_writer.h"

#include <dlfcn.h>
#include <link.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {
Mutex modules_mu;
PodVector<ModuleInfo *> modules;
u32 next_func_id;

struct Range {
  uptr Begin, End;
  u32 FirstId;
};
PodVector<Range> ranges; // sorted by Begin, built by BuildFuncIdIndex

// The region module: its table has room for kMaxRegions descriptors, which
// never move (call sites cache their addresses); NumFuncs grows.
ModuleInfo *region_module;
bool region_table_full_reported;

const char *ObjectPathFor(const void *Addr, uptr *LoadBase) {
  Dl_info Info;
  struct link_map *LM = nullptr;
  *LoadBase = 0;
  if (!Addr || !dladdr1(Addr, &Info, (void **)&LM, RTLD_DL_LINKMAP))
    return nullptr;
  *LoadBase = uptr(Info.dli_fbase);
  if (LM && LM->l_name && LM->l_name[0])
    return PersistentStrdup(LM->l_name);
  // The main executable has an empty link-map name.
  char Buf[4096];
  uptr N = ReadBinaryName(Buf, sizeof(Buf));
  if (N && N < sizeof(Buf)) {
    Buf[N] = 0;
    return PersistentStrdup(Buf);
  }
  return Info.dli_fname ? PersistentStrdup(Info.dli_fname) : nullptr;
}
u32 max_module_funcs;

// Every module ever registered, for the probes' lock-free lookups: entries
// below num_lookup (acquire) are set and never change.
constexpr u32 kMaxLookupModules = 1u << 16;
ModuleInfo **lookup;
u32 num_lookup;

// Where the module's counters are (abi.h, "Timed or counted"): slots in the
// threads' shared arrays for a PIC module, else the module's own pointer,
// found in any thread at the offset it has in the registering one.
void AssignCounters(ModuleInfo *MI, ModuleDesc *M) {
  if (M->NumFuncs > max_module_funcs)
    __atomic_store_n(&max_module_funcs, M->NumFuncs, __ATOMIC_RELAXED);
  MI->SharedCounts = M->Flags & activetime::abi::MDF_SharedCounts;
  MI->Bootstrap = (u64 *)M->Bootstrap;
  MI->CountsTlsOffset = M->CountsTls ? sptr(uptr(M->CountsTls) - ThreadPointer()) : 0;
  if (M->CountsTls)
    AddCountingOffset(MI->CountsTlsOffset);
  if (M->NumFuncs && !(M->Flags & activetime::abi::MDF_SamplePoll))
    NoteModuleWithoutSamplePoll();
  if (!MI->SharedCounts || !M->NumFuncs)
    return;
  MI->CountBase = M->CountBase = AllocateSharedSlots(M->NumFuncs);
  if (!MI->CountBase)
    VLog(1, "module %s: no counter slots left; its calls are not counted",
         M->ModuleName ? M->ModuleName : "?");
}

void PublishForLookup(ModuleInfo *MI) {
  if (!lookup)
    lookup = (ModuleInfo **)MmapNoReserveOrDie(
        kMaxLookupModules * sizeof(ModuleInfo *), "ActiveTime module lookup");
  if (num_lookup == kMaxLookupModules)
    return;
  lookup[num_lookup] = MI;
  __atomic_store_n(&num_lookup, num_lookup + 1, __ATOMIC_RELEASE);
}
} // namespace

void LockModules() { modules_mu.Lock(); }
void UnlockModules() { modules_mu.Unlock(); }
uptr NumModules() { return modules.Size; }
ModuleInfo *GetModule(uptr I) { return modules[I]; }

// A runtime-owned copy of N descriptors and their strings.
static const FuncDesc *CopyFuncDescs(const FuncDesc *From, u32 N) {
  if (!N)
    return nullptr;
  FuncDesc *Copy = (FuncDesc *)PersistentAlloc(N * sizeof(FuncDesc));
  for (u32 I = 0; I < N; ++I) {
    Copy[I] = From[I];
    Copy[I].Name = From[I].Name ? PersistentStrdup(From[I].Name) : nullptr;
    Copy[I].File = From[I].File ? PersistentStrdup(From[I].File) : nullptr;
  }
  return Copy;
}

void RegisterModule(ModuleDesc *M) {
  if (!M || M->RuntimeData)
    return; // registered already (by an early call, abi.h)
  EnsureInit();
  if (M->AbiVersion != activetime::abi::kAbiVersion) {
    Printf("ActiveTime: module %s was instrumented for ABI v%u but this "
           "runtime implements v%u\n",
           M->ModuleName ? M->ModuleName : "<unnamed>", M->AbiVersion,
           activetime::abi::kAbiVersion);
    Die();
  }
  ModuleInfo *MI = (ModuleInfo *)PersistentAlloc(sizeof(ModuleInfo));
  MI->Desc = M;
  MI->Funcs = M->Funcs;
  MI->NumFuncs = M->NumFuncs;
  MI->FuncsBegin = uptr(M->Funcs);
  MI->FuncsEnd = uptr(M->Funcs + M->NumFuncs);
  MI->Hash = M->Hash;
  MI->Name = M->ModuleName;
  const void *Probe = M->NumFuncs && M->Funcs[0].Addr ? M->Funcs[0].Addr
                                                       : (const void *)M;
  MI->Path = ObjectPathFor(Probe, &MI->LoadBase);
  AddProgramCode(Probe);
  MI->Sites = M->Sites;
  MI->NumSites = M->Sites ? M->NumSites : 0;
  MI->InlinedAway = M->InlinedAway;
  MI->NumInlinedAway = M->InlinedAway ? M->NumInlinedAway : 0;
  AssignCounters(MI, M);
  Lock L(&modules_mu);
  // Before any probe of the module can run: its constructor calls us first.
  MI->SiteBase = M->SiteBase = MI->NumSites ? AllocateSiteIds(MI->NumSites) : 0;
  MI->FirstId = next_func_id;
  next_func_id += M->NumFuncs;
  modules.PushBack(MI);
  PublishForLookup(MI);
  M->RuntimeData = MI;
  VLog(2, "registered module %s (%u functions) from %s",
       MI->Name ? MI->Name : "?", MI->NumFuncs, MI->Path ? MI->Path : "?");
}

void UnregisterModule(ModuleDesc *M) {
  if (!M)
    return;
  Lock L(&modules_mu);
  ModuleInfo *MI = nullptr;
  for (uptr I = modules.Size; I-- > 0;)
    if (modules[I]->Desc == M && !modules[I]->Unloaded) {
      MI = modules[I];
      break;
    }
  if (!MI)
    return;
  // The module's memory goes away with dlclose: copy what the writer needs.
  MI->Funcs = CopyFuncDescs(MI->Funcs, MI->NumFuncs);
  MI->InlinedAway = CopyFuncDescs(MI->InlinedAway, MI->NumInlinedAway);
  MemSiteDesc *Sites = MI->NumSites ? (MemSiteDesc *)PersistentAlloc(
                                          MI->NumSites * sizeof(MemSiteDesc))
                                    : nullptr;
  for (u32 I = 0; I < MI->NumSites; ++I) {
    Sites[I] = MI->Sites[I];
    Sites[I].Func = MI->Sites[I].Func ? PersistentStrdup(MI->Sites[I].Func) : nullptr;
    Sites[I].File = MI->Sites[I].File ? PersistentStrdup(MI->Sites[I].File) : nullptr;
  }
  MI->Sites = Sites;
  MI->Name = MI->Name ? PersistentStrdup(MI->Name) : nullptr;
  MI->Unloaded = true;
  M->RuntimeData = nullptr;
  VLog(2, "unregistered module %s", MI->Name ? MI->Name : "?");
}

const FuncDesc *InternRegion(const char *Name, const char *File, u32 Line) {
  if (!Name || !Name[0])
    return nullptr;
  EnsureInit();
  Lock L(&modules_mu);
  if (!region_module) {
    ModuleInfo *MI = (ModuleInfo *)PersistentAlloc(sizeof(ModuleInfo));
    internal_memset(MI, 0, sizeof(*MI));
    FuncDesc *Table =
        (FuncDesc *)PersistentAlloc(kMaxRegions * sizeof(FuncDesc));
    MI->Funcs = Table;
    MI->FuncsBegin = MI->FuncsEnd = uptr(Table);
    MI->Name = activetime::abi::kRegionModuleName;
    // No object path and hash 0: regions have no address to symbolize, and
    // the module must not make two runs of one executable (which may intern
    // different names) look like different binaries to `activetime merge`.
    modules.PushBack(MI);
    region_module = MI;
  }
  ModuleInfo *MI = region_module;
  FuncDesc *Table = const_cast<FuncDesc *>(MI->Funcs);
  for (u32 I = 0; I < MI->NumFuncs; ++I)
    if (internal_strcmp(Table[I].Name, Name) == 0)
      return &Table[I];
  if (MI->NumFuncs == kMaxRegions) {
    if (!region_table_full_reported)
      Printf("ActiveTime: more than %u distinct region names; region '%s' "
             "and later new names are not recorded\n",
             kMaxRegions, Name);
    region_table_full_reported = true;
    return nullptr;
  }
  FuncDesc &F = Table[MI->NumFuncs];
  F.Addr = nullptr;
  F.Name = PersistentStrdup(Name);
  F.File = File && File[0] ? PersistentStrdup(File) : nullptr;
  F.Line = Line;
  F.Flags = 0; // a region name is process-wide, like a global function's
  MI->NumFuncs++;
  MI->FuncsEnd = uptr(Table + MI->NumFuncs);
  next_func_id++;
  return &F;
}

void BuildFuncIdIndex() {
  ranges.Clear();
  // Ids in registration order; the region module's table grows after its
  // registration, so they are assigned here rather than when registering.
  u32 Id = 0;
  for (uptr I = 0; I < modules.Size; ++I) {
    modules[I]->FirstId = Id;
    Id += modules[I]->NumFuncs;
  }
  // Registration order + stable sort + backwards scan in LookupFuncId: if a
  // dlclose'd module's address range was reused, the later module wins.
  for (uptr I = 0; I < modules.Size; ++I) {
    ModuleInfo *MI = modules[I];
    if (MI->NumFuncs)
      ranges.PushBack({MI->FuncsBegin, MI->FuncsEnd, MI->FirstId});
  }
  // Stable insertion sort by Begin (few modules).
  for (uptr I = 1; I < ranges.Size; ++I) {
    Range R = ranges[I];
    uptr J = I;
    while (J > 0 && ranges[J - 1].Begin > R.Begin) {
      ranges[J] = ranges[J - 1];
      --J;
    }
    ranges[J] = R;
  }
}

bool LookupFuncId(const FuncDesc *Fn, u32 *Id) {
  uptr A = uptr(Fn);
  // Last range with Begin <= A.
  uptr Lo = 0, Hi = ranges.Size;
  while (Lo < Hi) {
    uptr Mid = (Lo + Hi) / 2;
    if (ranges[Mid].Begin <= A)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  // Overlapping ranges are possible only after an address reuse; scan back.
  for (uptr I = Lo; I-- > 0;) {
    const Range &R = ranges[I];
    if (A >= R.Begin && A < R.End && (A - R.Begin) % sizeof(FuncDesc) == 0) {
      *Id = R.FirstId + u32((A - R.Begin) / sizeof(FuncDesc));
      return true;
    }
    if (I + 8 < Lo)
      break;
  }
  return false;
}

bool FindFuncModule(const FuncDesc *Fn, ModuleInfo **Out, u32 *Index) {
  uptr A = uptr(Fn);
  // Latest first: a dlclose'd module's range may have been reused.
  for (u32 I = __atomic_load_n(&num_lookup, __ATOMIC_ACQUIRE); I-- > 0;) {
    ModuleInfo *MI = lookup[I];
    if (A >= MI->FuncsBegin && A < MI->FuncsEnd) {
      *Out = MI;
      *Index = u32((A - MI->FuncsBegin) / sizeof(FuncDesc));
      return !__atomic_load_n(&MI->Unloaded, __ATOMIC_RELAXED);
    }
  }
  return false;
}

u32 MaxModuleFuncs() { return __atomic_load_n(&max_module_funcs, __ATOMIC_RELAXED); }

void ResetModulesForTesting() {
  Lock L(&modules_mu);
  // A descriptor registered again must register again.
  for (uptr I = 0; I < modules.Size; ++I)
    if (modules[I]->Desc && !modules[I]->Unloaded)
      const_cast<ModuleDesc *>(modules[I]->Desc)->RuntimeData = nullptr;
  modules.Clear();
  __atomic_store_n(&num_lookup, 0, __ATOMIC_RELEASE);
  next_func_id = 0;
  region_module = nullptr;
  region_table_full_reported = false;
}

namespace {
void WriteFuncRecords(OutBuffer *B, const FuncDesc *Funcs, u32 N) {
  for (u32 I = 0; I < N; ++I) {
    const FuncDesc &F = Funcs[I];
    raw::FuncRecord FR;
    FR.Addr = uptr(F.Addr);
    FR.Line = F.Line;
    FR.Flags = F.Flags;
    FR.NameLen = StrLenOrZero(F.Name);
    FR.FileLen = StrLenOrZero(F.File);
    B->Append(&FR, sizeof(FR));
    B->Append(F.Name, FR.NameLen);
    B->Append(F.File, FR.FileLen);
  }
}

void WriteModule(OutBuffer *B, const ModuleInfo *MI) {
  raw::ModuleRecord R;
  internal_memset(&R, 0, sizeof(R));
  R.Hash = MI->Hash;
  R.LoadBase = MI->LoadBase;
  R.NumFuncs = MI->NumFuncs;
  R.NameLen = StrLenOrZero(MI->Name);
  R.PathLen = StrLenOrZero(MI->Path);
  R.Flags = MI->Unloaded ? raw::MF_Unloaded : 0;
  R.NumInlinedAway = MI->NumInlinedAway;
  B->Append(&R, sizeof(R));
  B->Append(MI->Name, R.NameLen);
  B->Append(MI->Path, R.PathLen);
  WriteFuncRecords(B, MI->Funcs, MI->NumFuncs);
  WriteFuncRecords(B, MI->InlinedAway, MI->NumInlinedAway);
}

// One section per module, in registration order.
void WriteModuleSections(ProfileWriter &W) {
  for (uptr I = 0; I < NumModules(); ++I)
    W.Section(raw::SK_Module, [&] { WriteModule(W.Out, GetModule(I)); });
}
} // namespace

const Collector kModulesCollector = {
    .Name = "modules",
    .Order = 20,
    .WriteSections = WriteModuleSections,
};
AT_REGISTER_COLLECTOR(kModulesCollector);

} // namespace __activetime

using namespace __activetime;

extern "C" void __activetime_register_module(activetime::abi::ModuleDesc *M) {
  RegisterModule(M);
}

extern "C" void __activetime_unregister_module(activetime::abi::ModuleDesc *M) {
  UnregisterModule(M);
}

extern "C" void ACTIVETIME_CONCAT(__activetime_version_mismatch_check_v,
                                  ACTIVETIME_ABI_VERSION)(void) {}

extern "C" const activetime::abi::FuncDesc *
__activetime_region_intern(const char *Name, const char *File, u32 Line) {
  return InternRegion(Name, File, Line);
}
