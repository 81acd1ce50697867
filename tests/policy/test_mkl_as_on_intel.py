"""scripts/mkl_as_on_intel.sh: oneMKL takes the code path it takes on an Intel CPU, on any x86 CPU.

The study's painters are rebuilt on other machines only if MKL sums as it did where they were
first built (Intel Xeons). MKL reports the branch it chose: `MKL_CBWR_COMPATIBLE` (2) is its
generic path, which it takes on AMD CPUs; an instruction-set branch (AVX2 10, AVX-512 12,
AVX-512 E1 14, ...) is what it takes on an Intel CPU with those instructions. torch's library
exports only the service form of MKL's `mkl_cbwr_get_auto_branch`, so that is what the probe
calls.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPATIBLE = 2

PROBE = """
import ctypes
from pathlib import Path
import torch
mkl = ctypes.CDLL(str(Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"))
print(mkl.mkl_serv_cbwr_get_auto_branch())
"""


def _branch(*wrapper: str) -> int:
    command = [*wrapper, sys.executable, "-c", PROBE]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def _vendor() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("vendor_id"):
            return line.split(":")[1].strip()
    return ""


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="reads the CPU's vendor from /proc")
def test_mkl_takes_its_intel_branch_under_the_wrapper():
    plain = _branch()
    wrapped = _branch("bash", "scripts/mkl_as_on_intel.sh")
    assert wrapped > COMPATIBLE  # an instruction-set branch, as on an Intel CPU
    if _vendor() == "GenuineIntel":
        assert wrapped == plain  # on Intel the wrapper changes nothing
    else:
        assert plain == COMPATIBLE  # why the wrapper exists: elsewhere MKL takes its generic path
