#!/usr/bin/env python3
"""The raw profile's byte layout, read from include/activetime/RawData.inc.

RawData.inc is the one spelling of the raw format's records (the C++
structs of raw_format.h are expanded from it). This module parses its macro
lists at run time so that Python code that writes or documents raw
profiles takes the layout from there instead of spelling it again:

  layout = rawlayout.load()
  layout.size("ThreadRecord")                    # 152
  layout.offset("FileHeader", "NumSections")     # 24
  layout.kind("Thread")                          # raw::SK_Thread
  layout.pack("CountRecord", Func=3, Calls=7)    # fields not named are 0
  layout.unpack("NodeRecord", data, off)         # {"Parent": ..., ...}

It also generates the record tables of docs/raw-format.md:

  rawlayout.py --check-doc docs/raw-format.md    # exit 1 if they differ
  rawlayout.py --update-doc docs/raw-format.md   # rewrite them
"""

import argparse
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.join(HERE, "..", "..", "include", "activetime")
RAW_DATA_INC = os.path.join(INCLUDE, "RawData.inc")
RAW_FORMAT_H = os.path.join(INCLUDE, "raw_format.h")

# The field types the records use, as struct format characters.
SCALARS = {"uint32_t": "I", "uint64_t": "Q", "int64_t": "q", "int32_t": "i",
           "char": "s"}

TOKEN = re.compile(r'''
    (?P<comment>//[^\n]*)
  | (?P<directive>^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<word>[A-Za-z_]\w*)
  | (?P<number>\d\w*)
  | (?P<space>\s+)
  | (?P<punct>.)
''', re.M | re.X)


def _unquote(s):
    return bytes(s[1:-1], "utf-8").decode("unicode_escape")


def _invocations(text):
    """(macro, [argument text]) of every macro invocation outside the
    preprocessor directives; string literals of an argument are joined."""
    toks = []
    for m in TOKEN.finditer(text):
        if m.lastgroup in ("comment", "directive", "space"):
            continue
        toks.append((m.lastgroup, m.group()))
    out, i = [], 0
    while i < len(toks):
        kind, val = toks[i]
        if kind != "word" or i + 1 == len(toks) or toks[i + 1][1] != "(":
            raise ValueError("RawData.inc: unexpected %r" % val)
        args, cur, depth, i = [], [], 0, i + 2
        while True:
            k, v = toks[i]
            i += 1
            if v == "(":
                depth += 1
            elif v == ")" and depth:
                depth -= 1
            elif v == ")":
                args.append(cur)
                break
            elif v == "," and not depth:
                args.append(cur)
                cur = []
                continue
            cur.append((k, v))
        texts = []
        for a in args:
            if a and all(k == "string" for k, _ in a):
                texts.append("".join(_unquote(v) for _, v in a))
            else:
                texts.append("".join(v for _, v in a))
        out.append((val, texts))
    return out


def _macro_of(record):
    """AT_RAW_<RECORD>: ThreadRecord -> AT_RAW_THREAD_RECORD."""
    return "AT_RAW_" + re.sub(r"(?<!^)(?=[A-Z])", "_", record).upper()


class Field:
    def __init__(self, name, type_, dims, doc):
        self.name, self.type, self.dims, self.doc = name, type_, dims, doc
        self.offset = 0
        self.size = 0
        self.record = None  # the nested Record, for a record-typed field

    def count(self):
        n = 1
        for d in self.dims:
            n *= d
        return n

    def ctype(self):
        return self.type + "".join("[%d]" % d for d in self.dims)


class Record:
    def __init__(self, name, size, doc):
        self.name, self.size, self.doc = name, size, doc
        self.fields = []
        self.by_name = {}
        self.fmt = ""  # the flattened struct format, nested records inlined

    def field(self, name):
        try:
            return self.by_name[name]
        except KeyError:
            raise KeyError("%s has no field %s" % (self.name, name))


