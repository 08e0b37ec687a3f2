// C++: inline methods, out-of-line methods, templates (implicit and explicit
// instantiations, members of class templates), lambdas and local classes.
// Only what carries no_instrument_function is annotated.
//
// RUN: %clangxx -fplugin=%clang_plugin -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s
// RUN: %clangxx -fplugin=%clang_plugin -S -emit-llvm -O2 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s

// Generic lambda: one call operator per instantiation.
// CHECK:      ANNOTATION @"_ZNK3$_0clIiEEDaT_" activetime.no_instrument
// CHECK-NEXT: ANNOTATION @"_ZNK3$_0clIlEEDaT_" activetime.no_instrument
// Lambda converted to a function pointer: operator() and its static invoker.
// CHECK-NEXT: ANNOTATION @"_ZZ4mainEN3$_08__invokeEi" activetime.no_instrument
// CHECK-NEXT: ANNOTATION @"_ZZ4mainENK3$_0clEi" activetime.no_instrument
// Plain lambda called directly.
// CHECK-NEXT: ANNOTATION @"_ZZ4mainENK3$_1clEi" activetime.no_instrument
// tmpl<double> (implicit), tmpl<int> (implicit), tmpl<short> (explicit).
// CHECK-NEXT: ANNOTATION @_Z4tmplIdET_S0_ activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_Z4tmplIiET_S0_ activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_Z4tmplIsET_S0_ activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN2ns3Box3outEi activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN2ns3Box8in_classEi activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN4PairIlE4skipEl activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZZ4mainEN5Local1fEi activetime.no_instrument
// CHECK-NEXT: ANNOTATION @c_linkage activetime.no_instrument
// CHECK-NOT:  ANNOTATION

namespace ns {
struct Box {
  __attribute__((no_instrument_function)) int in_class(int x) { return x; }
  __attribute__((no_instrument_function)) int out(int x);
  int counted(int x) { return x + 2; }
};
} // namespace ns

int ns::Box::out(int x) { return x + 3; }

template <typename T>
__attribute__((no_instrument_function)) T tmpl(T x) { return x + 1; }
template <typename T> T counted_tmpl(T x) { return x + 1; }
template short tmpl<short>(short);

template <typename T> struct Pair {
  __attribute__((no_instrument_function)) T skip(T x) { return x * 3; }
  T keep(T x) { return x * 4; }
};

extern "C" __attribute__((no_instrument_function)) int c_linkage(int x) {
  return x;
}

static auto generic = [](auto x) __attribute__((no_instrument_function)) {
  return x + 14;
};

int main(int argc, char **) {
  ns::Box b;
  Pair<long> p;
  int (*fp)(int) = [](int x) __attribute__((no_instrument_function)) {
    return x + 13;
  };
  auto direct = [](int x) __attribute__((no_instrument_function)) {
    return x + 11;
  };
  auto counted_lambda = [](int x) { return x + 12; };
  struct Local {
    __attribute__((no_instrument_function)) static int f(int x) { return x; }
    static int g(int x) { return x + 1; }
  };
  return b.in_class(argc) + b.out(argc) + b.counted(argc) + tmpl(argc) +
         tmpl(1.0) + counted_tmpl(argc) + p.skip(argc) + p.keep(argc) +
         c_linkage(argc) + generic(argc) + generic(2L) + fp(argc) +
         direct(argc) + counted_lambda(argc) + Local::f(argc) +
         Local::g(argc);
}
