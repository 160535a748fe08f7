"""The executables the benchmark built, and their disassembly, for the tools
that say where the cost goes (countdown-cost.py, text-breakdown.py)."""

import json
import os
import re
import subprocess

FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")
INSTRUCTION = re.compile(r"\s+([0-9a-f]+):\s+(.*)$")


def built_binary(work, program, variant):
    """The executable of PROGRAM's VARIANT build in the bench tree WORK, or
    None when there is no such build."""
    try:
        with open(os.path.join(work, program, variant + ".json")) as f:
            return json.load(f)["binary"]
    except (OSError, ValueError, KeyError):
        return None


def instructions(binary, section=None):
    """(function, address, text) of each instruction of BINARY (of SECTION
    alone, if given), in order."""
    argv = ["objdump", "-d", "--no-show-raw-insn", binary]
    if section:
        argv[2:2] = ["-j", section]
    out = subprocess.run(argv, capture_output=True, text=True,
                         check=True).stdout
    function = None
    for line in out.splitlines():
        m = FUNCTION.match(line)
        if m:
            function = m.group(1)
            continue
        m = INSTRUCTION.match(line)
        if m and function is not None:
            yield function, int(m.group(1), 16), m.group(2).strip()


def is_slow_copy(function):
    """Whether FUNCTION names a slow copy: the part GCC moved to the cold
    section."""
    return ".cold" in function
