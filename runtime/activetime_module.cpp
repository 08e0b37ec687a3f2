//===- activetime_module.cpp - Instrumented module registry -----*- C++ -*-===//

#include "activetime_module.h"

#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_strides.h"

#include <dlfcn.h>
#include <link.h>

namespace __activetime {

namespace {
Mutex modules_mu;
PodVector<ModuleInfo *> modules;
u32 next_func_id;

struct Range {
  uptr Begin, End;
  u32 FirstId;
};
PodVector<Range> ranges; // sorted by Begin, built by BuildFuncIdIndex

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
} // namespace

void LockModules() { modules_mu.Lock(); }
void UnlockModules() { modules_mu.Unlock(); }
uptr NumModules() { return modules.Size; }
ModuleInfo *GetModule(uptr I) { return modules[I]; }

void RegisterModule(ModuleDesc *M) {
  if (!M)
    return;
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
  MI->Sites = M->Sites;
  MI->NumSites = M->Sites ? M->NumSites : 0;
  Lock L(&modules_mu);
  // Before any probe of the module can run: its constructor calls us first.
  MI->SiteBase = M->SiteBase = MI->NumSites ? AllocateSiteIds(MI->NumSites) : 0;
  MI->FirstId = next_func_id;
  next_func_id += M->NumFuncs;
  modules.PushBack(MI);
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
  FuncDesc *Copy = MI->NumFuncs
                       ? (FuncDesc *)PersistentAlloc(MI->NumFuncs * sizeof(FuncDesc))
                       : nullptr;
  for (u32 I = 0; I < MI->NumFuncs; ++I) {
    Copy[I] = MI->Funcs[I];
    Copy[I].Name = MI->Funcs[I].Name ? PersistentStrdup(MI->Funcs[I].Name) : nullptr;
    Copy[I].File = MI->Funcs[I].File ? PersistentStrdup(MI->Funcs[I].File) : nullptr;
  }
  MI->Funcs = Copy;
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

void BuildFuncIdIndex() {
  ranges.Clear();
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

void ResetModulesForTesting() {
  Lock L(&modules_mu);
  modules.Clear();
  next_func_id = 0;
}

} // namespace __activetime

using namespace __activetime;

extern "C" void __activetime_register_module(activetime::abi::ModuleDesc *M) {
  RegisterModule(M);
}

extern "C" void __activetime_unregister_module(activetime::abi::ModuleDesc *M) {
  UnregisterModule(M);
}

extern "C" void __activetime_version_mismatch_check_v2(void) {}
