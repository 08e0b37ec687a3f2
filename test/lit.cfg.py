# lit configuration for ActiveTime: pass IR tests, tool tests and end-to-end
# tests that compile programs with the plugin, run them and check the report.
import os
import platform

import lit.formats
import lit.util

config.name = "ActiveTime"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
# integration/: its own ctest stage (test/integration/run.py); browser/: a
# ctest test of its own (headless Chromium); tools/: helper programs the
# tests run. None holds lit tests.
config.excludes = ["Inputs", "browser", "integration", "tools", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.activetime_obj_root, "test")

# LLVM's test tools (FileCheck, not, count) and our binaries first on PATH.
path = os.path.pathsep.join([config.bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
# Tests set their own runtime options; never inherit the caller's.
for var in ("ACTIVETIME_OPTIONS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY", "OMP_TOOL",
            "OMP_TOOL_LIBRARIES", "OMP_SCHEDULE", "KMP_BLOCKTIME"):
    config.environment.pop(var, None)

# lit substitutes in list order: a name that is a prefix of another comes after it.
# `opt` with the plugin loaded, running only our pass.
config.substitutions.append(("%opt_at", "%s -load-pass-plugin=%s" % (config.opt, config.pass_plugin)))
config.substitutions.append(("%clang_plugin", config.clang_plugin))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%opt", config.opt))
config.substitutions.append(("%pass_plugin", config.pass_plugin))
config.substitutions.append(("%rt_static", config.runtime_static))
config.substitutions.append(("%rt_shared", config.runtime_shared))
# Compile + instrument + link with the runtime, through the user-facing wrappers.
# A sanitizer build (-DACTIVETIME_SANITIZE=...) compiles every test program
# with the sanitizers too; the runtime links next to them.
san_flags = ""
if getattr(config, "sanitize", ""):
    san_flags = " -fsanitize=%s -fno-omit-frame-pointer" % config.sanitize.replace(";", ",")
    config.available_features.add("sanitizer")
    # Leaks: test programs exit with live allocations by design.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    config.environment["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1"
    if "thread" in config.sanitize.split(";"):
        config.available_features.add("tsan")
# lit --param at_flags='-mllvm -activetime-sample-poll': every program of
# the suite built with an option of the pass's.
at_flags = lit_config.params.get("at_flags", "")
at_flags = " " + at_flags if at_flags else ""
config.substitutions.append(("%at_cxx", os.path.join(config.bin_dir, "activetime-clang++") + san_flags + at_flags))
config.substitutions.append(("%at_cc", os.path.join(config.bin_dir, "activetime-clang") + san_flags + at_flags))
# The sanitizer flags alone, for a plain clang compile that must build the
# same code as %at_cc did (a profile's discriminators depend on them).
config.substitutions.append(("%san_flags", san_flags))
config.substitutions.append(("%activetime", os.path.join(config.bin_dir, "activetime")))
# test/tools/raw-flips: every single-byte flip of a raw profile through the reader.
config.substitutions.append(("%raw_flips", os.path.join(config.test_tools_dir, "raw-flips")))

# JSON Schema checks run on Debian's python3 with python3-jsonschema
# (scripts/install-deps.sh), whatever python runs lit.
config.substitutions.append(("%validate", "/usr/bin/python3 %s" % os.path.join(
    config.activetime_src_root, "test", "Inputs", "validate.py")))
config.substitutions.append(("%speedscope_schema", config.speedscope_schema))
config.substitutions.append(("%export_schema", os.path.join(
    config.activetime_src_root, "docs", "activetime-export.schema.json")))

# pprof exports: protoc decodes them against the packaged profile.proto and
# generates the Python classes test/Inputs/pprof_check.py reads them with
# (Debian's python3 with python3-protobuf).
config.substitutions.append(("%pprof_decode", "%s --decode=perftools.profiles.Profile --proto_path=%s profile.proto" % (
    config.protoc, config.pprof_proto_dir)))
config.substitutions.append(("%pprof_pb2", "%s --python_out" % config.protoc))
config.substitutions.append(("%pprof_proto", "--proto_path=%s profile.proto" % config.pprof_proto_dir))
config.substitutions.append(("%pprof_check", "/usr/bin/python3 %s" % os.path.join(
    config.activetime_src_root, "test", "Inputs", "pprof_check.py")))

config.available_features.add(platform.machine())
# "llvm19" / "llvm22" and %llvm_major: for the few expectations that differ
# between versions.
config.available_features.add("llvm" + config.llvm_major)
config.substitutions.append(("%llvm_major", config.llvm_major))
if config.openmp_include_dir:
    # Without libomp-N-dev (it conflicts with libomp-19-dev) clang-N finds
    # omp.h through CPATH and links Debian's one libomp.so (libomp5-19).
    config.environment["CPATH"] = config.openmp_include_dir
    config.environment["LIBRARY_PATH"] = "/usr/lib/llvm-19/lib"
if config.shared_runtime_built:
    config.available_features.add("shared-runtime")
