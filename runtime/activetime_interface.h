//===- activetime_interface.h - ActiveTime runtime entry points -*- C++ -*-===//
//
// Part of ActiveTime. The extern "C" functions the instrumented program calls
// (see include/activetime/abi.h). They are the only global symbols of the
// shipped runtime (libactivetime_rt.a / .so): everything else is localized.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_INTERFACE_H
#define ACTIVETIME_INTERFACE_H

#include "activetime/abi.h"
#include "sanitizer_common/sanitizer_internal_defs.h"

extern "C" {
// Hot path: called at every instrumented function entry / exit.
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_func_enter(const activetime::abi::FuncDesc *Fn, void *Frame);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_func_exit(const activetime::abi::FuncDesc *Fn, void *Frame);
// The sample poll's slow path (abi.h): the thread's code-sample ring moved.
SANITIZER_INTERFACE_ATTRIBUTE __attribute__((preserve_most)) void
__activetime_sample_poll();

// Called when a site's thread-local countdown reached zero (see abi.h).
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_mem_access(const activetime::abi::ModuleDesc *M,
                        __sanitizer::u32 Site, void *Addr,
                        __sanitizer::s32 *Countdown);

// Called from each instrumented module's constructor / destructor.
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_register_module(activetime::abi::ModuleDesc *M);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_unregister_module(activetime::abi::ModuleDesc *M);

// Empty; referenced by module constructors so a pass/runtime ABI mismatch is
// a link error ("undefined reference to __activetime_version_mismatch_check_vN").
SANITIZER_INTERFACE_ATTRIBUTE void ACTIVETIME_CONCAT(
    __activetime_version_mismatch_check_v, ACTIVETIME_ABI_VERSION)(void);

// Block counts (activetime_blockcounts.cpp).
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_register_block_counts(activetime::abi::BlockCountsDesc *D);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_unregister_block_counts(activetime::abi::BlockCountsDesc *D);
SANITIZER_INTERFACE_ATTRIBUTE __sanitizer::s64
__activetime_block_thread(activetime::abi::BlockCountsDesc *D);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_value_profile(__sanitizer::u64 Value, void *Data,
                           __sanitizer::u32 Site);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_memop_profile(__sanitizer::u64 Size, void *Data,
                           __sanitizer::u32 Site);



// Regions of the public API (include/activetime/activetime.h; see abi.h).
// Interning takes a lock (once per call site: the header caches the result);
// begin/end are probes like the function probes.
SANITIZER_INTERFACE_ATTRIBUTE const activetime::abi::FuncDesc *
__activetime_region_intern(const char *Name, const char *File,
                           __sanitizer::u32 Line);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_region_begin(const activetime::abi::FuncDesc *R);
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_region_end(const activetime::abi::FuncDesc *R);

// The optional MPI part (runtime/mpi/, activetime_mpi.h): its module of
// the MPI routines' wrappers and their message byte counters (constructor),
// and MPI_COMM_WORLD's rank and size (after MPI_Init).
SANITIZER_INTERFACE_ATTRIBUTE void
__activetime_mpi_attach(activetime::abi::ModuleDesc *M,
                        const __sanitizer::u64 *Bytes);
SANITIZER_INTERFACE_ATTRIBUTE void __activetime_mpi_rank(int Rank, int Size);
// At MPI_Finalize (activetime_mpi_reduce.cpp, abi.h): whether the flags ask
// for the job's profiles to be reduced into one; the reduction itself over
// the part's transport (0: this rank's profile went into the job's, which
// rank 0 writes; it writes nothing at exit).
SANITIZER_INTERFACE_ATTRIBUTE int __activetime_mpi_reduce_wanted(void);
SANITIZER_INTERFACE_ATTRIBUTE int
__activetime_mpi_reduce(__sanitizer::u32 Rank, __sanitizer::u32 Size,
                        int Contribute,
                        const activetime::abi::MpiTransport *T);

// Collection switch: while off, entry probes (and region begins) record
// nothing; exits still close frames opened before. Returns the previous
// state (1 on, 0 off).
SANITIZER_INTERFACE_ATTRIBUTE int __activetime_set_enabled(int On);
SANITIZER_INTERFACE_ATTRIBUTE int __activetime_enabled(void);

// Writes the profile now (as at exit) and returns 0 on success. Also useful
// for programs that leave through _exit. The exit-time write still happens.
SANITIZER_INTERFACE_ATTRIBUTE int __activetime_write_profile(void);
} // extern "C"

#endif // ACTIVETIME_INTERFACE_H