class Layout:
    def __init__(self, records, sections, constants):
        self.records = records        # name -> Record, in list order
        self.sections = sections      # [(name, kind, order, label)]
        self.constants = constants    # raw_format.h's integer constants
        self.version = constants["kVersion"]
        self._structs = {n: struct.Struct("<" + r.fmt)
                         for n, r in records.items()}

    def record(self, name):
        return self.records[name]

    def size(self, record):
        return self.records[record].size

    def offset(self, record, field):
        return self.records[record].field(field).offset

    def kind(self, section):
        for name, kind, _, _ in self.sections:
            if name == section:
                return kind
        raise KeyError("no section kind %s" % section)

    def _values(self, rec, values):
        out = []
        values = dict(values)
        for f in rec.fields:
            v = values.pop(f.name, None)
            if f.record:
                if isinstance(v, (bytes, bytearray)):
                    out += self._structs[f.type].unpack(v)
                else:
                    out += self._values(f.record, v or {})
            elif f.type == "char":
                out.append(v or b"")
            elif f.dims:
                flat = list(_flatten(v)) if v is not None else []
                out += flat + [0] * (f.count() - len(flat))
            else:
                out.append(v or 0)
        if values:
            raise KeyError("%s has no field %s" %
                           (rec.name, ", ".join(sorted(values))))
        return out

    def pack(self, record, **values):
        """The record's bytes; a field not named is 0 (a nested record takes
        a dict or its bytes, a char array bytes, NUL-padded or cut)."""
        rec = self.records[record]
        return self._structs[record].pack(*self._values(rec, values))

    def unpack(self, record, data, offset=0):
        vals = iter(self._structs[record].unpack_from(data, offset))
        return self._take(self.records[record], vals)

    def _take(self, rec, vals):
        out = {}
        for f in rec.fields:
            if f.record:
                out[f.name] = self._take(f.record, vals)
            elif f.type == "char" or not f.dims:
                out[f.name] = next(vals)
            else:
                flat = [next(vals) for _ in range(f.count())]
                out[f.name] = _shape(flat, f.dims)
        return out

    def put(self, data, record, field, base, value):
        """Stores one scalar field of the record at file offset base."""
        f = self.records[record].field(field)
        struct.pack_into("<" + SCALARS[f.type], data, base + f.offset, value)

    def get(self, data, record, field, base):
        f = self.records[record].field(field)
        return struct.unpack_from("<" + SCALARS[f.type], data,
                                  base + f.offset)[0]


def _flatten(v):
    for x in v:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x


def _shape(flat, dims):
    if len(dims) == 1:
        return flat
    step = len(flat) // dims[0]
    return [_shape(flat[i * step:(i + 1) * step], dims[1:])
            for i in range(dims[0])]


def _constants(header):
    consts = {}
    for m in re.finditer(r"constexpr\s+u?int(?:32|64)_t\s+(k\w+)\s*=\s*"
                         r"(0x[0-9a-fA-F]+|\d+)u?\s*;", header):
        consts[m.group(1)] = int(m.group(2), 0)
    return consts


def load(inc=RAW_DATA_INC, header=RAW_FORMAT_H):
    with open(inc) as f:
        calls = _invocations(f.read())
    with open(header) as f:
        constants = _constants(f.read())
    records, sections, lists = {}, [], {}
    current = None  # the record between AT_RAW_BEGIN and AT_RAW_END
    for macro, args in calls:
        if macro == "AT_RAW_SECTION":
            name, kind, order, label = args
            sections.append((name, int(kind, 0), int(order, 0), label))
        elif macro == "AT_RAW_RECORD":
            name, size, doc = args
            records[name] = Record(name, int(size, 0), doc)
        elif macro in ("AT_RAW_BEGIN", "AT_RAW_END"):
            open_ = macro == "AT_RAW_BEGIN"
            if (current is None) != open_ or (not open_ and args[0] != current):
                raise ValueError("RawData.inc: unmatched %s(%s)" %
                                 (macro, args[0]))
            current = args[0] if open_ else None
        else:
            if current is None or macro != _macro_of(current):
                raise ValueError("RawData.inc: %s outside AT_RAW_BEGIN(%s)" %
                                 (macro, _macro_of(current or "?")))
            type_, name, dims, doc = args
            ds = []
            for d in re.findall(r"\[(\w+)\]", dims):
                ds.append(int(d, 0) if d[0].isdigit() else constants[d])
            lists.setdefault(macro, []).append(Field(name, type_, ds, doc))
    for rec in records.values():
        fields = lists.pop(_macro_of(rec.name), None)
        if not fields:
            raise ValueError("RawData.inc: %s has no field list %s" %
                             (rec.name, _macro_of(rec.name)))
        off = 0
        for f in fields:
            if f.type in SCALARS:
                char = SCALARS[f.type]
                if f.type == "char":
                    rec.fmt += "%ds" % f.count()
                else:
                    rec.fmt += char * f.count()
                f.size = struct.calcsize("<" + char) * f.count()
            elif f.type in records and records[f.type].fmt:
                f.record = records[f.type]
                rec.fmt += f.record.fmt
                f.size = f.record.size * f.count()
            else:
                raise ValueError("RawData.inc: %s::%s: unknown type %s (a "
                                 "nested record comes before its user)" %
                                 (rec.name, f.name, f.type))
            f.offset = off
            off += f.size
            rec.fields.append(f)
            rec.by_name[f.name] = f
        if off != rec.size or struct.calcsize("<" + rec.fmt) != rec.size:
            raise ValueError("RawData.inc: the fields of %s add up to %d "
                             "bytes, AT_RAW_RECORD says %d" %
                             (rec.name, off, rec.size))
    if lists:
        raise ValueError("RawData.inc: field lists of no record: %s" %
                         ", ".join(sorted(lists)))
    return Layout(records, sections, constants)


