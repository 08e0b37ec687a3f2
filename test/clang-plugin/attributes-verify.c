// Misused ActiveTime attributes and pragmas are diagnosed where they are
// written, in C (C23 and GNU spellings). Clang 22 names a C23 attribute with
// its scope in its own argument-count errors (prefix v22), Clang 19 without.
//
// RUN: %clang -fplugin=%clang_plugin -fsyntax-only -std=c2x -Xclang -verify=expected,v%llvm_major %s

[[activetime::no_instrument]] int var; // expected-error {{'activetime::no_instrument' attribute only applies to functions}}
__attribute__((activetime_instrument)) int var2; // expected-error {{'activetime_instrument' attribute only applies to functions}}
struct S {
  int field [[activetime::strides]]; // expected-error {{'activetime::strides' attribute only applies to functions}}
};

[[activetime::region(42)]] int r1(void); // expected-error {{argument of 'activetime::region' attribute must be a string literal}}
[[activetime::region("")]] int r2(void); // expected-error {{region name must be non-empty and contain no NUL character}}
[[activetime::region]] int r3(void); // v19-error {{'region' attribute takes one argument}} v22-error {{'activetime::region' attribute takes one argument}}
__attribute__((activetime_region("a", "b"))) int r4(void); // expected-error {{'activetime_region' attribute takes one argument}}
[[activetime::region("a")]] [[activetime::region("b")]] int r5(void); // expected-error {{conflicting region names 'a' and 'b' for one function}}
[[activetime::no_instrument("x")]] int n1(void); // v19-error {{'no_instrument' attribute takes no arguments}} v22-error {{'activetime::no_instrument' attribute takes no arguments}}

[[activetime::instrument, activetime::no_instrument]] int c1(void); // expected-error {{'activetime::no_instrument' attribute contradicts an earlier activetime attribute of this function}}

#pragma activetime bogus(on) // expected-warning {{unknown option 'bogus' in '#pragma activetime'; expected 'instrument' or 'strides'}}
#pragma activetime instrument(maybe) // expected-warning {{expected '(on)' or '(off)' after '#pragma activetime instrument'}}
#pragma activetime strides on // expected-warning {{expected '(on)' or '(off)' after '#pragma activetime strides'}}
#pragma activetime // expected-warning {{missing option in '#pragma activetime'; expected 'instrument' or 'strides'}}
#pragma activetime instrument(off) extra // expected-warning {{extra tokens at end of '#pragma activetime instrument'; the pragma is ignored}}

// Correct uses: no diagnostics.
[[activetime::no_instrument]] int ok1(void) { return 1; }
__attribute__((activetime_region("decode"))) int ok2(void) { return 2; }
[[activetime::region("decode")]] int ok2(void);
[[activetime::strides, activetime::instrument]] int ok3(void) { return 3; }
#pragma activetime instrument(off)
int ok4(void) { return 4; }
#pragma activetime instrument(on)
