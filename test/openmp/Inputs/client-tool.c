// A minimal OMPT tool that counts parallel regions; loaded through
// OMP_TOOL_LIBRARIES next to ActiveTime's own tool.
#include <omp-tools.h>
#include <stdio.h>

static int regions;

static void on_parallel_begin(ompt_data_t *t, const ompt_frame_t *f,
                              ompt_data_t *p, unsigned req, int flags,
                              const void *ra) {
  __atomic_fetch_add(&regions, 1, __ATOMIC_RELAXED);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *d) {
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  return 1;
}

static void fini(ompt_data_t *d) { printf("client tool: %d parallel regions\n", regions); }

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *r) {
  static ompt_start_tool_result_t res = {init, fini, {0}};
  return &res;
}
