"""scripts/mkl_as_on_intel.sh: oneMKL takes the code path it takes on an Intel CPU, on any x86 CPU.

The study's painters are rebuilt on other machines only if MKL sums as it did where they were
first built (Intel Xeons). MKL reports the branch it chose: `MKL_CBWR_COMPATIBLE` (2) is its
generic path, which it takes on AMD CPUs; an instruction-set branch (AVX2 10, AVX-512 12,
AVX-512 E1 14, ...) is what it takes on an Intel CPU with those instructions. torch's library
exports only the service form of MKL's `mkl_cbwr_get_auto_branch`, so that is what the probe
calls.

The test runs a copy of the script from a temporary directory, so the library it compiles lands
there, not in the repository's outputs/cache. It is skipped, saying why, where it cannot apply:
not an x86 Linux CPU, no gcc to compile the preload, or a torch without MKL's branch query.
"""

import ctypes
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPATIBLE = 2
SCRIPT = ("mkl_as_on_intel.sh", "mkl_as_on_intel.c")

PROBE = """
import ctypes
from pathlib import Path
import torch
mkl = ctypes.CDLL(str(Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"))
print(mkl.mkl_serv_cbwr_get_auto_branch())
"""


def why_not_here() -> str | None:
    """Why the wrapper cannot be tested on this machine, or None."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return f"MKL's vendor branches are x86's; this CPU is {platform.machine()}"
    if not Path("/proc/cpuinfo").exists():
        return "reads the CPU's vendor from /proc/cpuinfo (Linux)"
    if shutil.which("gcc") is None:
        return "no gcc to compile the preload library"
    import torch

    library = Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    if not torch.backends.mkl.is_available() or not library.is_file():
        return "this torch is built without MKL"
    if not hasattr(ctypes.CDLL(str(library)), "mkl_serv_cbwr_get_auto_branch"):
        return "this torch's MKL does not export mkl_serv_cbwr_get_auto_branch"
    return None


def _branch(cwd: Path, *wrapper: str) -> int:
    command = [*wrapper, sys.executable, "-c", PROBE]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def _vendor() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("vendor_id"):
            return line.split(":")[1].strip()
    return ""


@pytest.mark.slow  # a subprocess that imports torch under the wrapper, ~10 s (command 2's budget)
def test_mkl_takes_its_intel_branch_under_the_wrapper(tmp_path):
    if reason := why_not_here():
        pytest.skip(reason)
    (tmp_path / "scripts").mkdir()
    for name in SCRIPT:  # the script compiles into <its root>/outputs/cache: here, tmp_path
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    plain = _branch(tmp_path)
    wrapped = _branch(tmp_path, "bash", "scripts/mkl_as_on_intel.sh")
    assert (tmp_path / "outputs" / "cache" / "mkl_as_on_intel.so").is_file()
    assert wrapped > COMPATIBLE  # an instruction-set branch, as on an Intel CPU
    if _vendor() == "GenuineIntel":
        assert wrapped == plain  # on Intel the wrapper changes nothing
    else:
        assert plain == COMPATIBLE  # why the wrapper exists: elsewhere MKL takes its generic path


CHILD = """
import subprocess, sys
import watercolor  # takes the wrapper's preload out of what this process starts
mine = open("/proc/self/maps").read()
child = subprocess.run(["cat", "/proc/self/maps"], capture_output=True, text=True).stdout
import os
print("mine", "mkl_as_on_intel.so" in mine, "child", "mkl_as_on_intel.so" in child,
      "env", os.environ.get("LD_PRELOAD", "-"))
"""


def test_the_preload_stays_in_the_wrapped_process_and_out_of_its_children(tmp_path):
    if reason := why_not_here():
        pytest.skip(reason)
    (tmp_path / "scripts").mkdir()
    for name in SCRIPT:
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    # the user's own preload (a harmless one: the C library every process maps) must stay
    env = {**os.environ, "LD_PRELOAD": "libc.so.6", "PYTHONPATH": str(ROOT)}
    command = ["bash", "scripts/mkl_as_on_intel.sh", sys.executable, "-c", CHILD]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["mine", "True", "child", "False", "env", "libc.so.6"]
