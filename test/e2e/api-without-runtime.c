// A program using the header but compiled and linked without ActiveTime
// links and runs: the API does nothing and activetime_present() is 0. Also
// as C++ (ACTIVETIME_REGION).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -std=c2x -O0 -I%S/../../include %s -o plain
// RUN: ./plain | FileCheck %s
// RUN: %clang -std=c2x -O2 -I%S/../../include %s -o plain2
// RUN: ./plain2 | FileCheck %s
// RUN: %clangxx -x c++ -std=c++17 -O2 -I%S/../../include %s -o plainxx
// RUN: ./plainxx | FileCheck %s
// RUN: not ls activetime.*.raw
#include <activetime/activetime.h>
#include <stdio.h>

int main(void) {
  ACTIVETIME_REGION_BEGIN("r");
#ifdef __cplusplus
  { ACTIVETIME_REGION("scoped"); }
#endif
  ACTIVETIME_REGION_END("r");
  printf("present %d flush %d enabled %d set %d region %p\n",
         activetime_present(), activetime_flush(), activetime_enabled(),
         activetime_set_enabled(0),
         (const void *)activetime_region_get("x", 0, 0));
  return 0;
}
// CHECK: present 0 flush -1 enabled -1 set -1 region (nil)
