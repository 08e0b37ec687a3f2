"""ELF facts the integration test and the truth benchmark (bench/truth) both
need about a built program."""
import struct


def load_base(exe):
    """The lowest PT_LOAD address, page-aligned (0 for PIE): nm's addresses
    less this are offsets from the object's load address (dladdr's
    dli_fbase, or what count_hooks.c writes)."""
    with open(exe, "rb") as f:
        hdr = f.read(64)
        phoff, = struct.unpack_from("<Q", hdr, 32)
        phentsize, phnum = struct.unpack_from("<HH", hdr, 54)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    vaddrs = [struct.unpack_from("<Q", ph, i * phentsize + 16)[0]
              for i in range(phnum)
              if struct.unpack_from("<I", ph, i * phentsize)[0] == 1]
    return min(vaddrs) & ~0xfff if vaddrs else 0
