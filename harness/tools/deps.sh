#!/usr/bin/env bash
# deps.sh [grade]: installs what tilelab needs from the distribution's
# packages (Debian 12, Ubuntu 22.04 or newer), as root, and says what it
# could not. With "grade", only what the grader needs (Gradescope's
# setup.sh: no make yet on a bare image, and no slides or Slurm to build).
# munge, slurmctld and slurmd are for make check, which grades a class on a
# Slurm cluster of this one machine, started and stopped by the test itself
# (Debian's Slurm services stay down without an /etc/slurm/slurm.conf;
# munge's starts, with a key of its own, and the test does not use it).
set -u

packages=(make gcc g++ libc6-dev pkg-config binutils libcriterion-dev valgrind gnuplot-nox libopenblas-dev bubblewrap
          pandoc texlive-latex-recommended texlive-pictures texlive-fonts-recommended lmodern poppler-utils
          munge slurmctld slurmd slurm-client zip unzip python3 python3-jsonschema shellcheck ccache)
[ "${1:-}" != grade ] ||
    packages=(make gcc g++ libc6-dev pkg-config binutils libcriterion-dev valgrind libopenblas-dev bubblewrap
              util-linux python3)

if ! command -v apt-get >/dev/null; then
    echo "make deps knows Debian and Ubuntu (apt-get). Install these with your system's"
    echo "package manager: ${packages[*]}"
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    sudo=$(command -v sudo || true)
    if [ -z "$sudo" ]; then
        echo "make deps installs packages: run it as root (or install sudo)." >&2
        exit 1
    fi
else
    sudo=
fi

export DEBIAN_FRONTEND=noninteractive
echo "== apt-get update"
$sudo apt-get update -qq || echo "warning: apt-get update failed; trying the package lists already here"

missing=()
for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        continue
    fi
    echo "== installing $p"
    $sudo apt-get install -y -qq --no-install-recommends "$p" >/dev/null || missing+=("$p")
done

echo
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: every package is installed: ${packages[*]}"
else
    echo "deps: could NOT install: ${missing[*]}"
    echo "      (the labs need gcc, g++, make and libcriterion-dev; the rest adds the bench"
    echo "       comparison with OpenBLAS, cachegrind, the plots, the grader's sandbox,"
    echo "       with pandoc and the texlive packages the slides, with munge and slurm the"
    echo "       test of grading on Slurm, with zip and python3-jsonschema Gradescope's, and"
    echo "       with shellcheck make check's test of the kit's scripts, with ccache make check's"
    echo "       compile cache, which its copies of the kit share)"
fi

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    echo "deps: CUDA toolkit found: $($nvcc --version | tail -1)"
    # The emulator counts nvcc's instructions by reading its SASS (harness/emu/README.md),
    # with the nvdisasm it finds as emu-compile.sh looks for one: on the PATH, beside nvcc, or
    # PyPI's in Python's site-packages (where this installs it: not on the PATH, so that a
    # check of the PATH alone said "installing" at every make deps).
    pypi_nvdisasm=$(python3 -c 'import glob, site
print(*[p for d in site.getsitepackages() + [site.getusersitepackages()] for p in sorted(glob.glob(d + "/nvidia/*/bin/nvdisasm"))][-1:])' 2>/dev/null || true)
    if ! command -v nvdisasm >/dev/null && [ ! -x "${nvcc%/*}/nvdisasm" ] && [ -z "$pypi_nvdisasm" ]; then
        echo "== installing nvdisasm (PyPI's nvidia-cuda-nvdisasm), which this toolkit lacks"
        python3 -m pip install -q nvidia-cuda-nvdisasm 2>/dev/null ||
            python3 -m pip install -q --break-system-packages nvidia-cuda-nvdisasm ||
            echo "deps: could NOT install nvdisasm: the emulator's profile counts accesses as written, not as nvcc merges them"
    elif [ -n "$pypi_nvdisasm" ] && ! command -v nvdisasm >/dev/null && [ ! -x "${nvcc%/*}/nvdisasm" ]; then
        echo "deps: nvdisasm found: $pypi_nvdisasm (PyPI's nvidia-cuda-nvdisasm)"
    fi
else
    echo "deps: no CUDA toolkit (nvcc). The CPU labs (1-2) work without it. For the GPU labs"
    echo "      install CUDA 11.8 or newer from NVIDIA (developer.nvidia.com/cuda-downloads,"
    echo "      or your distribution's nvidia-cuda-toolkit package), then run make deps again."
fi
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    echo "deps: GPU: $(nvidia-smi -L | head -1)"
else
    # True for a student: the GPU labs' tests run here all the same, on the emulator.
    echo "deps: no NVIDIA GPU here: the GPU labs build and run their tests on the kit's CPU emulator"
    echo "      (GPU=emu, the default without a GPU), and make labN profile and make labN plot"
    echo "      count their memory requests there; only bandwidth (make labN bench) needs a GPU."
fi
[ ${#missing[@]} -eq 0 ]
