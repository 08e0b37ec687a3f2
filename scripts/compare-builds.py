#!/usr/bin/env python3
"""Show that two ActiveTime builds behave the same (for refactorings).

  scripts/compare-builds.py snapshot OLD_BUILD SNAPSHOT_DIR RAW_DIR
  scripts/compare-builds.py compare  SNAPSHOT_DIR NEW_BUILD

'snapshot' copies the old build's tool, plugins and runtime and a corpus of
raw profiles (every *.raw under RAW_DIR, e.g. a build tree after ctest) into
SNAPSHOT_DIR. 'compare' runs both tools on that corpus (every report view,
every export format, merge -o, diff and active-time), compiles the lit
sources to IR with both pass plugins (-O0 and -O2), and disassembles the
runtime's probe entry points of both builds; it prints each difference and
exits 1 if there is one.
"""
import filecmp, os, re, shutil, subprocess, sys, tempfile

REPORT_VIEWS = [[], ['--threads', '--tree'], ['--full-names', '--top=0'],
                ['--json'], ['--samples'], ['--samples', '--json'],
                ['--latency'], ['--latency', '--json'], ['--callers'],
                ['--call-sites'], ['--bottom-up'], ['--header'],
                ['--strides'], ['--strides', '--json'], ['--parallel'],
                ['--parallel', '--json'], ['--no-demangle', '--sort=calls'],
                ['--html=@OUT@']]
EXPORTS = ['folded', 'json', 'chrome', 'speedscope', 'symbol-order', 'pprof',
           'prefetch']
PROBES = ['__activetime_func_enter', '__activetime_func_exit',
          '__activetime_mem_access']
SOURCES = ['test/e2e', 'test/link', 'test/stress']


