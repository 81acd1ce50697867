"""Everything a GPU check needs that the lent GPU machine lacks, packed here into parts that each
fit one call of the device tool, and unpacked there in order.

    # here (CPU machine, after scripts/setup.sh): build the kit into .kit/
    .venv/bin/python scripts/gpu_kit.py build --out .kit --python-version 3.12
    # there, once per part, in calls made back to back (the machine stays warm 30 s):
    python3 scripts/gpu_kit.py receive .kit/part1 --into /tmp/kit
    python3 scripts/gpu_kit.py receive .kit/part2 --into /tmp/kit   # ...
    source /tmp/kit/env.sh        # PYTHONPATH, the browser, the JS assets

Why a kit: the GPU machine (experiments/2026-12-04_gpu/) has torch, transformers, peft,
accelerate, pandas and pyarrow, but no TRL, datasets, Hydra, MLflow, Playwright, pydantic, node
or browser, and no network. Files reach it only as a copy of this working tree, at most 64 MiB a
call, and it stays warm only 30 s after a call.

What the kit holds, as archives (xz) cut into chunks, one chunk a part (by default as large as
fits one call beside the tracked tree at build time, `default_chunk_mib`):
- `python`: the pinned wheels of the training path that the machine lacks (`CARRY`: TRL and
  datasets, Hydra and omegaconf with antlr4, MLflow's tracking client with its sqlite store,
  pydantic; transformers and peft at our pins), unpacked with pip for the target Python, plus
  our p5 and p5.brush (watercolor/tasks/painting/js/node_modules);
- `kernels`: flash-linear-attention (Qwen3.5's linear-attention kernels; optional, see env.sh);
- `renderer`: Playwright (its wheel bundles node) and Debian's `chromium-headless-shell` with the
  files of `chromium-common` it reads (SwiftShader among them), every shared library it links
  that is not glibc's (resolved here with ldd, from the Debian packages setup installed), and
  the GL/EGL/Vulkan loader libraries (libglvnd, libvulkan1) for WebGL on the GPU.
An archive unpacks as soon as all of its bytes have arrived, so the python part can be used
while later parts are still on their way. `receive` uses only Python's standard library.

Not in the kit: torch (the machine's CUDA build is used), vLLM (its wheel alone is ~336 MB).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALL_MIB = 64  # the device tool's working tree + carried paths, a call
# What the tracked tree may gain between a build and its calls (a study part's records: ~1-2 MB).
MARGIN_MIB = 3
# Distributions the training path imports that the GPU machine's image lacks (its package list:
# /work/.library/device/KINDS.md, read 2026-11-17), at the versions this project pins or
# resolved (.venv). transformers, peft and huggingface-hub are there at other versions.
CARRY = (
    "trl", "datasets", "dill", "multiprocess",
    "hydra-core", "omegaconf",
    "mlflow", "mlflow-skinny", "mlflow-tracing", "sqlalchemy", "alembic", "mako", "sqlparse",
    "cryptography", "cffi", "pycparser",  # MLflow's sqlite store imports cryptography.fernet
    "opentelemetry-api", "opentelemetry-sdk", "opentelemetry-semantic-conventions",
    "opentelemetry-proto", "importlib-metadata", "cachetools", "gitpython", "gitdb", "smmap",
    "databricks-sdk", "google-auth", "pyasn1", "pyasn1-modules", "python-dotenv",
    "pydantic", "pydantic-core", "annotated-types", "typing-inspection",
    "fastapi", "starlette", "uvicorn", "greenlet",
    "transformers", "peft",
    # there at 1.33, which our pins accept; carried at ours (2.4, with the httpx2 it needs), so
    # that the kit's test here runs what runs there
    "huggingface-hub", "httpx2", "httpcore2", "truststore",
)  # fmt: skip
# The GPU machine's image (/work/.library/device/KINDS.md, its package list read 2026-11-17):
# what the kit does not carry, but for transformers and peft (older there than our pins).
DEVICE_IMAGE = frozenset((
    "absl-py", "accelerate", "aiofiles", "aiohappyeyeballs", "aiohttp", "aiosignal",
    "annotated-doc", "anyio", "attrs", "botorch", "build", "certifi", "charset-normalizer",
    "chex", "click", "cloudpickle", "cmake", "colorama", "contourpy", "coverage", "cuda-bindings",
    "cuda-core", "cuda-pathfinder", "cuda-toolkit", "cupy-cuda13x", "cycler", "cython", "diffrax",
    "e3nn", "einops", "equinox", "etils", "execnet", "filelock", "flatbuffers", "flax",
    "fonttools", "formulaic", "frozenlist", "fsspec", "gpytorch", "grpcio", "h11", "h5py",
    "hf-xet", "httpcore", "httpx", "huggingface-hub", "humanize", "hypothesis", "idna", "imageio",
    "iniconfig", "interface-meta", "jax", "jax-cuda13-pjrt", "jax-cuda13-plugin", "jaxlib",
    "jaxtyping", "jinja2", "joblib", "kiwisolver", "lazy-loader", "lightning",
    "lightning-utilities", "linear-operator", "lineax", "llvmlite", "lxml", "markdown",
    "markdown-it-py", "markupsafe", "matplotlib", "mdurl", "meson", "ml-dtypes", "mpi4py",
    "mpmath", "msgpack", "multidict", "multipledispatch", "mypy-extensions", "nanobind",
    "narwhals", "networkx", "ninja", "numba", "numba-cuda", "numpy", "numpyro", "nvidia-cublas",
    "nvidia-cuda-cupti", "nvidia-cuda-nvrtc", "nvidia-cuda-runtime", "nvidia-cudnn-cu13",
    "nvidia-cufft", "nvidia-cufile", "nvidia-curand", "nvidia-cusolver", "nvidia-cusparse",
    "nvidia-cusparselt-cu13", "nvidia-ml-py", "nvidia-nccl-cu13", "nvidia-nvjitlink",
    "nvidia-nvshmem-cu13", "nvidia-nvtx", "onnx", "onnx-ir", "onnxruntime", "onnxscript",
    "opencv-python-headless", "optax", "opt-einsum", "opt-einsum-fx", "optimistix",
    "orbax-checkpoint", "packaging", "pandas", "pathspec", "patsy", "peft", "pillow", "pip",
    "pluggy", "portalocker", "prometheus-client", "propcache", "protobuf", "psutil", "pyarrow",
    "pybind11", "py-cpuinfo", "pygments", "pyparsing", "pyproject-hooks", "pyre-extensions",
    "pytest", "pytest-benchmark", "pytest-cov", "pytest-mock", "pytest-timeout", "pytest-xdist",
    "python-dateutil", "pytorch-lightning", "pyyaml", "regex", "requests", "rich", "sacrebleu",
    "safetensors", "scikit-build-core", "scikit-image", "scikit-learn", "scipy", "seaborn",
    "sentencepiece", "sentence-transformers", "setuptools", "shellingham", "simplejson", "six",
    "sortedcontainers", "statsmodels", "sympy", "tabulate", "tensorboard",
    "tensorboard-data-server", "tensorstore", "threadpoolctl", "tifffile", "tiktoken", "timm",
    "tokenizers", "toolz", "torch", "torchaudio", "torchdiffeq", "torch-geometric",
    "torchmetrics", "torchvision", "tqdm", "transformers", "treescope", "triton", "typer",
    "typing-extensions", "typing-inspect", "urllib3", "uvloop", "wadler-lindig", "werkzeug",
    "wheel", "wrapt", "xarray", "xxhash", "yarl", "zipp",
))  # fmt: skip
# On PyPI only as a source distribution (hydra-core pins 4.9.*): built into a wheel here.
SOURCE_ONLY = ("antlr4-python3-runtime",)
KERNELS = "flash-linear-attention"  # at the gpu extra's pin (pyproject.toml), with its fla-core
PLAYWRIGHT = ("playwright",)  # its wheel bundles node; greenlet (its need) is in CARRY
BROWSER_FILES = (  # of chromium-headless-shell and chromium-common: what the headless shell reads
    "chromium-headless-shell", "headless_lib_data.pak", "headless_lib_strings.pak",
    "headless_command_resources.pak", "icudtl.dat", "v8_context_snapshot.bin",
    "snapshot_blob.bin", "libvk_swiftshader.so", "vk_swiftshader_icd.json", "libvulkan.so.1",
    "libEGL.so", "libGLESv2.so",
)  # fmt: skip
# The loaders that ANGLE opens for WebGL on a GPU (EGL through libglvnd, or Vulkan); the NVIDIA
# driver's own files are on the GPU machine under /usr/local/nvidia.
GL_DEBS = ("libegl1", "libglvnd0", "libgles2", "libopengl0", "libgl1", "libglx0", "libvulkan1")
# glibc's own libraries: the GPU machine's (newer) ones are used, never a copy.
SYSTEM_LIBS = ("libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux",
               "libstdc++.so", "libgcc_s.so", "linux-vdso")  # fmt: skip

ENV_SH = """\
# Made by scripts/gpu_kit.py: `source` it on the GPU machine after every part has arrived.
KIT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PYTHONPATH="$KIT/site${WATERCOLOR_KIT_KERNELS:+:$KIT/kernels}${PYTHONPATH:+:$PYTHONPATH}"
export WATERCOLOR_CHROMIUM="$KIT/browser/chromium"
# ANGLE finds the NVIDIA driver's EGL and Vulkan files, where they are. VK_ADD_DRIVER_FILES adds
# to the Vulkan loader's list: VK_DRIVER_FILES would replace it, and SwiftShader's own driver
# (Chromium's software WebGL) would be gone: every sketch then fails to create its context.
nvidia=/usr/local/nvidia/share
[ -f $nvidia/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia/glvnd/egl_vendor.d/10_nvidia.json
[ -f $nvidia/vulkan/icd.d/nvidia_icd.json ] &&
  export VK_ADD_DRIVER_FILES=$nvidia/vulkan/icd.d/nvidia_icd.json
# p5 and p5.brush where the render harness reads them (run from the repository's root)
js=watercolor/tasks/painting/js
[ -e $js/node_modules ] || cp -r "$KIT/js/node_modules" $js/
"""
CHROMIUM_SH = """\
#!/bin/sh
# Debian's chromium-headless-shell with the libraries it links (lib/), carried by the GPU kit.
here="$(dirname "$(readlink -f "$0")")"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$here/chromium-headless-shell" "$@"
"""


def run(*command: str, cwd: Path | None = None) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True, cwd=cwd).stdout


def say(message: str) -> None:
    print(f"[gpu_kit] {message}", flush=True)


# --- build (here) -------------------------------------------------------------------------


def pinned(names: tuple[str, ...]) -> list[str]:
    """`name==version` of each distribution as installed in this environment (.venv)."""
    from importlib.metadata import version

    return [f"{name}=={version(name)}" for name in names]


def pip_target(requirements: list[str], target: Path, python_version: str) -> None:
    """Unpack wheels for CPython `python_version` on manylinux x86-64 into `target`."""
    platforms = [f"manylinux_2_{n}_x86_64" for n in (17, 24, 27, 28, 31, 34)]
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile",
               "--only-binary=:all:", "--target", str(target), "--python-version", python_version,
               "--implementation", "cp", "--disable-pip-version-check"]  # fmt: skip
    command += [arg for p in ["manylinux2014_x86_64", *platforms] for arg in ("--platform", p)]
    subprocess.run([*command, *requirements], check=True)


def extra_pin(extra: str, name: str) -> str:
    """`name`'s requirement in one of pyproject.toml's extras (the one place it is pinned)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return next(r for r in project["optional-dependencies"][extra] if r.startswith(f"{name}=="))


def kernel_wheels(target: Path, python_version: str) -> None:
    """flash-linear-attention at the gpu extra's pin and the fla-core its metadata names, in
    one pip call (pip --target skips a top-level folder that is already there: both own fla/)."""
    fla = extra_pin("gpu", KERNELS)
    with tempfile.TemporaryDirectory() as tmp:
        pip_target([fla], Path(tmp), python_version)
        metadata = next(Path(tmp).glob("flash_linear_attention-*.dist-info")) / "METADATA"
        core = next(line.split(":", 1)[1].strip() for line in metadata.read_text().splitlines()
                    if line.startswith("Requires-Dist: fla-core"))  # fmt: skip
    pip_target([fla, core.split(";")[0].replace(" ", "")], target, python_version)


def built_wheels(requirements: list[str], folder: Path) -> list[str]:
    """Pure-Python wheels built here from source distributions; returns their paths."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder),
                    "--disable-pip-version-check", *requirements], check=True)  # fmt: skip
    return [str(wheel) for wheel in folder.glob("*.whl")]


def copy_js_assets(site: Path) -> None:
    """p5 and p5.brush, as npm installed them from the lockfile (what the harness inlines)."""
    modules = ROOT / "watercolor/tasks/painting/js/node_modules"
    for name in ("p5", "p5.brush"):
        shutil.copytree(modules / name, site.parent / "js/node_modules" / name)


def linked_libraries(binary: Path, search: Path) -> dict[str, Path]:
    """soname -> resolved path of every library `binary` links, but glibc's and its own."""
    env = os.environ | {"LD_LIBRARY_PATH": str(search)}
    libraries = {}
    for line in subprocess.run(["ldd", str(binary)], capture_output=True, text=True,
                               env=env, check=True).stdout.splitlines():  # fmt: skip
        name, _, rest = line.strip().partition(" => ")
        path = rest.split(" (")[0].strip()
        if rest and "not found" in rest:
            raise RuntimeError(f"{binary.name} needs {name}, which is not installed here")
        if (
            path
            and not any(name.startswith(s) for s in SYSTEM_LIBS)
            and not path.startswith(str(search))
        ):
            libraries[name] = Path(path)
    return libraries


def debian_packages(names: tuple[str, ...], root: Path) -> Path:
    """Download Debian packages and unpack them under `root` (apt-get download, dpkg -x)."""
    debs = root / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    run("apt-get", "download", *names, cwd=debs)
    for deb in debs.glob("*.deb"):
        run("dpkg", "-x", str(deb), str(root / "files"))
    return root / "files"


def browser(out: Path) -> None:
    """The headless shell, the chromium-common files it reads, the GL loaders, and every
    library any of them links (but glibc's), from the Debian packages installed here."""
    lib = out / "lib"
    lib.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        files = debian_packages(("chromium-headless-shell", "chromium-common"), Path(tmp))
        for name in BROWSER_FILES:
            shutil.copy2(files / "usr/lib/chromium" / name, out / name)
    with tempfile.TemporaryDirectory() as tmp:
        for so in debian_packages(GL_DEBS, Path(tmp)).rglob("*.so*"):
            shutil.copy2(so, lib / so.name, follow_symlinks=False)
    for binary in [out / "chromium-headless-shell", *lib.glob("*.so*")]:
        for soname, path in linked_libraries(binary, lib).items():
            if not (lib / soname).exists():
                shutil.copy2(path, lib / soname)
    wrapper = out / "chromium"
    wrapper.write_text(CHROMIUM_SH)
    wrapper.chmod(0o755)


def xz_archive(folder: Path, archive: Path, preset: int = 9) -> None:
    """`folder`'s contents as a tar compressed with xz on every core (stdlib reads it back)."""
    with open(archive, "wb") as sink:
        tar = subprocess.Popen(["tar", "-C", str(folder), "-cf", "-", "."], stdout=subprocess.PIPE)
        subprocess.run(["xz", f"-{preset}", "-T0", "-c"], stdin=tar.stdout, stdout=sink, check=True)
        if tar.wait():
            raise RuntimeError(f"tar of {folder} failed")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def cut(archives: list[Path], out: Path, chunk_bytes: int) -> list[dict]:
    """The archives as one byte stream cut into parts `out/partN/chunk`; returns their list."""
    parts, number, written, sink = [], 0, chunk_bytes, None
    for archive in archives:
        with open(archive, "rb") as source:
            while block := source.read(min(1 << 20, chunk_bytes)):
                while block:
                    if written == chunk_bytes:
                        sink and sink.close()
                        number, written = number + 1, 0
                        (out / f"part{number}").mkdir()
                        sink = open(out / f"part{number}" / "chunk", "wb")  # noqa: SIM115
                    take = block[: chunk_bytes - written]
                    sink.write(take)
                    written, block = written + len(take), block[len(take) :]
    sink and sink.close()
    for n in range(1, number + 1):
        chunk = out / f"part{n}" / "chunk"
        parts.append({"part": n, "bytes": chunk.stat().st_size, "sha256": sha256(chunk)})
    return parts


def tracked_bytes(root: Path = ROOT) -> int:
    """Bytes of the files git tracks in `root`: the working tree every device call carries."""
    found = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True)
    return sum((root / f).stat().st_size for f in found.stdout.decode().split("\0") if f)


