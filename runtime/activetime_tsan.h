//===- activetime_tsan.h - ThreadSanitizer annotations ----------*- C++ -*-===//
//
// The runtime is TSan-instrumented in the -DACTIVETIME_SANITIZE=thread build.
// A few reads are racy by design and validated afterwards (the sampler's
// seqlock reads of another thread's shadow stack) or are documented
// best-effort snapshots (the exit-time writer reading threads that are still
// running). They are wrapped in these macros, which tell TSan to ignore the
// reads of the calling thread in between; everything else stays checked.
// One write is racy by design too: the drainer's store to the word a
// thread's probes poll in place of a ring's head (ThreadState::LateReady),
// read as the kernel's ring heads are, with plain loads.
// The loader's lock, which serializes the runtime's dl_iterate_phdr
// callbacks (the unwinder's object cache lives under it), is taken inside
// glibc where TSan cannot see it: its critical sections are annotated. In
// every other build the macros are empty.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TSAN_H
#define ACTIVETIME_TSAN_H

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ACTIVETIME_TSAN 1
#endif
#endif

#if ACTIVETIME_TSAN
// Defined by the TSan runtime (tsan_interface_ann.cpp).
extern "C" void AnnotateIgnoreReadsBegin(const char *File, int Line);
extern "C" void AnnotateIgnoreReadsEnd(const char *File, int Line);
extern "C" void AnnotateIgnoreWritesBegin(const char *File, int Line);
extern "C" void AnnotateIgnoreWritesEnd(const char *File, int Line);
// Declared as llvm/Support/Compiler.h declares them (a unit test includes
// both): the runtime takes the address as a uptr.
extern "C" void AnnotateHappensBefore(const char *File, int Line,
                                      const volatile void *Addr);
extern "C" void AnnotateHappensAfter(const char *File, int Line,
                                     const volatile void *Addr);
#define AT_TSAN_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define AT_TSAN_IGNORE_READS_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#define AT_TSAN_IGNORE_WRITES_BEGIN()                                          \
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define AT_TSAN_IGNORE_WRITES_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)
// A lock TSan cannot see (glibc's loader lock, taken inside libc): entering
// its critical section happens after the previous one left it.
#define AT_TSAN_LOCK_ENTERED(Addr)                                             \
  AnnotateHappensAfter(__FILE__, __LINE__, (const volatile void *)(Addr))
#define AT_TSAN_LOCK_LEAVING(Addr)                                             \
  AnnotateHappensBefore(__FILE__, __LINE__, (const volatile void *)(Addr))
#else
#define AT_TSAN_IGNORE_READS_BEGIN() ((void)0)
#define AT_TSAN_IGNORE_READS_END() ((void)0)
#define AT_TSAN_IGNORE_WRITES_BEGIN() ((void)0)
#define AT_TSAN_IGNORE_WRITES_END() ((void)0)
#define AT_TSAN_LOCK_ENTERED(Addr) ((void)0)
#define AT_TSAN_LOCK_LEAVING(Addr) ((void)0)
#endif

#endif // ACTIVETIME_TSAN_H
