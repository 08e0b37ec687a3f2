#include "child.h"
#include <cstdio>
#include <unistd.h>

int child_main(void* arg) {
  std::fprintf(stderr, "child says %s\n", static_cast<const char*>(arg));
  _exit(3);
}
