#===- ActiveTimeSanitizerCommon.cmake - sanitizer_common for the runtime ---===#
# Builds the part of compiler-rt's sanitizer_common the ActiveTime runtime
# uses (flags, internal allocator, atomics, mutexes, printing, raw syscalls)
# from the LLVM 19 compiler-rt source tree, with compiler-rt's own flags.
#
# Everything is compiled with -D__sanitizer=__activetime_sanitizer so the
# namespace (and thus every C++ symbol) differs from the copy inside the
# ASan/TSan/UBSan runtimes; the runtime CMakeLists additionally localizes every
# global symbol except __activetime_* in the shipped archive / shared object.
#
# Defines:
#   ACTIVETIME_RT_CFLAGS        compile options shared by runtime + sanitizer_common
#   ACTIVETIME_RT_DEFINITIONS   compile definitions shared by both
#   ACTIVETIME_RT_INCLUDE_DIRS  include directories (compiler-rt lib/ and include/)
#   activetime_sanitizer_common OBJECT library

set(_at_crt ${ACTIVETIME_COMPILER_RT_SOURCE_DIR})
set(_at_sc ${_at_crt}/lib/sanitizer_common)
if(NOT EXISTS ${_at_sc}/sanitizer_common.cpp)
  message(FATAL_ERROR "ActiveTime: ACTIVETIME_COMPILER_RT_SOURCE_DIR=${_at_crt} does not hold "
                      "compiler-rt 19 (lib/sanitizer_common/sanitizer_common.cpp missing). "
                      "Run scripts/install-deps.sh or point it at an LLVM 19 compiler-rt tree.")
endif()

# compiler-rt's SANITIZER_COMMON_CFLAGS + SANITIZER_CFLAGS for Linux/clang.
set(ACTIVETIME_RT_CFLAGS
  -fPIC
  -fno-builtin
  -fno-exceptions
  -fno-rtti
  -funwind-tables
  -fno-stack-protector
  -fno-sanitize=all
  -fno-sanitize=safe-stack
  -fvisibility=hidden
  -fvisibility-inlines-hidden
  -fno-lto
  -fno-profile-instr-generate
  -fno-coverage-mapping
  -fno-modules
  -fno-threadsafe-statics
  -nostdinc++
  -O2
  -Wno-format
  -Wno-gnu
  -Wno-variadic-macros
  -Wno-c99-extensions
  -Wno-unused-parameter
)
set(ACTIVETIME_RT_DEFINITIONS
  __sanitizer=__activetime_sanitizer
  HAVE_RPC_XDR_H=0
)
set(ACTIVETIME_RT_INCLUDE_DIRS ${_at_crt}/lib ${_at_crt}/include)

# Source groups, as in compiler-rt/lib/sanitizer_common/CMakeLists.txt
# (files for other operating systems compile to nothing on Linux, but are
# skipped here to save build time).
set(_at_sc_notermination
  sanitizer_allocator.cpp
  sanitizer_common.cpp
  sanitizer_deadlock_detector1.cpp
  sanitizer_deadlock_detector2.cpp
  sanitizer_errno.cpp
  sanitizer_file.cpp
  sanitizer_flags.cpp
  sanitizer_flag_parser.cpp
  sanitizer_libc.cpp
  sanitizer_libignore.cpp
  sanitizer_linux.cpp
  sanitizer_linux_s390.cpp
  sanitizer_mutex.cpp
  sanitizer_platform_limits_linux.cpp
  sanitizer_platform_limits_posix.cpp
  sanitizer_posix.cpp
  sanitizer_printf.cpp
  sanitizer_procmaps_common.cpp
  sanitizer_procmaps_linux.cpp
  sanitizer_range.cpp
  sanitizer_suppressions.cpp
  sanitizer_tls_get_addr.cpp
  sanitizer_thread_arg_retval.cpp
  sanitizer_thread_registry.cpp
  sanitizer_type_traits.cpp
)
set(_at_sc_termination sanitizer_termination.cpp)
set(_at_sc_libc
  sanitizer_common_libcdep.cpp
  sanitizer_allocator_checks.cpp
  sanitizer_dl.cpp
  sanitizer_linux_libcdep.cpp
  sanitizer_posix_libcdep.cpp
  sanitizer_stoptheworld_linux_libcdep.cpp
)
set(_at_sc_symbolizer
  sanitizer_allocator_report.cpp
  sanitizer_chained_origin_depot.cpp
  sanitizer_stack_store.cpp
  sanitizer_stackdepot.cpp
  sanitizer_stacktrace.cpp
  sanitizer_stacktrace_libcdep.cpp
  sanitizer_stacktrace_printer.cpp
  sanitizer_stacktrace_sparc.cpp
  sanitizer_symbolizer.cpp
  sanitizer_symbolizer_libbacktrace.cpp
  sanitizer_symbolizer_libcdep.cpp
  sanitizer_symbolizer_markup.cpp
  sanitizer_symbolizer_posix_libcdep.cpp
  sanitizer_symbolizer_report.cpp
  sanitizer_unwind_linux_libcdep.cpp
)

set(ACTIVETIME_SANITIZER_COMMON_SOURCES)
foreach(_f ${_at_sc_notermination} ${_at_sc_termination} ${_at_sc_libc} ${_at_sc_symbolizer})
  list(APPEND ACTIVETIME_SANITIZER_COMMON_SOURCES ${_at_sc}/${_f})
endforeach()

add_library(activetime_sanitizer_common OBJECT ${ACTIVETIME_SANITIZER_COMMON_SOURCES})
target_compile_options(activetime_sanitizer_common PRIVATE ${ACTIVETIME_RT_CFLAGS})
target_compile_definitions(activetime_sanitizer_common PRIVATE ${ACTIVETIME_RT_DEFINITIONS})
target_include_directories(activetime_sanitizer_common PRIVATE ${ACTIVETIME_RT_INCLUDE_DIRS})
set_target_properties(activetime_sanitizer_common PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_STANDARD 17
  CXX_EXTENSIONS OFF)
