/*===- xray_profiling_init.c - start XRay's profiling mode ---------------===*
 *
 * Part of ActiveTime (bench/overhead). In LLVM 19's XRay runtime
 * XRAY_OPTIONS=xray_mode=xray-profiling does not start the profiling mode:
 * its initializer selects the mode under a misspelled name ("xray_profiling")
 * and, unlike the basic mode, never calls __xray_log_init_mode. So the xray
 * builds wrap main (-Wl,--wrap=main: after every static initializer, where
 * the mode is registered) and start it here when XRAY_OPTIONS asks for it.
 * Compiled without instrumentation.
 *
 *===---------------------------------------------------------------------===*/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __xray_log_select_mode(const char *Mode);
int __xray_log_init_mode(const char *Mode, const char *Config);
int __real_main(int, char **, char **);

int __wrap_main(int Argc, char **Argv, char **Envp) {
  const char *Opts = getenv("XRAY_OPTIONS");
  if (Opts && strstr(Opts, "xray_mode=xray-profiling")) {
    const char *Cfg = getenv("XRAY_PROFILING_OPTIONS");
    int Sel = __xray_log_select_mode("xray-profiling");
    int Init = __xray_log_init_mode("xray-profiling", Cfg ? Cfg : "");
    if (Sel != 0 || Init != 2 /* XRAY_LOG_INITIALIZED */) {
      fprintf(stderr, "xray-profiling: select %d, init %d\n", Sel, Init);
      return 125;
    }
  }
  return __real_main(Argc, Argv, Envp);
}
