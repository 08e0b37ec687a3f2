// Three calls of g from code included from body.inc: one on its line 1, two
// on its line 2. f and a copy of it named as the pass names a timed copy
// ("f.activetime.timed") hold the same calls at the same source positions.
__attribute__((noinline)) int g(int x) { return x * 3; }
__attribute__((noinline)) int f(int x) {
#include "body.inc"
}
__attribute__((noinline)) int f_copy(int x) __asm__("f.activetime.timed");
__attribute__((noinline)) int f_copy(int x) {
#include "body.inc"
}
int main(int argc, char **argv) { return f(argc) + f_copy(argc); }
