/*===- activetime/activetime.h - ActiveTime public API -----------*- C -*-===*\
|*                                                                            *|
|* Part of ActiveTime. The program's side of the profiler: named regions,    *|
|* flushing the profile, switching collection off and on. C and C++.         *|
|*                                                                            *|
|* Works without the runtime: every runtime entry point is declared weak, so *|
|* a program compiled without ActiveTime links and runs, the calls do        *|
|* nothing and activetime_present() returns 0.                               *|
|*                                                                            *|
|* A region is reported like a function: active time, call tree, samples.    *|
|* Its name is process-wide (the same name anywhere is one entry of the      *|
|* report, and shares the namespace of function linkage names). In C:        *|
|*                                                                            *|
|*   ACTIVETIME_REGION_BEGIN("decode");                                       *|
|*   ...                                                                      *|
|*   ACTIVETIME_REGION_END("decode");                                         *|
|*                                                                            *|
|* In C++, for the rest of the enclosing scope:                              *|
|*                                                                            *|
|*   ACTIVETIME_REGION("decode");                                             *|
|*                                                                            *|
|* Each macro interns its name once per call site and keeps the handle in a  *|
|* static, so the hot path is one probe call, like a function's entry/exit.  *|
|* Regions nest with each other and with functions; one left open when its   *|
|* function returns is closed then (counted as unwound), and an end with no  *|
|* open region of that name is counted as an unmatched exit and ignored.     *|
|* See docs/user-guide.md, "Regions and the run-time API".                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ACTIVETIME_ACTIVETIME_H
#define ACTIVETIME_ACTIVETIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* A region's handle: the runtime's descriptor of the name. Null without the
 * runtime (then begin/end do nothing). */
typedef const struct activetime_region_desc *activetime_region_t;

#if defined(__GNUC__) || defined(__clang__)
#define ACTIVETIME_WEAK_ __attribute__((weak))
/* The helpers run inside the caller: no call, and no function probe of
 * their own (the pass skips no_instrument_function through the plugin). */
#define ACTIVETIME_INLINE_                                                     \
  static inline __attribute__((always_inline, no_instrument_function, unused))
#else
#error "activetime.h needs weak symbols (GCC or Clang)"
#endif

/* Runtime entry points (include/activetime/abi.h). Weak: null when the
 * program is linked without the runtime. */
ACTIVETIME_WEAK_ extern activetime_region_t
__activetime_region_intern(const char *name, const char *file, unsigned line);
ACTIVETIME_WEAK_ extern void __activetime_region_begin(activetime_region_t r);
ACTIVETIME_WEAK_ extern void __activetime_region_end(activetime_region_t r);
ACTIVETIME_WEAK_ extern int __activetime_write_profile(void);
ACTIVETIME_WEAK_ extern int __activetime_set_enabled(int on);
ACTIVETIME_WEAK_ extern int __activetime_enabled(void);

/* 1 if the ActiveTime runtime is linked into the program, else 0. */
ACTIVETIME_INLINE_ int activetime_present(void) {
  return __activetime_region_begin != 0;
}

/* The handle of the region called `name` (interned on first use; takes a
 * lock). Null without the runtime or when the runtime's table of distinct
 * names (4096) is full. `file`/`line` (may be null/0) are shown in the report
 * for the first call of a name. */
ACTIVETIME_INLINE_ activetime_region_t
activetime_region_get(const char *name, const char *file, unsigned line) {
  return __activetime_region_intern ? __activetime_region_intern(name, file, line)
                                    : (activetime_region_t)0;
}

/* Opens / closes region r on the calling thread. */
ACTIVETIME_INLINE_ void activetime_region_begin(activetime_region_t r) {
  if (r)
    __activetime_region_begin(r);
}
ACTIVETIME_INLINE_ void activetime_region_end(activetime_region_t r) {
  if (r)
    __activetime_region_end(r);
}

/* Writes the profile now, as at exit (frames still open are included as
 * running). The exit-time write replaces the file. 0 on success, -1 on
 * failure or without the runtime. */
ACTIVETIME_INLINE_ int activetime_flush(void) {
  return __activetime_write_profile ? __activetime_write_profile() : -1;
}

/* Switches collection on (nonzero) or off (0) for the whole process and
 * returns the previous state (1 on, 0 off; -1 without the runtime). While
 * off, function entries and region begins record nothing (the time stays in
 * the enclosing open frames); exits still close frames opened before. */
ACTIVETIME_INLINE_ int activetime_set_enabled(int on) {
  return __activetime_set_enabled ? __activetime_set_enabled(on) : -1;
}
/* 1 if collecting, 0 if switched off, -1 without the runtime. */
ACTIVETIME_INLINE_ int activetime_enabled(void) {
  return __activetime_enabled ? __activetime_enabled() : -1;
}

/* The handle of `name` cached in the static `slot`. Relaxed atomics: two
 * threads racing on first use intern the same name and store the same
 * handle. Without the runtime the slot stays null and is retried (a test of
 * a null weak address). */
ACTIVETIME_INLINE_ activetime_region_t
activetime_region_cached_(activetime_region_t *slot, const char *name,
                          const char *file, unsigned line) {
  activetime_region_t r = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (__builtin_expect(r == 0, 0)) {
    r = activetime_region_get(name, file, line);
    __atomic_store_n(slot, r, __ATOMIC_RELAXED);
  }
  return r;
}

#define ACTIVETIME_REGION_BEGIN(name)                                          \
  do {                                                                         \
    static activetime_region_t activetime_slot_;                              \
    activetime_region_begin(activetime_region_cached_(                         \
        &activetime_slot_, (name), __FILE__, __LINE__));                       \
  } while (0)

#define ACTIVETIME_REGION_END(name)                                            \
  do {                                                                         \
    static activetime_region_t activetime_slot_;                              \
    activetime_region_end(activetime_region_cached_(                           \
        &activetime_slot_, (name), __FILE__, __LINE__));                       \
  } while (0)

#ifdef __cplusplus
} /* extern "C" */

namespace activetime {

/* Begins a region on construction and ends it on destruction (also when an
 * exception leaves the scope). */
class ScopedRegion {
public:
  __attribute__((always_inline, no_instrument_function)) explicit ScopedRegion(
      activetime_region_t R)
      : R(R) {
    activetime_region_begin(R);
  }
  __attribute__((always_inline, no_instrument_function)) ~ScopedRegion() {
    activetime_region_end(R);
  }
  ScopedRegion(const ScopedRegion &) = delete;
  ScopedRegion &operator=(const ScopedRegion &) = delete;

private:
  activetime_region_t R;
};

} // namespace activetime

#define ACTIVETIME_CAT2_(A, B) A##B
#define ACTIVETIME_CAT_(A, B) ACTIVETIME_CAT2_(A, B)
#define ACTIVETIME_REGION_AT_(name, N)                                         \
  static activetime_region_t ACTIVETIME_CAT_(activetime_slot_, N);            \
  ::activetime::ScopedRegion ACTIVETIME_CAT_(activetime_scope_, N)(            \
      activetime_region_cached_(&ACTIVETIME_CAT_(activetime_slot_, N), (name), \
                                __FILE__, __LINE__))
#define ACTIVETIME_REGION(name) ACTIVETIME_REGION_AT_(name, __COUNTER__)

#endif /* __cplusplus */

#endif /* ACTIVETIME_ACTIVETIME_H */