def default_chunk_mib(root: Path = ROOT) -> int:
    """The largest part (MiB) that fits one call beside the tree as it is now, less a margin.

    The tree grows with every study's records (14.5 MB on 2026-12-04, 26.9 MB on 2026-12-05), so
    a fixed size stopped fitting three times; the kit is built just before its calls."""
    return ((CALL_MIB << 20) - tracked_bytes(root)) // (1 << 20) - MARGIN_MIB


def build(out: Path, python_version: str, chunk_mib: int, kernels: bool, preset: int = 9) -> dict:
    """Build every archive into `out/` and cut them into parts; returns the manifest."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    stage = out / "stage"
    say(f"python packages for CPython {python_version}: {len(CARRY)} distributions")
    wheels = built_wheels(pinned(SOURCE_ONLY), stage / "wheels")
    pip_target(pinned(CARRY) + wheels, stage / "python/site", python_version)
    shutil.rmtree(stage / "wheels")
    copy_js_assets(stage / "python/site")
    (stage / "python/env.sh").write_text(ENV_SH)
    folders = ["python"]
    if kernels:
        kernel_wheels(stage / "kernels/kernels", python_version)
        folders.append("kernels")
    say("renderer: Playwright (with its node) and Debian's chromium-headless-shell")
    pip_target(pinned(PLAYWRIGHT), stage / "renderer/site", python_version)
    browser(stage / "renderer/browser")
    archives = []
    for folder in folders + ["renderer"]:
        say(f"compressing {folder}")
        archives.append(out / f"{folder}.tar.xz")
        xz_archive(stage / folder, archives[-1], preset)
    shutil.rmtree(stage)
    if archives[0].stat().st_size > chunk_mib << 20:  # device.sh's `start` uses it from part 1
        raise ValueError(
            f"the Python packages ({archives[0].stat().st_size / 2**20:.1f} MiB) do not fit one "
            f"part of {chunk_mib} MiB: `start` needs them all in part 1 (the tracked tree has "
            "grown; keep --xz-preset 9, or carry the tree's largest records elsewhere)"
        )
    manifest = {
        "python_version": python_version,
        "archives": [
            {"name": a.name, "bytes": a.stat().st_size, "sha256": sha256(a)} for a in archives
        ],  # fmt: skip
        "parts": cut(archives, out, chunk_mib << 20),
    }
    for archive in archives:
        archive.unlink()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    for part in manifest["parts"]:  # every part carries the manifest: receive needs only it
        shutil.copy2(out / "manifest.json", out / f"part{part['part']}" / "manifest.json")
    return manifest


# --- receive (there; standard library only) -----------------------------------------------


def receive(part: Path, into: Path) -> list[str]:
    """Append one part to the stream in `into`, then unpack every archive now complete."""
    manifest = json.loads((part / "manifest.json").read_text())
    number = int(part.name.removeprefix("part"))
    entry = manifest["parts"][number - 1]
    chunk = part / "chunk"
    if sha256(chunk) != entry["sha256"]:
        raise SystemExit(f"{chunk} is damaged (sha256 differs from the manifest)")
    into.mkdir(parents=True, exist_ok=True)
    shutil.copy2(chunk, into / f"chunk{number}")
    return unpack_ready(manifest, into)


def unpack_ready(manifest: dict, into: Path) -> list[str]:
    """Unpack each archive whose chunks have all arrived and that is not unpacked yet."""
    done, offset, boundaries = [], 0, []
    for archive in manifest["archives"]:
        boundaries.append((archive, offset, offset + archive["bytes"]))
        offset += archive["bytes"]
    size = manifest["parts"][0]["bytes"]
    arrived = {int(p.name[5:]) for p in into.glob("chunk*")}
    for archive, start, end in boundaries:
        needed = range(start // size + 1, (end - 1) // size + 2)
        marker = into / f".{archive['name']}.done"
        if marker.exists() or not set(needed) <= arrived:
            continue
        path = into / archive["name"]
        with open(path, "wb") as sink:
            for n in needed:
                data = (into / f"chunk{n}").read_bytes()
                lo, hi = max(start - (n - 1) * size, 0), min(end - (n - 1) * size, len(data))
                sink.write(data[lo:hi])
        if sha256(path) != archive["sha256"]:
            raise SystemExit(f"{archive['name']} reassembled wrong (sha256 differs)")
        with tarfile.open(path, "r:xz") as tar:
            tar.extractall(into, filter="fully_trusted")  # our own archive; keeps symlinks
        path.unlink()
        marker.touch()
        done.append(archive["name"])
    return done


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    make = verbs.add_parser("build", help="build the kit here")
    make.add_argument("--out", type=Path, default=ROOT / ".kit")
    make.add_argument("--python-version", default="3.12", help="the GPU machine's Python")
    make.add_argument(
        "--chunk-mib",
        type=int,
        default=None,
        help="part size (default: what fits one call beside the tracked tree now)",
    )
    make.add_argument("--no-kernels", action="store_true", help="leave flash-linear-attention")
    make.add_argument("--xz-preset", type=int, default=9, help="0-9: 9 packs smallest, slowest")
    take = verbs.add_parser("receive", help="unpack one part there (after the ones before it)")
    take.add_argument("part", type=Path)
    take.add_argument("--into", type=Path, default=Path("/tmp/kit"))
    args = parser.parse_args(argv)
    if args.verb == "build":
        kernels = not args.no_kernels
        size = args.chunk_mib or default_chunk_mib()
        manifest = build(args.out, args.python_version, size, kernels, args.xz_preset)
        print(json.dumps(manifest, indent=2))
        parts = len(manifest["parts"])
        say(
            f"{parts} parts of at most {size} MiB: `start` carries part1, `receive N` parts "
            f"2-{parts - 1}, `render {parts}` the last (scripts/gpu/device.sh)"
        )
    else:
        done = receive(args.part, args.into)
        say(f"{args.part} received; unpacked: {', '.join(done) or 'nothing yet'}")


if __name__ == "__main__":
    main()
