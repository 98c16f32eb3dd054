"""Write a seccomp filter (classic BPF) that stops a sandboxed command from making user namespaces.

Used by docker/bwrap-in-container: inside a container /proc/sys is read-only, so bubblewrap's
``--disable-userns`` cannot work there; this filter, loaded by bubblewrap with
``--add-seccomp-fd`` just before it starts the command, gives the same guarantee. It answers
EPERM to clone()/unshare() with CLONE_NEWUSER and ENOSYS to clone3() (whose flags a filter cannot
read; C libraries then fall back to clone()), and refuses other ABIs (x32, i386) outright.

Usage: python3 no_userns_filter.py OUT_FILE  (the architecture is the one running the script)
"""

from __future__ import annotations

import platform
import struct
import sys

CLONE_NEWUSER = 0x10000000
EPERM, ENOSYS = 1, 38

# BPF instruction classes and fields (linux/filter.h, linux/seccomp.h)
LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RET_K = 0x06  # BPF_RET | BPF_K
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
OFF_NR, OFF_ARCH, OFF_ARG0 = 0, 4, 16  # struct seccomp_data; arg0's low 32 bits (little endian)

# arch -> (AUDIT_ARCH value, clone, unshare, clone3, lowest number of a foreign ABI or None)
ARCHES = {
    "x86_64": (0xC000003E, 56, 272, 435, 0x40000000),  # x32 numbers have bit 30 set
    "aarch64": (0xC00000B7, 220, 97, 435, None),
}


def program(arch: str) -> list[tuple[int, int, int, int]]:
    audit_arch, nr_clone, nr_unshare, nr_clone3, foreign = ARCHES[arch]
    p: list[tuple[int, int, int, int]] = []

    def ins(code: int, k: int, jt: int = 0, jf: int = 0) -> None:
        p.append((code, jt, jf, k))

    ins(LD_W_ABS, OFF_ARCH)
    ins(JEQ_K, audit_arch, 1, 0)          # native ABI: go on
    ins(RET_K, RET_ERRNO | EPERM)          # any other ABI: refused
    ins(LD_W_ABS, OFF_NR)
    if foreign is not None:
        ins(JGE_K, foreign, 0, 1)
        ins(RET_K, RET_ERRNO | EPERM)
    ins(JEQ_K, nr_clone3, 0, 1)
    ins(RET_K, RET_ERRNO | ENOSYS)
    ins(JEQ_K, nr_clone, 1, 0)
    ins(JEQ_K, nr_unshare, 0, 3)
    ins(LD_W_ABS, OFF_ARG0)
    ins(JSET_K, CLONE_NEWUSER, 0, 1)
    ins(RET_K, RET_ERRNO | EPERM)
    ins(RET_K, RET_ALLOW)
    return p


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    arch = platform.machine()
    if arch not in ARCHES:
        print(f"no filter for architecture {arch}", file=sys.stderr)
        return 1
    with open(argv[1], "wb") as out:
        for code, jt, jf, k in program(arch):
            out.write(struct.pack("=HBBI", code, jt, jf, k))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
