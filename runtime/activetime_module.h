//===- activetime_module.h - Instrumented module registry -------*- C++ -*-===//
#ifndef ACTIVETIME_MODULE_H
#define ACTIVETIME_MODULE_H

#include "activetime_internal.h"

namespace __activetime {

using MemSiteDesc = activetime::abi::MemSiteDesc;

struct ModuleInfo {
  const ModuleDesc *Desc;   // the module's descriptor (not dereferenced once unloaded)
  const FuncDesc *Funcs;    // its table, or a runtime-owned copy once unloaded
  uptr FuncsBegin;          // original table address range: function identity
  uptr FuncsEnd;
  u32 NumFuncs;
  u32 FirstId;              // process-wide id of Funcs[0]
  u64 Hash;
  const char *Name;         // source file name (runtime-owned copy once unloaded)
  const char *Path;         // ELF object (runtime-owned copy)
  uptr LoadBase;
  const MemSiteDesc *Sites; // site table, or a runtime-owned copy once unloaded
  // ABI v4: the functions inlined away before instrumentation (null Addr),
  // or a runtime-owned copy once unloaded.
  const FuncDesc *InlinedAway;
  u32 NumInlinedAway;
  u32 NumSites;
  u32 SiteBase;             // global id of Sites[0] (ModuleDesc::SiteBase)
  // Timed or counted (activetime_counts.h): a PIC module's first slot in
  // the threads' shared counter arrays (0: not such a module, or no slots);
  // an executable's module's bootstrap array and the offset of its counter
  // pointer from the thread pointer (the same in every thread).
  u32 CountBase;
  bool SharedCounts;
  u64 *Bootstrap;
  sptr CountsTlsOffset;
  bool Unloaded;
};

void RegisterModule(ModuleDesc *M);
void UnregisterModule(ModuleDesc *M);

// Registry access (writer, fork). Modules in registration order.
void LockModules();
void UnlockModules();
uptr NumModules();            // modules lock held
ModuleInfo *GetModule(uptr I); // modules lock held

// Maps a FuncDesc pointer to its process-wide id using the modules' table
// ranges; returns false if it belongs to no registered module. The lookup
// table is built by BuildFuncIdIndex (modules lock held).
void BuildFuncIdIndex();
bool LookupFuncId(const FuncDesc *Fn, u32 *Id);

// The loaded module whose table holds Fn, and Fn's index in it; false if
// none (a region, an unloaded module). Lock-free: safe in a probe.
bool FindFuncModule(const FuncDesc *Fn, ModuleInfo **MI, u32 *Index);

// The most functions any registered module has.
u32 MaxModuleFuncs();

// The descriptor of region Name, interned once per name into the runtime's
// own module (registered at the first region like a compiled module, so the
// writer and the tool treat regions as functions). Null when the table is
// full (kMaxRegions) or Name is null/empty.
constexpr u32 kMaxRegions = 4096;
const FuncDesc *InternRegion(const char *Name, const char *File, u32 Line);

// Testing: forget all modules.
void ResetModulesForTesting();

} // namespace __activetime

#endif // ACTIVETIME_MODULE_H