def run(cmd, cwd=None):
    p = subprocess.run(cmd, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def tool_outputs(tool, raw, tmp):
    """(label, output) pairs of every command on one raw file."""
    out = []
    def one(label, args, out_file=None):
        if out_file and os.path.exists(out_file):
            os.unlink(out_file)
        rc, so, se = run([tool] + args)
        se = se.replace(tool.encode(), b'TOOL')
        body = b''
        if out_file and os.path.exists(out_file):
            with open(out_file, 'rb') as f:
                body = f.read().replace(out_file.encode(), b'OUT')
        out.append((label, (rc, so.replace(out_file.encode(), b'OUT')
                            if out_file else so, se, body)))
    o = os.path.join(tmp, 'out')
    for view in REPORT_VIEWS:
        args = [a.replace('@OUT@', o) for a in view]
        one('report ' + ' '.join(view), ['report', '--progress=never'] + args
            + [raw], o if '--html=@OUT@' in view else None)
    for fmt in EXPORTS:
        one('export ' + fmt, ['export', '--progress=never', '--format=' + fmt,
                              '-o', o, raw], o)
    one('export sample-profile', ['export', '--format=sample-profile',
                                  '--sample-profile-format=text', '-o', o,
                                  raw], o)
    one('merge', ['merge', '-o', o, raw, raw], o)
    one('active-time', ['active-time', raw])
    return out


def snapshot(old_build, snap, raw_dir):
    os.makedirs(os.path.join(snap, 'raw'), exist_ok=True)
    for rel in ['bin/activetime', 'lib/ActiveTime.so', 'lib/ActiveTimeClang.so',
                'lib/libactivetime_rt.a']:
        shutil.copy2(os.path.join(old_build, rel), snap)
    n = 0
    for root, _, files in sorted(os.walk(raw_dir)):
        for f in sorted(files):
            p = os.path.join(root, f)
            if f.endswith('.raw') and os.path.isfile(p) and \
                    0 < os.path.getsize(p) < 3 << 20:
                n += 1
                shutil.copy2(p, os.path.join(snap, 'raw', '%04d-%s' % (n, f)))
    print('snapshot: %d raw files' % n)


def compare_tools(snap, new_build, tmp):
    diffs = 0
    old_tool = os.path.join(snap, 'activetime')
    new_tool = os.path.join(new_build, 'bin/activetime')
    raws = sorted(os.listdir(os.path.join(snap, 'raw')))
    for i, name in enumerate(raws):
        raw = os.path.join(snap, 'raw', name)
        old = tool_outputs(old_tool, raw, tmp)
        new = dict(tool_outputs(new_tool, raw, tmp))
        for label, value in old:
            if new.get(label) != value:
                diffs += 1
                print('DIFF %s: %s' % (name, label))
        if i + 1 < len(raws):
            nxt = os.path.join(snap, 'raw', raws[i + 1])
            a = run([old_tool, 'diff', '--progress=never', raw, nxt])
            b = run([new_tool, 'diff', '--progress=never', raw, nxt])
            if a[0] != b[0] or a[1] != b[1]:
                diffs += 1
                print('DIFF diff %s %s' % (name, raws[i + 1]))
    print('tools: %d raw files, %d differences' % (len(raws), diffs))
    return diffs


def ir(plugin, src, opt):
    lang = 'c++' if src.endswith('.cpp') else 'c'
    clang = 'clang++-19' if lang == 'c++' else 'clang-19'
    rc, so, se = run([clang, '-x', lang, opt, '-g0', '-S', '-emit-llvm', '-o',
                      '-', '-fpass-plugin=' + plugin, '-I', 'include',
                      '-I', 'test/Inputs', src])
    return rc, re.sub(rb'^(; ModuleID|source_filename).*$', b'', so,
                      flags=re.M)


def compare_ir(snap, new_build):
    diffs = n = 0
    for d in SOURCES:
        for f in sorted(os.listdir(d)):
            if not f.endswith(('.c', '.cpp')):
                continue
            for opt in ['-O0', '-O2']:
                src = os.path.join(d, f)
                a = ir(os.path.join(snap, 'ActiveTime.so'), src, opt)
                b = ir(os.path.join(new_build, 'lib/ActiveTime.so'), src, opt)
                n += 1
                if a != b:
                    diffs += 1
                    print('DIFF IR %s %s' % (src, opt))
    print('IR: %d compilations, %d differences' % (n, diffs))
    return diffs


def disassemble(lib, fn):
    rc, so, _ = run(['objdump', '-d', '--no-show-raw-insn',
                     '--disassemble=' + fn, lib])
    lines = [l.split('\t', 1)[-1] for l in so.decode().splitlines()
             if re.match(r'\s+[0-9a-f]+:\t', l)]
    # Call and jump targets are addresses, and a RIP-relative operand's
    # displacement depends on where the linker put its target (the comment
    # names it): keep the symbol names only.
    lines = [re.sub(r'\b[0-9a-f]+ <', '<', l) for l in lines]
    return [re.sub(r'-?0x[0-9a-f]+\(%rip\)(?=.*#\s*<)', '(%rip)', l)
            for l in lines]


def compare_probes(snap, new_build):
    diffs = 0
    for fn in PROBES:
        if disassemble(os.path.join(snap, 'libactivetime_rt.a'), fn) != \
           disassemble(os.path.join(new_build, 'lib/libactivetime_rt.a'), fn):
            diffs += 1
            print('DIFF probe %s' % fn)
    print('probes: %d functions, %d differences' % (len(PROBES), diffs))
    return diffs


def main():
    if len(sys.argv) == 5 and sys.argv[1] == 'snapshot':
        snapshot(*sys.argv[2:])
        return 0
    if len(sys.argv) != 4 or sys.argv[1] != 'compare':
        sys.exit(__doc__)
    snap, new_build = map(os.path.abspath, sys.argv[2:])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    with tempfile.TemporaryDirectory() as tmp:
        d = compare_probes(snap, new_build) + compare_ir(snap, new_build) + \
            compare_tools(snap, new_build, tmp)
    return 1 if d else 0


if __name__ == '__main__':
    sys.exit(main())