# ---- docs/raw-format.md ------------------------------------------------

BEGIN = re.compile(r"^<!-- rawlayout: (\w+) -->$")
END = "<!-- end rawlayout -->"


def _cell(s):
    return s.replace("|", "\\|")


def doc_block(layout, what):
    """The generated lines of one block: "sections" or a record's table."""
    if what == "sections":
        lines = ["| Kind | Name | Order in a block |", "|---:|---|---:|"]
        for name, kind, order, label in layout.sections:
            lines.append("| %d | `SK_%s` (%s) | %d |" % (kind, name, label,
                                                        order))
        return lines + [""]
    rec = layout.records[what]
    lines = ["`%s`, %d bytes: %s." % (rec.name, rec.size, rec.doc), "",
             "| Offset | Size | Field | Type | Meaning |",
             "|---:|---:|---|---|---|"]
    for f in rec.fields:
        lines.append("| %d | %d | `%s` | `%s` | %s |" % (
            f.offset, f.size, f.name, f.ctype(), _cell(f.doc)))
    return lines + [""]


def render_doc(layout, text):
    """text with every generated block replaced by what the layout gives;
    raises ValueError for a block of no record, or a record without one."""
    out, seen, lines, i = [], [], text.split("\n"), 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        what = m.group(1)
        if what != "sections" and what not in layout.records:
            raise ValueError("block of an unknown record: %s" % what)
        if what in seen:
            raise ValueError("two blocks of %s" % what)
        seen.append(what)
        while i < len(lines) and lines[i] != END:
            i += 1
        if i == len(lines):
            raise ValueError("block of %s has no end marker" % what)
        out += doc_block(layout, what)
    missing = [w for w in ["sections"] + list(layout.records) if w not in seen]
    if missing:
        raise ValueError("no block of %s" % ", ".join(missing))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check-doc", metavar="MD",
                   help="exit 1 if the document's generated tables differ "
                   "from RawData.inc")
    g.add_argument("--update-doc", metavar="MD",
                   help="rewrite the document's generated tables")
    g.add_argument("--dump", action="store_true",
                   help="print every record's fields and offsets")
    a = ap.parse_args()
    layout = load()
    if a.dump:
        for rec in layout.records.values():
            print("%s %d" % (rec.name, rec.size))
            for f in rec.fields:
                print("  %4d %4d %s %s" % (f.offset, f.size, f.ctype(),
                                           f.name))
        return 0
    path = a.check_doc or a.update_doc
    with open(path) as f:
        text = f.read()
    try:
        new = render_doc(layout, text)
    except ValueError as e:
        sys.exit("%s: %s" % (path, e))
    if a.update_doc:
        if new != text:
            with open(path, "w") as f:
                f.write(new)
        return 0
    if new != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), path,
            "from RawData.inc"))
        print("%s: the record tables differ from RawData.inc; run "
              "test/Inputs/rawlayout.py --update-doc %s" % (path, path))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
