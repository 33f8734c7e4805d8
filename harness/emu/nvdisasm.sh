#!/bin/sh
# nvdisasm.sh NVCC: the nvdisasm that emu-compile.sh reads nvcc's SASS with (its step 4),
# or nothing where there is none: on the PATH, beside NVCC, or PyPI's (nvidia-cuda-nvdisasm,
# which make deps installs) in Python's site-packages. Python takes a tenth of a second to
# say where that is, so the Makefile asks once a make (EMU_NVDISASM) and passes the answer
# to each compile as TL_EMU_NVDISASM.
command -v nvdisasm && exit 0
[ ! -x "${1%/*}/nvdisasm" ] || { echo "${1%/*}/nvdisasm" && exit 0; }
python3 -c 'import glob, site
print(*[p for d in site.getsitepackages() + [site.getusersitepackages()] for p in sorted(glob.glob(d + "/nvidia/*/bin/nvdisasm"))][-1:])' 2>/dev/null || true
