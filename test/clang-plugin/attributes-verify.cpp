// Misused ActiveTime attributes in C++ (C++11 spelling): wrong subjects and
// arguments are errors at the attribute.
//
// RUN: %clangxx -fplugin=%clang_plugin -fsyntax-only -std=c++17 -Xclang -verify %s

[[activetime::no_instrument]] int var; // expected-error {{'activetime::no_instrument' attribute only applies to functions}}
class [[activetime::instrument]] C {}; // expected-error {{'activetime::instrument' attribute only applies to functions}}
namespace [[activetime::strides]] ns {} // expected-error {{'activetime::strides' attribute only applies to functions}}

constexpr const char *kName = "x";
[[activetime::region(kName)]] void r1(); // expected-error {{argument of 'activetime::region' attribute must be a string literal}}
[[activetime::region(u8"wide")]] void r2(); // expected-error {{argument of 'activetime::region' attribute must be a string literal}}
[[activetime::no_instrument]] [[activetime::instrument]] void c1(); // expected-error {{'activetime::instrument' attribute contradicts an earlier activetime attribute of this function}}

// Correct uses: member functions, templates, no diagnostics.
struct S {
  [[activetime::region("S::run")]] void run() {}
  [[activetime::no_instrument]] static int helper() { return 1; }
};
template <typename T> [[activetime::strides]] T sum(const T *p, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
int use(const int *p) { return sum(p, 4); }

// Without the scope the name is not ours.
[[region("x")]] void r3(); // expected-warning {{unknown attribute 'region' ignored; did you mean 'activetime::region'?}}
