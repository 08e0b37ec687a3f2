/*===- count_hooks.c - counting -finstrument-functions hooks -------------===*
 *
 * Part of ActiveTime (bench/truth). The call counts the truth harness
 * checks ActiveTime's against: __cyg_profile_func_enter counts calls per
 * function address in a lock-free open-addressing table; at exit the
 * counts of the functions in the object these hooks are linked into are
 * written to the file named by $COUNT_HOOKS_OUT, one
 * "<offset from the load base (dladdr's dli_fbase), hex> <count>" a line.
 * Compiled without instrumentation.
 *
 *===---------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_PROBE __attribute__((no_instrument_function))
#define TABLE_BITS 18 /* 256k slots: far more than any program here has functions */
#define TABLE_SIZE (1u << TABLE_BITS)

static struct {
  uintptr_t Fn; /* 0 = empty */
  uint64_t Count;
} Table[TABLE_SIZE];
static uint64_t Overflow; /* calls that found the table full */

NO_PROBE static uint32_t slotOf(uintptr_t Fn) {
  return (uint32_t)((Fn * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS));
}

NO_PROBE void __cyg_profile_func_enter(void *FnPtr, void *Site) {
  (void)Site;
  uintptr_t Fn = (uintptr_t)FnPtr;
  uint32_t I = slotOf(Fn);
  for (uint32_t N = 0; N < TABLE_SIZE; ++N, I = (I + 1) & (TABLE_SIZE - 1)) {
    uintptr_t Cur = __atomic_load_n(&Table[I].Fn, __ATOMIC_ACQUIRE);
    if (Cur == 0) {
      uintptr_t Expected = 0;
      if (__atomic_compare_exchange_n(&Table[I].Fn, &Expected, Fn, 0, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE))
        Cur = Fn;
      else
        Cur = Expected;
    }
    if (Cur == Fn) {
      __atomic_fetch_add(&Table[I].Count, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  __atomic_fetch_add(&Overflow, 1, __ATOMIC_RELAXED);
}

NO_PROBE void __cyg_profile_func_exit(void *Fn, void *Site) {
  (void)Fn;
  (void)Site;
}

/* Priority 101: among the last destructors, after the C++ static
 * destructors and atexit handlers, so their calls are counted too. */
NO_PROBE __attribute__((destructor(101))) static void dumpCounts(void) {
  const char *Path = getenv("COUNT_HOOKS_OUT");
  if (!Path)
    return;
  FILE *F = fopen(Path, "w");
  if (!F)
    return;
  Dl_info Self, Info;
  if (!dladdr((void *)&dumpCounts, &Self))
    Self.dli_fbase = NULL;
  for (uint32_t I = 0; I < TABLE_SIZE; ++I) {
    uintptr_t Fn = Table[I].Fn;
    if (!Fn || !dladdr((void *)Fn, &Info) || Info.dli_fbase != Self.dli_fbase)
      continue;
    fprintf(F, "%lx %llu\n", (unsigned long)(Fn - (uintptr_t)Info.dli_fbase),
            (unsigned long long)Table[I].Count);
  }
  if (Overflow)
    fprintf(F, "# overflow %llu\n", (unsigned long long)Overflow);
  fclose(F);
}
