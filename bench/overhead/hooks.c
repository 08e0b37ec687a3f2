/*===- hooks.c - empty -finstrument-functions hooks ----------------------===*
 *
 * Part of ActiveTime (bench/overhead). The lower bound for call-based
 * probes: what the call sites alone cost. Compiled without instrumentation.
 *
 *===---------------------------------------------------------------------===*/

__attribute__((noinline)) void __cyg_profile_func_enter(void *Fn, void *Site) {
  (void)Fn;
  (void)Site;
  __asm__ __volatile__("");
}

__attribute__((noinline)) void __cyg_profile_func_exit(void *Fn, void *Site) {
  (void)Fn;
  (void)Site;
  __asm__ __volatile__("");
}
