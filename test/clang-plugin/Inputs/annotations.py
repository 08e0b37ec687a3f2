#!/usr/bin/env python3
# Reads textual IR on stdin and prints one line per @llvm.global.annotations
# entry, "ANNOTATION <function> <string>", sorted, so tests do not depend on
# the order in which CodeGen emits definitions. Prints "NO ANNOTATIONS" when
# the module has none.
import re
import sys

strings = {}
entries = []
string_re = re.compile(r'^(@[^ ]+) = .*constant \[\d+ x i8\] c"(.*)\\00"')
entry_re = re.compile(r'\{ ptr (@"[^"]+"|@[^ ,]+), ptr (@[^ ,]+), ptr [^,]+, i32 \d+, ptr [^}]+\}')
for line in sys.stdin:
    m = string_re.match(line)
    if m:
        strings[m.group(1)] = m.group(2)
    elif line.startswith("@llvm.global.annotations"):
        entries = entry_re.findall(line)
if not entries:
    print("NO ANNOTATIONS")
for fn, s in sorted((fn, strings.get(s, s)) for fn, s in entries):
    print("ANNOTATION %s %s" % (fn, s))
