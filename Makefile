# tilelab: the one entry point. `make help` lists every target.
#
# A lab and an action are two goals: `make lab3 test`. Everything generated
# goes under build/; student and reference builds sit side by side in
# build/labNN/student and build/labNN/reference.

.DEFAULT_GOAL := help
SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules --no-print-directory

include labs/labs.mk

# LABS as people type it on the command line (LABS="2 3", LABS=02, LABS=lab2):
# two digits each, and each a lab of labs/labs.mk.
KNOWN_LABS := $(sort $(patsubst lab%_dir,%,$(filter lab%_dir,$(.VARIABLES))))
LABS_GIVEN := $(filter command line,$(origin LABS))
two_digits = $(if $(filter 1 2 3 4 5 6 7 8 9,$(1)),0$(1),$(1))
override LABS := $(foreach w,$(LABS),$(call two_digits,$(patsubst lab%,%,$(w))))
$(foreach n,$(filter-out $(KNOWN_LABS),$(LABS)),$(error LABS: there is no lab '$(patsubst 0%,%,$(n))': the labs are $(patsubst 0%,%,$(KNOWN_LABS)), e.g. LABS="2 3"))

B ?= build
ROOT := $(CURDIR)
# The labs of LABS as one table, a row a lab and a column a labNN_ field
# (tl-labs, harness/tools/labs.c; its rule is under "the kit"): what the
# grader, Gradescope, Slurm, the figures, the slides and the kit's tests read
# (harness/tools/labs.sh, csv.h), never labs.mk. LABS="2 3" on the command
# line writes a table of its own, so that no run's replaces another's.
LABS_TSV := $(B)/labs$(if $(LABS_GIVEN),-$(subst $(eval) ,-,$(strip $(LABS)))).tsv
# Where the student's lab files are: labs/, or a hand-in being graded.
STUDENT_DIR ?= labs
# A folder of compiled references (labNN-cpu.o, labNN-cuda.o, labNN-emu.o) to
# use instead of solutions/: the student kit has no reference sources, and
# the grader hides them from the code it builds.
REFERENCE_PREBUILT ?= $(if $(wildcard solutions/*/transpose.*),,$(wildcard solutions/prebuilt))

# ---------------------------------------------------------------- goals

LAB_ACTIONS := test bench plot profile cachegrind sanitize sweep resources
KIT_GOALS := help check deps clean unit emu-corpus handin grade grade-all references dist gradescope plots report slides \
             slurm-start slurm-stop hostile
KNOWN_GOALS := $(LAB_ACTIONS) $(KIT_GOALS)

LAB_GOALS := $(filter lab%,$(MAKECMDGOALS))
ACTIONS := $(filter $(LAB_ACTIONS),$(MAKECMDGOALS))
UNKNOWN := $(filter-out $(KNOWN_GOALS) $(LAB_GOALS) $(B)/%,$(MAKECMDGOALS))

ifneq ($(UNKNOWN),)
$(error unknown target '$(firstword $(UNKNOWN))'. Run `make help` for the list, e.g. `make lab1 test`)
endif
ifneq ($(words $(LAB_GOALS)),0)
ifneq ($(words $(LAB_GOALS)),1)
$(error one lab at a time, please: you asked for $(LAB_GOALS))
endif
LAB := $(shell echo '$(patsubst lab%,%,$(LAB_GOALS))' | awk '/^[0-9]+$$/ { printf "%02d", $$1 + 0 }')
ifeq ($(filter $(LAB),$(LABS)),)
$(error unknown lab '$(LAB_GOALS)': the labs are $(patsubst 0%,%,$(LABS)) (e.g. `make lab1 test`))
endif
ifeq ($(ACTIONS),)
$(error what should `make $(LAB_GOALS)` do? Add an action: $(LAB_ACTIONS) (e.g. `make $(LAB_GOALS) test`))
endif
endif
ifneq ($(ACTIONS),)
ifeq ($(LAB),)
$(error which lab? e.g. `make lab1 $(firstword $(ACTIONS))`)
endif
endif

comma := ,
# "3, 6, 9": lab numbers (03 06 09) as the help and the messages write them.
lab_list = $(subst $(eval) ,$(comma) ,$(patsubst 0%,%,$(strip $(1))))

# ---------------------------------------------------------------- tools

CC := $(if $(filter default,$(origin CC)),gcc,$(CC))
# A compile cache, where one is asked for: TILELAB_CCACHE=DIR in the environment (make check
# sets it where make deps installed ccache, for every build it runs, its copies of the kit's
# too, with ccache's CCACHE_DIR) puts ccache before each compile, so that a file compiled
# again with the same flags is a hit (harness/emu/emu-compile.sh keeps nvdisasm's output in
# DIR too). Unset (a student's build, the grader's), every file is compiled.
CCACHE := $(if $(TILELAB_CCACHE),$(shell command -v ccache))
# The C++ runtime, which nvcc's host code and the emulator need. A CC whose
# only libstdc++ is a static, non-PIC archive (a gcc built under /opt, as on
# some GPU machines) cannot put it into a position-independent executable:
# there the kit links without PIE.
CXX_RUNTIME := -lstdc++ $(if $(wildcard $(shell $(CC) -print-file-name=libstdc++.so)),,-no-pie)
WARN := -Wall -Wextra -Werror
# A CPU lab file's flags, which its build line prints whole: a student who
# pastes it gets the same error, warnings as errors included.
CPU_LAB_FLAGS = -std=c11 -g $(OPT) $(WARN) -Iharness/core/include
# Every harness file sees the core library's one include folder; each layer adds its own.
# _FORTIFY_SOURCE=3 checks writes against malloc's sizes, as Ubuntu's gcc does by default:
# an overflow aborts here too, not first on the GPU machine.
CFLAGS_HARNESS := -std=c11 -D_DEFAULT_SOURCE -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3 -O2 -g $(WARN) -Iharness/core/include
# Flags for the lab files themselves (student and reference): OPT=-O0 for
# the -O level experiment.
OPT ?= -O3 -march=native

# Looked for once: set with ?=, its shell would run at each use, 19 times a make (and the
# grader and the kit's own tests start make thousands of times).
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
endif
HAVE_GPU := $(if $(shell nvidia-smi -L 2>/dev/null | grep -m1 GPU),1)
ifneq ($(NVCC),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
CUDA_INC := -I$(CUDA_HOME)/include
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUDA_LIBS := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcudart -ldl $(CXX_RUNTIME)
# The local GPU when there is one, else a fat binary for Turing to Hopper
# plus PTX for what comes after.
CUDA_ARCH ?= $(if $(HAVE_GPU),native,fat)
ifeq ($(CUDA_ARCH),fat)
NVCC_ARCH := $(foreach a,75 80 86 89 90,-gencode arch=compute_$(a),code=sm_$(a)) \
             -gencode arch=compute_90,code=compute_90
else ifeq ($(CUDA_ARCH),native)
NVCC_ARCH := -arch=native
else
NVCC_ARCH := -arch=$(if $(filter sm_%,$(CUDA_ARCH)),$(CUDA_ARCH),sm_$(CUDA_ARCH))
endif
# The emulator's nvcc check builds for what the GPU build would: CUDA_ARCH
# where one is given, else (empty here) the H100 that the emulator models.
EMU_NVCC_ARCH := $(if $(filter command line environment%,$(origin CUDA_ARCH)),$(NVCC_ARCH))
# The nvdisasm by which it reads nvcc's SASS (TL_EMU_NVDISASM, where one is given), looked
# for at the first compile for the emulator of a make, then kept: that takes Python.
EMU_NVDISASM = $(eval EMU_NVDISASM := $(or $(TL_EMU_NVDISASM),$(shell harness/emu/nvdisasm.sh '$(or $(TL_EMU_NVCC),$(NVCC))'),none))$(EMU_NVDISASM)
NVCC_FLAGS := -O3 -g -lineinfo $(NVCC_ARCH) -Wno-deprecated-gpu-targets -Werror all-warnings \
              -Xcompiler -Wall,-Wextra,-Werror -Iharness/core/include -Xptxas -v
endif

# GPU labs run on a real GPU (cuda) or on the CPU emulator (emu). GPU=auto,
# the default, takes the GPU when this machine has one and nvcc to build for it.
GPU ?= auto
ifeq ($(GPU),auto)
BACKEND := $(if $(and $(HAVE_GPU),$(NVCC)),cuda,emu)
else ifneq ($(filter cuda emu,$(GPU)),)
BACKEND := $(GPU)
else
$(error GPU=$(GPU)? Say GPU=cuda (a real GPU), GPU=emu (the CPU emulator), or leave it out)
endif

HAVE_OPENBLAS := $(shell pkg-config --exists openblas 2>/dev/null && echo 1)
OPENBLAS_CFLAGS := $(if $(HAVE_OPENBLAS),-DTL_HAVE_OPENBLAS $(shell pkg-config --cflags openblas))
OPENBLAS_LIBS := $(if $(HAVE_OPENBLAS),$(shell pkg-config --libs openblas))

# ---------------------------------------------------------------- harness
#
# harness/ holds one folder a layer, lowest first; a layer uses only those
# below it (DEVELOPERS.md, "Layout"):
#   core/   libtilelab.a: matrices, shapes, checks, timers, the machine; include/ and src/
#   gpu/    the GPU runtime glue, compiled against the CUDA toolkit's runtime or the emulator's
#   emu/    the CPU emulator: a CUDA runtime, and how a lab file is compiled for it
#   lab/    the lab process: lab-runner, the suites' client, isolate-symbols.sh
#   bench/  the bench (each operation's back end, the table and CSV) and the emulator's profile
#   grade/  the grader
#   tools/  what the commands run besides: tables, verdicts, make deps, make check's tally

CORE_HEADERS := $(wildcard harness/core/include/*.h)
CORE_LIB := $(B)/libtilelab.a
# What compiles the harness, every layer of it: the compiler and each layer's
# flags (CUDA's and OpenBLAS's headers, where found; its rule is below). A
# harness object is compiled again when they change, so that one copied from
# another build of the kit is used only where this build would compile the
# same (the grader copies the references' build into each hand-in's: grade.sh).
HARNESS_FLAGS := $(B)/harness/flags
$(B)/harness/core/%.o: harness/core/src/%.c $(CORE_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_HARNESS) -c $< -o $@
# The operations (op.h): one file a descriptor in harness/core/ops/, listed for the table in op.c.
OPS := $(sort $(basename $(notdir $(wildcard harness/core/ops/*.c))))
$(B)/harness/core/operations.h: FORCE
	$(call stamp,#define TL_OPERATIONS $(foreach o,$(OPS),TL_OPERATION($(o))))
$(B)/harness/core/op.o: $(B)/harness/core/operations.h
$(B)/harness/core/op.o: CFLAGS_HARNESS += -I$(B)/harness/core
$(B)/harness/core/ops/%.o: harness/core/ops/%.c $(wildcard harness/core/ops/*.h) $(CORE_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_HARNESS) -c $< -o $@
CORE_OBJS := $(patsubst harness/core/src/%.c,$(B)/harness/core/%.o,$(wildcard harness/core/src/*.c)) $(OPS:%=$(B)/harness/core/ops/%.o)
$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
# The kit's one reader of its CSVs (csv.h), compiled into the programs that read
# them besides the core library's users: the grader's report and the tools.
CSV_READER := harness/core/src/csv.c harness/core/include/csv.h
# A link names the core library after every object that needs it.
LINK_OBJS = $(filter %.o,$^) $(filter %.a,$^)

# The GPU glue, for the toolkit's runtime (the emulator's build is below).
GPU_HEADERS := $(CORE_HEADERS) $(wildcard harness/gpu/*.h)
CFLAGS_GPU := $(CFLAGS_HARNESS) -Iharness/gpu
GPU_OBJS := $(addprefix $(B)/harness/gpu/,gpu.o launch_config.o cuda_launch_hook.o)
$(B)/harness/gpu/%.o: harness/gpu/%.c $(GPU_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_GPU) $(CUDA_INC) -c $< -o $@

# The CPU emulator (harness/emu): its runtime, and the GPU glue compiled
# against its cuda_runtime.h instead of the toolkit's.
EMU_HEADERS := $(wildcard harness/emu/*.h harness/emu/cooperative_groups/*.h)
EMU_SCRIPTS := $(wildcard harness/emu/*.sh)
EMU_OBJS := $(addprefix $(B)/harness/emu/,gpu.o launch_config.o runtime.o streams.o kernels.o intrinsics.o shared.o emulator.o race.o warp.o atomic.o fiber.o statics.o confine.o indirect.o block_race.o made.o kit_pages.o device.o)
CFLAGS_EMU := $(CFLAGS_GPU) -Iharness/emu
# The emulator's own files stand where the CUDA runtime stands, below the GPU glue: they
# see the core's headers and their own, never the glue's (harness/gpu/).
CFLAGS_EMU_RUNTIME := $(CFLAGS_HARNESS) -Iharness/emu
$(B)/harness/emu/%.o: harness/emu/%.c $(CORE_HEADERS) $(EMU_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_EMU_RUNTIME) -c $< -o $@
$(B)/harness/emu/%.o: harness/gpu/%.c $(GPU_HEADERS) $(EMU_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_EMU) -c $< -o $@
$(B)/harness/emu-rewrite: harness/emu/rewrite.c harness/emu/source.c harness/emu/kernel_edits.c \
                          harness/emu/source.h harness/emu/kernel_edits.h $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
# What emu-compile.sh reads of a lab file's code, beside rewrite (where it finds them):
# the widths of nvcc's loads and stores from its SASS, the table of access checks
# (sites.h) in g++'s assembly, and, without nvcc, each kernel's shared bytes and the
# host functions device code calls, from the object (the demangler is libstdc++'s); with
# nvcc, the device built-ins host code reads, from nvcc's object; and the
# emulator's CUDA headers, precompiled for its g++ (emu-compile.sh --header).
EMU_TOOLS := $(addprefix $(B)/harness/emu-,rewrite sass-widths sites shared-bytes host-calls host-builtins pch/cuda_runtime.h pch/cuda_runtime.h.gch)
$(B)/harness/emu-pch/cuda_runtime.h $(B)/harness/emu-pch/cuda_runtime.h.gch: $(EMU_HEADERS) $(EMU_SCRIPTS)
	@harness/emu/emu-compile.sh --header $(B)/harness/emu-rewrite
EMU_LINE_WIDTHS := harness/emu/line_widths.c harness/emu/line_widths.h harness/emu/sites.h
$(B)/harness/emu-sass-widths: harness/emu/sass_widths.c $(EMU_LINE_WIDTHS) $(HARNESS_FLAGS)
$(B)/harness/emu-sites: harness/emu/sites.c $(EMU_LINE_WIDTHS) $(HARNESS_FLAGS)
$(B)/harness/emu-sass-widths $(B)/harness/emu-sites:
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
EMU_OBJECT_CODE := harness/emu/object_code.c harness/emu/device_names.c harness/emu/object_code.h harness/emu/device_names.h
$(B)/harness/emu-shared-bytes: harness/emu/shared_bytes.c $(EMU_OBJECT_CODE) $(HARNESS_FLAGS)
$(B)/harness/emu-host-calls: harness/emu/host_calls.c $(EMU_OBJECT_CODE) $(HARNESS_FLAGS)
$(B)/harness/emu-host-builtins: harness/emu/host_builtins.c $(EMU_OBJECT_CODE) $(HARNESS_FLAGS)
$(B)/harness/emu-shared-bytes $(B)/harness/emu-host-calls $(B)/harness/emu-host-builtins:
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^) -lstdc++

# The lab process: what a suite links to run its lab's code there (lab_process.h).
LAB_HEADERS := $(GPU_HEADERS) $(wildcard harness/lab/*.h) harness/emu/emu.h
CFLAGS_LAB := $(CFLAGS_GPU) -Iharness/lab
# A request to run an entry point, read alike by the lab process and the suite's server.
LAB_REQUEST := $(B)/harness/lab/lab_request.o
# The suite's side: the client, and the ends of the suite's server it joins (suite_server.h).
LAB_CLIENT := $(B)/harness/lab/lab_client.o $(LAB_REQUEST) $(B)/harness/lab/suite_server_start.o
$(B)/harness/lab/%.o: harness/lab/%.c $(LAB_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_LAB) $(CUDA_INC) -c $< -o $@
# What the grader's bench links instead of a student's GPU lab file: lab.h's
# entry points as launch plans asked of the lab process and run here (plan.h).
LAB_PLANS := $(B)/harness/lab/lab_plans.o $(B)/harness/lab/lab_client.o $(LAB_REQUEST) \
             $(B)/harness/lab/suite_server_start.o $(B)/harness/gpu/plan_run.o
# A suite's side of the lab process, by backend: the lab's entry points by
# their handles (op.h: the lab's code runs there), or, built for a GPU, the plans above
# with the GPU backend, so that the work a check compares runs in the suite.
# Each suite is its own server too (suite_server.c): one lab process for a run one test at a time.
SUITE_SERVER := $(B)/harness/lab/suite_server.o
SUITE_CLIENT_cpu := $(LAB_CLIENT) $(SUITE_SERVER)
SUITE_CLIENT_emu := $(LAB_CLIENT) $(SUITE_SERVER)
SUITE_CLIENT_cuda = $(LAB_PLANS) $(SUITE_SERVER) $(GPU_OBJS)
SUITE_LIBS_cuda = $(CUDA_LIBS)
ISOLATE := harness/lab/isolate-symbols.sh
ISOLATE_DEPS := $(ISOLATE) $(wildcard harness/core/ops/*.c)

# The bench: what every lab's bench links besides its back end.
BENCH_HEADERS := $(GPU_HEADERS) $(wildcard harness/bench/*.h)
CFLAGS_BENCH := $(CFLAGS_GPU) -Iharness/bench $(CUDA_INC) $(OPENBLAS_CFLAGS)
BENCH_OBJS := $(B)/harness/bench/bench_report.o
$(B)/harness/bench/%.o: harness/bench/%.c $(BENCH_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_BENCH) -c $< -o $@
$(B)/harness/bench/%.cu.o: harness/bench/%.cu $(BENCH_HEADERS)
	@test -n "$(NVCC)" || { echo "a GPU lab's bench needs the CUDA toolkit (nvcc), which this machine lacks" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CCACHE) $(NVCC) $(NVCC_FLAGS) -Iharness/bench -c $< -o $@ > $(@D)/$(*F).resources.txt 2>&1; \
	  rc=$$?; grep -Ev '^ptxas info|bytes stack frame' $(@D)/$(*F).resources.txt >&2; exit $$rc

# The grader's C programs. What measures a CPU lab (grade-perf), besides its lab file:
GRADE_PERF_OBJS := $(B)/harness/grade/grade_perf.o $(B)/harness/grade/grade_perf_confine.o
# Callgrind writes the names of a program's files and functions into its output raw, and
# a lab file chooses some (#line "x\nevents: ...", a symbol named in assembly): measured,
# it has none. Every symbol of a lab file but its entry points is local (isolate-symbols.sh),
# and the grader reads nothing of the output but its totals (grade_callgrind.c).
GRADE_PERF_LDFLAGS := -Wl,--strip-debug,--discard-all
$(B)/harness/grade/%.o: harness/grade/%.c $(GPU_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_GPU) $(CUDA_INC) -c $< -o $@

# CUDA's headers by the folder they are in, however CUDA_HOME names it (the
# grader's sandbox finds it from nvcc, where the environment may name a link).
harness_flags = $(if $(CUDA_INC),$(subst $(CUDA_INC),-I$(realpath $(CUDA_HOME)/include),$(1)),$(1))
$(HARNESS_FLAGS): FORCE
	$(call stamp,$(CC) at $(realpath $(shell command -v $(CC))): $(CC_VERSION); $(AR); $(call harness_flags,$(CFLAGS_BENCH)); $(CFLAGS_EMU); $(CFLAGS_LAB))

# How a suite is compiled and linked for each backend.
TEST_HEADERS := $(wildcard tests/*.h) $(LAB_HEADERS)
BACKEND_CFLAGS_cuda := $(CUDA_INC) -DTL_LAB_GPU
BACKEND_CFLAGS_emu := -Iharness/emu -DTL_LAB_GPU -DTL_EMU
BACKEND_OBJS_cuda := $(GPU_OBJS) $(B)/harness/gpu/plan_record.o
BACKEND_OBJS_emu := $(EMU_OBJS)
BACKEND_LIBS_cuda := $(CUDA_LIBS)
BACKEND_LIBS_emu := -lpthread $(CXX_RUNTIME)
# The lab process's own part (lab_runner.c) for each backend: no lab's code or tunable
# is in it, so every lab's lab process links the one object.
lab_runner = $(B)/harness/lab/lab_runner-$(1).o
$(foreach b,cpu cuda emu,$(call lab_runner,$(b))): $(B)/harness/lab/lab_runner-%.o: harness/lab/lab_runner.c $(LAB_HEADERS) $(HARNESS_FLAGS)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_LAB) $(BACKEND_CFLAGS_$*) -c $< -o $@

# Rebuild what depends on flags when the flags change.
define stamp
	@mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
endef
.PHONY: FORCE
FORCE:

# ---------------------------------------------------------------- labs

# The tunables a lab file defines, as NAME=VALUE, read off its #defines.
tunables_of = $(if $(2),$(shell sed -n -E 's/^\#define ($(subst $(eval) ,|,$(2))) +([^ ]*).*/\1=\2/p' $(1) 2>/dev/null))
# -D for each tunable given on the command line (make lab6 bench TILE_DIM=64).
tunable_defs = $(strip $(foreach t,$(lab$(1)_tunables),$(if $($(t)),-D$(t)=$($(t)))))
# What the bench and the profile write in their "# tunables:" line: -DNAME=V
# given on the command line, else each side's own #defines.
tunables_flags = -DTL_TUNABLES_STUDENT='"$(or $(call tunable_defs,$(1)),$(call tunables_of,$(call lab_src,$(1),student),$(lab$(1)_tunables)),none)"' \
                 -DTL_TUNABLES_REFERENCE='"$(or $(call tunable_defs,$(1)),$(call tunables_of,$(call lab_src,$(1),reference),$(lab$(1)_tunables)),none)"'
# A lab's operation (labNN_op, transpose by default): its descriptor, harness/core/ops/NAME.c (op.h).
op_of = $(or $(lab$(1)_op),transpose)
op_flag = -DTL_LAB_OP='"$(call op_of,$(1))"'
lab_src = $(if $(filter student,$(2)),$(STUDENT_DIR),solutions)/$(lab$(1)_dir)/$(lab$(1)_file)
prebuilt = $(if $(and $(REFERENCE_PREBUILT),$(filter reference,$(2))),$(REFERENCE_PREBUILT)/lab$(1)-$(3).o)

# What a lab's bench links besides the lab files and the core: the back end
# of its kind and operation, and the reference of its baseline lab, if any.
# A GPU lab's back end is its operation's, harness/bench/bench_OP.c, or bench_any.c for
# an operation with none of its own.
# Its device code of its own, if any (a ceiling's or a library's kernels), is
# harness/bench/bench_OP.cu, built by nvcc.
gpu_backend_src = $(or $(wildcard harness/bench/bench_$(call op_of,$(1)).c),harness/bench/bench_any.c)
gpu_backend_cu = $(patsubst harness/bench/%.cu,$(B)/harness/bench/%.cu.o,$(wildcard harness/bench/bench_$(call op_of,$(1)).cu))
# A CPU lab's is bench_cpu.c, of any operation, with its operation's library rows where
# harness/bench/bench_cpu_OP.c defines them.
cpu_backend_own = $(patsubst harness/bench/%.c,$(B)/harness/bench/%.o,$(wildcard harness/bench/bench_cpu_$(call op_of,$(1)).c))
bench_backend = $(B)/harness/bench/bench_table.o \
  $(if $(filter cpu,$(lab$(1)_kind)),$(B)/harness/bench/bench_cpu.o $(call cpu_backend_own,$(1)),$(GPU_OBJS) $(B)/harness/bench/bench_fresh.o $(call gpu_backend_cu,$(1)) \
  $(B)/lab$(1)/bench_backend.o $(B)/harness/bench/bench_gpu_transpose.o $(B)/harness/bench/bench_gpu_run.o \
  $(if $(lab$(1)_baseline),$(B)/lab$(lab$(1)_baseline)/reference/lab.renamed.o))

# Where a variant of a lab is built: build/lab03/student, build/lab03/reference,
# and for the emulator build/lab03/student-emu, build/lab03/reference-emu.
vdir = $(B)/lab$(1)/$(2)$(if $(filter emu,$(3)),-emu)
# Where its suite is built, one a lab and backend, for both variants: build/suites/lab03-emu.
suite_dir = $(B)/suites/lab$(1)-$(2)

# What a build says it compiles: the student's file by its path, the reference
# by name only, so that nothing a student runs points them at solutions/.
built_src = $(if $(filter reference,$(2)),the reference of lab $(patsubst 0%,%,$(1)),$(call lab_src,$(1),$(2)))

# $(1): lab number, $(2): student or reference, $(3): cpu, cuda or emu
# Its flags file holds what it is built from and with: a change of either
# (another STUDENT_DIR, a tunable) rebuilds it, even from an older file.
define lab_variant
$(call vdir,$(1),$(2),$(3))/flags: FORCE
	$$(call stamp,$$(call lab_src,$(1),$(2)) $(if $(filter cpu,$(3)),$$(OPT))$(if $(filter cuda,$(3)),$$(NVCC_ARCH))$(if $(filter emu,$(3)),$$(EMU_NVCC_ARCH)) $$(call tunable_defs,$(1)))

ifneq ($(call prebuilt,$(1),$(2),$(3)),)
$(call vdir,$(1),$(2),$(3))/lab.raw.o: $(call prebuilt,$(1),$(2),$(3))
	@mkdir -p $$(@D)
	@echo "cp $(call built_src,$(1),$(2)), compiled ($(3))"
	@cp $$< $$@
	@test ! -f $$(<:.o=.resources.txt) || cp $$(<:.o=.resources.txt) $$(@D)/resources.txt
else ifeq ($(3),cpu)
$(call vdir,$(1),$(2),$(3))/lab.raw.o: $(call lab_src,$(1),$(2)) harness/core/include/lab.h $(call vdir,$(1),$(2),$(3))/flags
	@echo "$$(CC) $$(CPU_LAB_FLAGS) $$(call tunable_defs,$(1)) -c $(call built_src,$(1),$(2))"
	@$$(CCACHE) $$(CC) $$(CPU_LAB_FLAGS) $$(call tunable_defs,$(1)) -c $$< -o $$@
else ifeq ($(3),cuda)
$(call vdir,$(1),$(2),$(3))/lab.raw.o: $(call lab_src,$(1),$(2)) harness/core/include/lab.h $(call vdir,$(1),$(2),$(3))/flags
	@test -n "$$(NVCC)" || { echo "building lab $(1) for a GPU needs the CUDA toolkit (nvcc), which this machine lacks: see README.md, 'Set-up' (or use the emulator: GPU=emu)" >&2; exit 1; }
	@echo "$$(NVCC) $$(NVCC_FLAGS) $$(call tunable_defs,$(1)) -c $(call built_src,$(1),$(2))"
	@$$(CCACHE) $$(NVCC) $$(NVCC_FLAGS) $$(call tunable_defs,$(1)) -c $$< -o $$@ > $$(@D)/resources.txt 2>&1; \
	  rc=$$$$?; grep -Ev '^ptxas info|bytes stack frame' $$(@D)/resources.txt >&2; exit $$$$rc
else ifeq ($(3),emu)
$(call vdir,$(1),$(2),$(3))/lab.raw.o: $(call lab_src,$(1),$(2)) harness/core/include/lab.h $(call vdir,$(1),$(2),$(3))/flags \
                                       $(EMU_TOOLS) $(EMU_HEADERS) $(EMU_SCRIPTS)
	@TL_EMU_SHOWN="$(call built_src,$(1),$(2))" TL_EMU_ARCH="$$(EMU_NVCC_ARCH)" TL_EMU_NVDISASM="$$(EMU_NVDISASM)" harness/emu/emu-compile.sh $(B)/harness/emu-rewrite $$< $$@ $$(@D)/resources.txt $$(call tunable_defs,$(1))
endif

# Only the entry points stay global, so helpers and kernels of the
# student's file and the reference's never collide with each other or the harness.
$(call vdir,$(1),$(2),$(3))/lab.o: $(call vdir,$(1),$(2),$(3))/lab.raw.o $(ISOLATE_DEPS)
	$(ISOLATE) $$< $$@

$(call vdir,$(1),$(2),$(3))/lab.renamed.o: $(call vdir,$(1),$(2),$(3))/lab.raw.o $(ISOLATE_DEPS)
	$(ISOLATE) $$< $$@ reference_

# The suite never links the lab file: it runs the lab's code in lab-runner,
# a process of its own built beside it (harness/lab/lab_process.h).
$(call vdir,$(1),$(2),$(3))/lab-runner: $(call lab_runner,$(3)) $(call vdir,$(1),$(2),$(3))/lab.o $(LAB_REQUEST) $(CORE_LIB) $$(BACKEND_OBJS_$(3))
	$$(CC) -o $$@ $$(LINK_OBJS) $$(BACKEND_LIBS_$(3)) -lm

ifeq ($(3),cuda)
# The lab's device code alone, as nvcc embedded it: what a plan's kernels are loaded from.
$(call vdir,$(1),$(2),$(3))/lab.fatbin: $(call vdir,$(1),$(2),$(3))/lab.raw.o
	objcopy -O binary --only-section=.nv_fatbin $$< $$@
endif

$(call vdir,$(1),$(2),$(3))/test: $(call suite_dir,$(1),$(3))/test.o $(SUITE_CLIENT_$(3)) $(CORE_LIB) $(call vdir,$(1),$(2),$(3))/lab-runner \
                                 $(if $(filter cuda,$(3)),$(call vdir,$(1),$(2),$(3))/lab.fatbin)
	$$(CC) -o $$@ $$(LINK_OBJS) -lcriterion $$(SUITE_LIBS_$(3)) -lm
endef

# A lab's suite for one backend ($(2)): no line of a lab file is in it, so the
# student's build and the reference's link the same object, compiled once, and each
# hand-in the grader builds takes it from the references' build (grade-common-*).
# Its flags file holds the tunables it is compiled with.
define lab_suite
$(call suite_dir,$(1),$(2))/flags: FORCE
	$$(call stamp,$$(call tunable_defs,$(1)))

$(call suite_dir,$(1),$(2))/test.o: tests/lab$(1)_test.c $(TEST_HEADERS) $(call suite_dir,$(1),$(2))/flags
	$$(CCACHE) $$(CC) $$(CFLAGS_LAB) -Itests $$(call tunable_defs,$(1)) $$(BACKEND_CFLAGS_$(2)) -c $$< -o $$@
endef

# $(1): lab number
define lab_rules
$(foreach backend,$(if $(filter cpu,$(lab$(1)_kind)),cpu,cuda emu),
$(call lab_suite,$(1),$(backend))
$(call lab_variant,$(1),student,$(backend))
$(call lab_variant,$(1),reference,$(backend)))

$(B)/lab$(1)/bench.o: harness/bench/bench.c $(BENCH_HEADERS) $(B)/lab$(1)/student/flags \
                     $(wildcard $(call lab_src,$(1),student) $(call lab_src,$(1),reference))
	$$(CCACHE) $$(CC) $$(CFLAGS_BENCH) $(if $(filter gpu,$(lab$(1)_kind)),-DTL_LAB_GPU) $(call op_flag,$(1)) \
	  -DTL_LAB=$(patsubst 0%,%,$(1)) -DTL_LAB_DIR='"$(lab$(1)_dir)"' -DTL_LAB_TITLE='"$(lab$(1)_title)"' \
	  -DTL_COMPILER='"$(if $(filter gpu,$(lab$(1)_kind)),$$(NVCC_VERSION),$$(CC_VERSION))"' \
	  -DTL_FLAGS='"$(if $(filter gpu,$(lab$(1)_kind)),$$(NVCC_ARCH) -O3,$$(OPT))"' \
	  $$(call tunables_flags,$(1)) -c $$< -o $$@

$(B)/lab$(1)/bench_backend.o: $(call gpu_backend_src,$(1)) $(BENCH_HEADERS)
	$$(CCACHE) $$(CC) $$(CFLAGS_BENCH) $(call op_flag,$(1)) \
	  -DTL_BASELINE_LAB='"$(patsubst 0%,%,$(lab$(1)_baseline))"' -c $$< -o $$@

$(B)/lab$(1)/bench: $(B)/lab$(1)/bench.o $(B)/lab$(1)/student/lab.o $(B)/lab$(1)/reference/lab.renamed.o $(CORE_LIB) $(BENCH_OBJS) \
                    $(call bench_backend,$(1))
	$$(CC) -o $$@ $$(LINK_OBJS) $(if $(filter gpu,$(lab$(1)_kind)),$$(CUDA_LIBS) -lcublas) $$(OPENBLAS_LIBS) -lm

ifeq ($(lab$(1)_kind),cpu)
# What the grader measures under cache simulation: one lab file a binary, linked without
# debug information and local symbols (GRADE_PERF_LDFLAGS).
$(B)/lab$(1)/grade-perf-student: $(GRADE_PERF_OBJS) $(B)/lab$(1)/student/lab.o $(CORE_LIB)
	$$(CC) -o $$@ $$(LINK_OBJS) -lm $$(GRADE_PERF_LDFLAGS)
$(B)/lab$(1)/grade-perf-reference: $(GRADE_PERF_OBJS) $(B)/lab$(1)/reference/lab.o $(CORE_LIB)
	$$(CC) -o $$@ $$(LINK_OBJS) -lm $$(GRADE_PERF_LDFLAGS)
endif

ifeq ($(lab$(1)_kind),gpu)
# The grader's bench: the reference, and the student's lab as launch plans
# from its lab process (lab_plans.c); no line of the student's host code.
$(B)/lab$(1)/grade-bench: $(B)/lab$(1)/bench.o $(B)/lab$(1)/reference/lab.renamed.o $(LAB_PLANS) $(CORE_LIB) $(BENCH_OBJS) \
                          $(call bench_backend,$(1)) $(B)/lab$(1)/student/lab-runner $(B)/lab$(1)/student/lab.fatbin
	$$(CC) -o $$@ $$(LINK_OBJS) $$(CUDA_LIBS) -lcublas $$(OPENBLAS_LIBS) -lm

$(B)/lab$(1)/profile.o: harness/bench/profile.c $(BENCH_HEADERS) $(EMU_HEADERS) $(call vdir,$(1),student,emu)/flags \
                       $(wildcard $(call lab_src,$(1),student) $(call lab_src,$(1),reference))
	@mkdir -p $$(@D)
	$$(CCACHE) $$(CC) $$(CFLAGS_EMU) -Iharness/bench $(call op_flag,$(1)) $$(call tunables_flags,$(1)) -c $$< -o $$@

$(B)/lab$(1)/profile-emu: $(B)/lab$(1)/profile.o $(B)/lab$(1)/student-emu/lab.o $(B)/lab$(1)/reference-emu/lab.renamed.o $(CORE_LIB) $(EMU_OBJS)
	$$(CC) -o $$@ $$(LINK_OBJS) $$(BACKEND_LIBS_emu) -lm

# The grader's profile on the emulator: the reference counted here, the
# student's lab counted in its lab process (student-emu/lab-runner), whose
# processes have all ended before the CSV is written.
$(B)/lab$(1)/grade-profile.o: harness/bench/profile.c $(BENCH_HEADERS) $(EMU_HEADERS) $(LAB_HEADERS) $(call vdir,$(1),student,emu)/flags \
                             $(wildcard $(call lab_src,$(1),reference))
	@mkdir -p $$(@D)
	$$(CCACHE) $$(CC) $$(CFLAGS_EMU) -Iharness/bench -Iharness/lab -DTL_GRADE_PROFILE $(call op_flag,$(1)) $$(call tunables_flags,$(1)) -c $$< -o $$@

$(B)/lab$(1)/grade-profile: $(B)/lab$(1)/grade-profile.o $(B)/lab$(1)/reference-emu/lab.renamed.o $(LAB_CLIENT) $(CORE_LIB) $(EMU_OBJS) \
                            $(B)/lab$(1)/student-emu/lab-runner
	$$(CC) -o $$@ $$(LINK_OBJS) $$(BACKEND_LIBS_emu) -lm

# The same program without a student, which counts the reference alone (--reference-only):
# make references runs it once for every hand-in (REFERENCE_PROFILES, below).
$(B)/lab$(1)/reference-profile: $(B)/lab$(1)/grade-profile.o $(B)/lab$(1)/reference-emu/lab.renamed.o $(LAB_CLIENT) $(CORE_LIB) $(EMU_OBJS)
	$$(CC) -o $$@ $$(LINK_OBJS) $$(BACKEND_LIBS_emu) -lm
endif
endef

# The labs given (LABS=...) and the labs their benches time beside them
# (labNN_baseline): grading lab 9 alone still builds lab 6's reference.
BUILD_LABS := $(sort $(LABS) $(foreach n,$(LABS),$(lab$(n)_baseline)))
$(foreach n,$(BUILD_LABS),$(eval $(call lab_rules,$(n))))

# The sweep: the reference rebuilt for each (TILE_DIM, BLOCK_ROWS) pair that
# makes a valid block (BLOCK_ROWS <= TILE_DIM, at most 1024 threads), with
# TL_SWEEP defined: a reference that picks its block by the grid (lab 6's
# one-wave rule) then launches the pair it is named for.
SWEEP_TILES := 8 16 32 64
SWEEP_ROWS := 1 2 4 8 16 32
# One shell for every pair, not one a pair: it runs at each make.
SWEEP_PAIRS := $(shell for t in $(SWEEP_TILES); do for r in $(SWEEP_ROWS); do \
                 [ $$r -le $$t ] && [ $$((t * r)) -le 1024 ] && echo T$$t-R$$r; done; done)
SWEEP_LABS := $(foreach n,$(LABS),$(if $(filter TILE_DIM,$(lab$(n)_tunables)),$(if $(filter BLOCK_ROWS,$(lab$(n)_tunables)),$(n))))

# $(1): lab, $(2): tile, $(3): rows
define sweep_pair
$(B)/lab$(1)/sweep/T$(2)-R$(3)/ref.o: $(call lab_src,$(1),reference) harness/core/include/lab.h $(ISOLATE_DEPS)
	@mkdir -p $$(@D)
	@echo "$$(NVCC) -c $$< TILE_DIM=$(2) BLOCK_ROWS=$(3)"
	@$$(CCACHE) $$(NVCC) $$(NVCC_FLAGS) -DTILE_DIM=$(2) -DBLOCK_ROWS=$(3) -DTL_SWEEP -c $$< -o $$@.raw > $$(@D)/resources.txt 2>&1 \
	  || { cat $$(@D)/resources.txt >&2; exit 1; }
	@$(ISOLATE) $$@.raw $$@ reference_

$(B)/lab$(1)/sweep/T$(2)-R$(3)/bench: $(B)/lab$(1)/bench.o $(B)/lab$(1)/student/lab.o $(B)/lab$(1)/sweep/T$(2)-R$(3)/ref.o $(CORE_LIB) $(BENCH_OBJS) $(call bench_backend,$(1))
	$$(CC) -o $$@ $$(LINK_OBJS) $$(CUDA_LIBS) -lcublas -lm
endef
$(foreach n,$(SWEEP_LABS),$(foreach p,$(SWEEP_PAIRS),\
  $(eval $(call sweep_pair,$(n),$(patsubst T%,%,$(firstword $(subst -, ,$(p)))),$(patsubst R%,%,$(lastword $(subst -, ,$(p))))))))

CC_VERSION := $(shell $(CC) --version | head -1)
NVCC_VERSION := $(if $(NVCC),$(shell $(NVCC) --version | tail -1))

# ---------------------------------------------------------------- actions

VARIANT := $(if $(SOLUTION),reference,student)
LAB_DIR := $(B)/lab$(LAB)
GPU_LAB := $(filter gpu,$(lab$(LAB)_kind))
LAB_BACKEND := $(if $(GPU_LAB),$(BACKEND),cpu)
VARIANT_DIR := $(call vdir,$(LAB),$(VARIANT),$(LAB_BACKEND))
# GPU suites run one test at a time: parallel tests would share one GPU; and
# so the suite's server keeps one lab process for all of them (lab_process.h),
# as TILELAB_SUITE_SERVER=1 asks of any suite, which then runs one at a time too.
# Each test is named as it starts and as it ends ([PASS], [FAIL]): a suite on
# the emulator takes up to a minute, and says where it is.
TEST_FLAGS := $(if $(or $(filter cuda,$(LAB_BACKEND)),$(filter 1,$(TILELAB_SUITE_SERVER))),--jobs 1) --verbose
RUNS_ON := $(if $(filter cuda,$(LAB_BACKEND)),on the GPU,$(if $(filter emu,$(LAB_BACKEND)),on the CPU emulator ($(if $(filter emu,$(GPU)),GPU=emu,no GPU here)),on the CPU))
SIZES ?=
BENCH_ARGS := $(if $(SIZES),--sizes $(SIZES)) $(if $(REPS),--reps $(REPS)) $(if $(ONLY),--only $(ONLY))
# One CSV per set of flags, tunables, sizes, repetitions and variants given,
# so that runs sit side by side: a run of two sizes never replaces the full
# run in build/bench/labNN.csv, which the figures and the report draw.
# run_tag: the flags and tunables given on the command line, then $(1), what the run
# itself was given (sizes, repetitions), as one word: the bench's, the profile's and the
# cache simulation's CSVs are named so.
run_tag = $(subst $(eval) ,,$(if $(filter command line,$(origin OPT)),$(OPT)) \
            $(foreach t,$(lab$(LAB)_tunables),$(if $($(t)),-$(t)$($(t)))) $(1))
BENCH_TAG := $(call run_tag,$(if $(SIZES),-SIZES$(subst $(comma),_,$(SIZES))) $(if $(REPS),-REPS$(REPS)) \
               $(if $(ONLY),-ONLY$(subst $(comma),_,$(ONLY))))
BENCH_CSV := $(B)/bench/lab$(LAB)$(BENCH_TAG).csv
NO_GPU_HERE = { echo "$(1) needs an NVIDIA GPU$(if $(HAVE_GPU), and the CUDA toolkit (nvcc),), and this machine has none: \
  the CPU emulator checks kernels and counts their memory accesses, but its timings would say \
  nothing about a GPU. Try: make lab$(patsubst 0%,%,$(LAB)) profile" >&2; exit 1; }

.PHONY: $(KNOWN_GOALS) $(LAB_GOALS)
$(LAB_GOALS):
	@:

# A run of the student's own file leaves its TAP report, which make handin reads;
# its first line is written before the build, so that a build that fails
# leaves it alone there: make handin then says the lab did not build. Beside it,
# a digest of the file as the run began, by which make handin tells a file edited
# since from one whose time alone moved (a checkout, an editor's save).
OWN_TEST_TAP = $(if $(or $(SOLUTION),$(filter-out labs,$(STUDENT_DIR))),,$(VARIANT_DIR)/last-test.tap)
test-begun: FORCE $(B)/handin-status
	$(if $(OWN_TEST_TAP),@mkdir -p $(VARIANT_DIR) && echo "# tilelab: make lab$(patsubst 0%,%,$(LAB)) test began $$(date '+%Y-%m-%d %H:%M'); the build did not finish" > $(OWN_TEST_TAP) && \
	  $(B)/handin-status --digest $(call lab_src,$(LAB),student) > $(VARIANT_DIR)/last-test.digest)
test: test-begun $(VARIANT_DIR)/test
	@echo "== lab $(LAB) ($(lab$(LAB)_dir)), $(if $(SOLUTION),the reference solution,your code: $(call lab_src,$(LAB),student)), $(RUNS_ON)"
	@$(VARIANT_DIR)/test $(TEST_FLAGS) $(TEST_ARGS) $(if $(OWN_TEST_TAP),--tap=$(OWN_TEST_TAP))

bench: $(if $(filter emu,$(LAB_BACKEND)),,$(LAB_DIR)/bench)
	@$(if $(filter emu,$(LAB_BACKEND)),$(call NO_GPU_HERE,the GPU bench))
	@mkdir -p $(B)/bench
	@$< $(BENCH_ARGS) --csv $(BENCH_CSV)

# Memory requests per warp: counted by the emulator, or measured by ncu on a GPU.
NCU := $(or $(shell command -v ncu),$(wildcard $(CUDA_HOME)/bin/ncu))
NCU_METRICS := l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,$\
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,$\
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,$\
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# What the profile's efficiencies need besides; a profile without them still runs (the table says ?).
NCU_EFFICIENCY := smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,$\
  smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,$\
  smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
# Global atomics and reductions (RED: an atomic whose old value is not used), which ncu
# counts apart from loads and stores and the emulator as both a load and a store of their
# sectors (harness/emu/emulator.c): ncu-table.sh adds them to both. Without them an
# atomic is in neither column on a GPU.
NCU_ATOMICS := l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,$\
  l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
# One size on both: the emulator's counts and the GPU's read side by side. Unset, the
# operation's own (op.h's profile_size), which the bench and the profile print.
PROFILE_SIZE ?=
profile_size = $(or $(PROFILE_SIZE),$$($(1) --profile-size))
# One CSV per size and tunables, as the bench's: the run at the default size and
# tunables, build/bench/labNN-profile.csv, is the one make labN plot, the figures, the
# report and the slides draw, and make lab4 profile PROFILE_SIZE=4096 or TILE_DIM=16 does
# not replace it (lab04-profile-SIZE4096.csv, lab04-profile-TILE_DIM16.csv).
PROFILE_CSV := $(B)/bench/lab$(LAB)-profile$(call run_tag,$(if $(PROFILE_SIZE),-SIZE$(PROFILE_SIZE))).csv
profile: $(if $(GPU_LAB),$(if $(filter emu,$(LAB_BACKEND)),$(LAB_DIR)/profile-emu,$(LAB_DIR)/bench) $(B)/csv-rows)
	@test -n "$(GPU_LAB)" || { echo "profile counts GPU memory requests: GPU labs only (labs $(call lab_list,$(GPU_LABS))); for a CPU lab try: make lab$(patsubst 0%,%,$(LAB)) cachegrind" >&2; exit 2; }
	@mkdir -p $(B)/bench
ifeq ($(LAB_BACKEND),emu)
	@$< --size $(call profile_size,$<) --title "lab $(patsubst 0%,%,$(LAB)) ($(lab$(LAB)_dir))" --csv $(PROFILE_CSV); \
	  rc=$$?; CSV_ROWS=$(B)/csv-rows harness/tools/profile-table.sh $(PROFILE_CSV) && echo "wrote $(PROFILE_CSV)"; exit $$rc
else
	@test -n "$(NCU)" || { echo "profile on a GPU needs Nsight Compute (ncu), part of the CUDA toolkit" >&2; exit 1; }
	@s=$(call profile_size,$<); for v in reference student; do \
	  $(NCU) --metrics $(NCU_METRICS),$(NCU_EFFICIENCY),$(NCU_ATOMICS) --csv $< --only $$v --sizes $$s --reps 1 --warmup 0 \
	    > $(B)/bench/lab$(LAB)-ncu-$$v.csv 2>&1 || \
	  $(NCU) --metrics $(NCU_METRICS),$(NCU_EFFICIENCY) --csv $< --only $$v --sizes $$s --reps 1 --warmup 0 \
	    > $(B)/bench/lab$(LAB)-ncu-$$v.csv 2>&1 || \
	  $(NCU) --metrics $(NCU_METRICS) --csv $< --only $$v --sizes $$s --reps 1 --warmup 0 \
	    > $(B)/bench/lab$(LAB)-ncu-$$v.csv 2>&1 || [ $$v = student ] || { tail -20 $(B)/bench/lab$(LAB)-ncu-$$v.csv >&2; exit 1; }; \
	done
	@s=$(call profile_size,$<); CSV_ROWS=$(B)/csv-rows harness/tools/ncu-table.sh $(PROFILE_CSV) $$($< --shape-of $$s) \
	  reference=$(B)/bench/lab$(LAB)-ncu-reference.csv student=$(B)/bench/lab$(LAB)-ncu-student.csv && echo "wrote $(PROFILE_CSV)"
endif

CACHE_SIZE_DEFAULT := 2048
CACHE_SIZE ?= $(CACHE_SIZE_DEFAULT)
# One CSV per size, flags and tunables, as the bench's: the run at the default
# size and flags, build/bench/labNN-cache.csv, is the one the figures and the
# report draw, and make lab2 cachegrind BLOCK=8 or CACHE_SIZE=2000 does not
# replace it (build/bench/lab02-cache-BLOCK8.csv, lab02-cache-SIZE2000.csv).
CACHE_TUNABLES := $(strip $(foreach t,$(lab$(LAB)_tunables),$(if $($(t)),$(t)=$($(t)))))
CACHE_TAG := $(call run_tag,$(if $(filter-out $(CACHE_SIZE_DEFAULT),$(CACHE_SIZE)),-SIZE$(CACHE_SIZE)))
CACHE_CSV := $(B)/bench/lab$(LAB)-cache$(CACHE_TAG).csv
# The caches valgrind simulates for the CPU labs (size in bytes, ways, line
# bytes), the same on every machine: written here only; make labN cachegrind,
# the grader, and their CSVs and messages take them from here.
CACHE_SIM := --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
CACHEGRIND := valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no $(CACHE_SIM)
# valgrind decodes only the instructions it knows, and -march=native can give it
# others (AVX-512 on a recent CPU: SIGILL, and make lab2 cachegrind stopped there):
# the program it simulates is built apart, at -O3 as the grader's, or at the OPT
# given on the command line.
CACHEGRIND_B := $(B)/cachegrind
CACHEGRIND_OPT := $(if $(filter command line,$(origin OPT)),$(OPT),-O3)
# Its table's counts, read as the grader reads its own (harness/grade/grade_callgrind.c).
$(B)/callgrind-totals: harness/tools/callgrind_totals.c harness/grade/grade_callgrind.c harness/grade/grade_callgrind.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -Iharness/grade -o $@ $(filter %.c,$^)
cachegrind: $(if $(GPU_LAB),,$(B)/csv-rows $(B)/callgrind-totals)
	@test -z "$(GPU_LAB)" || { echo "cachegrind is for the CPU labs (labs $(call lab_list,$(CPU_LABS))); for a GPU lab try: make lab$(patsubst 0%,%,$(LAB)) sanitize" >&2; exit 2; }
	@command -v valgrind >/dev/null || { echo "cachegrind needs valgrind: run make deps" >&2; exit 1; }
	@$(MAKE) -s B=$(CACHEGRIND_B) OPT='$(CACHEGRIND_OPT)' LABS=$(LAB) $(CACHEGRIND_B)/lab$(LAB)/bench
	@mkdir -p $(B)/bench $(LAB_DIR)
	@echo "== valgrind simulates the caches while your transpose and the reference's run once at $(CACHE_SIZE) x $(CACHE_SIZE) (OPT=$(CACHEGRIND_OPT))"
	@for v in student reference; do \
	  fn=$$([ $$v = student ] && echo transpose || echo reference_transpose); \
	  $(CACHEGRIND) --toggle-collect=$$fn --callgrind-out-file=$(LAB_DIR)/callgrind.$$v.out \
	    $(CACHEGRIND_B)/lab$(LAB)/bench --once $$v --sizes $(CACHE_SIZE) 2>$(LAB_DIR)/callgrind.$$v.log \
	    || { cat $(LAB_DIR)/callgrind.$$v.log >&2; exit 1; }; \
	done
	@CACHE_SIM="$(CACHE_SIM)" FLAGS="$(CACHEGRIND_OPT)" TUNABLES="$(CACHE_TUNABLES)" CSV_ROWS=$(B)/csv-rows CALLGRIND_TOTALS=$(B)/callgrind-totals \
	  harness/tools/cache-table.sh $(LAB) $(CACHE_SIZE) $(LAB_DIR)/callgrind.student.out $(LAB_DIR)/callgrind.reference.out $(CACHE_CSV)

SANITIZER := $(or $(shell command -v compute-sanitizer),$(wildcard $(CUDA_HOME)/bin/compute-sanitizer))
SANITIZE_TOOLS := memcheck racecheck synccheck initcheck
# Each run once on buffers of exactly its size: SANITIZE_SIZES=, or the operation's own
# (op.h's sanitize_sizes: small shapes that end mid-tile both ways), which the bench takes.
SANITIZE_NO_GPU = { echo "compute-sanitizer needs an NVIDIA GPU, and this machine has none. Here the emulator \
  does its work: make lab$(patsubst 0%,%,$(LAB)) test reports out-of-bounds accesses, races on shared memory \
  and barriers that not all threads reach, naming the thread." >&2; exit 1; }
sanitize: $(if $(filter cuda,$(LAB_BACKEND)),$(LAB_DIR)/bench)
	@test -n "$(GPU_LAB)" || { echo "sanitize runs compute-sanitizer on a GPU lab (labs $(call lab_list,$(GPU_LABS))); for a CPU lab try: make lab$(patsubst 0%,%,$(LAB)) cachegrind" >&2; exit 2; }
	@$(if $(filter emu,$(LAB_BACKEND)),$(SANITIZE_NO_GPU))
	@test -n "$(SANITIZER)" || { echo "sanitize needs compute-sanitizer, part of the CUDA toolkit" >&2; exit 1; }
	@echo "== compute-sanitizer on $(if $(SOLUTION),the reference's kernels,your kernels) of lab $(patsubst 0%,%,$(LAB)), once at each of $(or $(SANITIZE_SIZES),its operation's sanitize sizes (harness/core/ops/$(call op_of,$(LAB)).c))"
	@status=0; for tool in $(SANITIZE_TOOLS); do \
	  $(SANITIZER) --tool $$tool $< --once $(VARIANT) $(if $(SANITIZE_SIZES),--sizes $(SANITIZE_SIZES)) >$(LAB_DIR)/sanitize-$$tool.log 2>&1; \
	  harness/tools/sanitize-verdict.sh $$tool $(LAB_DIR)/sanitize-$$tool.log || status=1; \
	done; \
	echo "(each tool's whole output: $(LAB_DIR)/sanitize-TOOL.log)"; exit $$status

SWEEP_SIZES ?= 8192
sweep: $(if $(filter $(LAB),$(SWEEP_LABS)),$(if $(filter cuda,$(LAB_BACKEND)),$(SWEEP_PAIRS:%=$(LAB_DIR)/sweep/%/bench)))
	@test -n "$(filter $(LAB),$(SWEEP_LABS))" || { echo "sweep is for the labs tuned by TILE_DIM and BLOCK_ROWS: $(patsubst 0%,lab%,$(SWEEP_LABS))" >&2; exit 2; }
	@$(if $(filter emu,$(LAB_BACKEND)),$(call NO_GPU_HERE,the sweep))
	@mkdir -p $(B)/bench
	@rm -f $(B)/bench/lab$(LAB)-sweep.csv
	@for p in $(SWEEP_PAIRS); do \
	  t=$${p%-*}; r=$${p#*-}; \
	  echo "== TILE_DIM=$${t#T} BLOCK_ROWS=$${r#R}"; \
	  $(LAB_DIR)/sweep/$$p/bench --only ceiling,reference --sizes $(SWEEP_SIZES) $(if $(REPS),--reps $(REPS)) \
	    --tag "TILE_DIM=$${t#T} BLOCK_ROWS=$${r#R}" --csv $(B)/bench/lab$(LAB)-sweep.csv \
	    $$([ -f $(B)/bench/lab$(LAB)-sweep.csv ] && echo --append) | grep -E '^ +reference|^[0-9]' || exit 1; \
	done
	@echo "wrote $(B)/bench/lab$(LAB)-sweep.csv"

resources: $(VARIANT_DIR)/lab.o
	@test -n "$(GPU_LAB)" || { echo "resources shows the GPU compiler's report: GPU labs only (labs $(call lab_list,$(GPU_LABS)))" >&2; exit 2; }
	@grep -E 'Compiling|Used|^emulator:' $(VARIANT_DIR)/resources.txt || echo "no kernel found in $(VARIANT_DIR)/resources.txt"

# ---------------------------------------------------------------- the kit

# Stripped: a foreach leaves a space for each lab it skips, and $(and ...) reads spaces as true.
CPU_LABS := $(strip $(foreach n,$(LABS),$(if $(filter cpu,$(lab$(n)_kind)),$(n))))
GPU_LABS := $(strip $(foreach n,$(LABS),$(if $(filter gpu,$(lab$(n)_kind)),$(n))))

# The table of labs (LABS_TSV, above): tl-labs is given each lab of LABS and every
# labNN_ variable labs.mk sets for it, and checks them (a misspelt field, an
# unknown kind or operation stops make here, named).
shell_quote = '$(subst ','\'',$(1))'
$(B)/tl-labs: harness/tools/labs.c $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -Iharness/core/include -o $@ $< $(CORE_LIB) -lm
$(LABS_TSV): labs/labs.mk Makefile $(B)/tl-labs
	@$(B)/tl-labs $(foreach n,$(LABS),$(n) $(foreach v,$(sort $(filter lab$(n)_%,$(.VARIABLES))),$(call shell_quote,$(patsubst lab$(n)_%,%,$(v))=$($(v))))) \
	  >$@.$$$$ && mv $@.$$$$ $@ || { rm -f $@.$$$$; exit 2; }

UNIT_TESTS := tests/harness_test.c tests/checker_inplace_test.c tests/checker_reduce_test.c tests/timing_lock_test.c tests/csv_test.c tests/op_test.c tests/launch_compare_test.c
$(B)/unit: $(UNIT_TESTS) $(CORE_LIB) $(CORE_HEADERS)
	$(CC) $(CFLAGS_HARNESS) -Itests -o $@ $(UNIT_TESTS) $(CORE_LIB) -lcriterion -lm

unit: $(B)/unit $(B)/bench-report-test
	@$<
	@$(B)/bench-report-test

# The bench's report against a back end of fixed numbers: any subset of variants.
$(B)/bench-report-test: tests/bench_report_test.c $(BENCH_OBJS) $(CORE_LIB) $(BENCH_HEADERS)
	$(CC) $(CFLAGS_BENCH) -Itests -o $@ $< $(BENCH_OBJS) $(CORE_LIB) -lcriterion -lm

# Launch plans, the recording side (needs nvcc, no GPU): the lab processes
# of lab 6's reference and stub built for a GPU, asked for plans.
# And lab files of its own (tests/plans/NAME.cu), each a lab process in $(B)/plans/NAME/.
PLAN_CASES := $(patsubst tests/plans/%.cu,$(B)/plans/%/lab-runner,$(wildcard tests/plans/*.cu))
$(B)/plans/%/lab-runner: tests/plans/%.cu harness/core/include/lab.h $(call lab_runner,cuda) $(LAB_REQUEST) $(CORE_LIB) $(BACKEND_OBJS_cuda) $(ISOLATE_DEPS)
	@mkdir -p $(@D)
	$(CCACHE) $(NVCC) $(NVCC_FLAGS) -c $< -o $(@D)/lab.raw.o > $(@D)/resources.txt 2>&1 || { cat $(@D)/resources.txt; exit 1; }
	$(ISOLATE) $(@D)/lab.raw.o $(@D)/lab.o
	$(CC) -o $@ $(call lab_runner,cuda) $(@D)/lab.o $(LAB_REQUEST) $(BACKEND_OBJS_cuda) $(CORE_LIB) $(BACKEND_LIBS_cuda) -lm
$(B)/plan-test: tests/plan_test.c $(LAB_CLIENT) $(CORE_LIB) $(LAB_HEADERS) $(B)/lab06/reference/lab-runner $(B)/lab06/student/lab-runner $(PLAN_CASES)
	$(CC) $(CFLAGS_LAB) -o $@ $< $(LAB_CLIENT) $(CORE_LIB) -lcriterion -lm

# The emulator's own tests: planted races, out-of-bounds accesses, bad
# launches and access patterns with known counts.
# One suite of several files (tests/emu_test.c, tests/emu_*_test.c), each with
# its kernels beside it (tests/emu_kernels.cu, tests/emu_*_kernels.cu).
EMU_TEST_SRCS := tests/emu_test.c $(wildcard tests/emu_*_test.c)
EMU_KERNEL_OBJS := $(patsubst tests/%.cu,$(B)/emu-test.d/%.o,$(wildcard tests/emu_*kernels.cu))
$(B)/emu-test.d/%.o: tests/%.cu $(wildcard tests/*.cuh) $(EMU_TOOLS) $(EMU_HEADERS) $(EMU_SCRIPTS)
	@mkdir -p $(@D)
	@TL_EMU_NVDISASM="$(EMU_NVDISASM)" harness/emu/emu-compile.sh $(B)/harness/emu-rewrite $< $@ $(@:.o=.resources.txt) -Itests
$(B)/emu-test: $(EMU_TEST_SRCS) $(EMU_KERNEL_OBJS) $(CORE_LIB) $(EMU_OBJS) $(GPU_HEADERS) $(EMU_HEADERS) $(EMU_TOOLS)
	$(CC) $(CFLAGS_EMU) -Itests -DTL_EMU_REWRITE='"$(B)/harness/emu-rewrite"' -o $@ $(EMU_TEST_SRCS) $(EMU_KERNEL_OBJS) $(EMU_OBJS) $(CORE_LIB) -lcriterion $(BACKEND_LIBS_emu) -lm

# The fidelity corpus: small lab files with the verdict a GPU gives each
# (tests/emu_corpus/run.sh), run on this machine's backend: GPU=cuda for
# the GPU, GPU=emu for the emulator.
CORPUS := $(sort $(wildcard tests/emu_corpus/*.cu)) $(sort $(wildcard tests/emu_corpus/limits/*.cu))
# Each lab's suite is the one its rules compile (the reference's test.o): the corpus links it.
emu-corpus: $(EMU_TOOLS) $(CORE_LIB) $(SUITE_CLIENT_$(BACKEND)) $(BACKEND_OBJS_$(BACKEND)) $(LABS_TSV) $(B)/csv-rows \
            $(foreach n,$(GPU_LABS),$(call suite_dir,$(n),$(BACKEND))/test.o)
	@B=$(B) BACKEND=$(BACKEND) CC='$(CC)' CFLAGS='$(CFLAGS_LAB)' BACKEND_CFLAGS='$(BACKEND_CFLAGS_$(BACKEND))' LAB_REQUEST='$(LAB_REQUEST)' \
	  CORE='$(CORE_LIB)' CLIENT='$(SUITE_CLIENT_$(BACKEND)) $(SUITE_LIBS_$(BACKEND))' BACKEND_OBJS='$(BACKEND_OBJS_$(BACKEND))' LIBS='$(BACKEND_LIBS_$(BACKEND))' \
	  SUITE_OBJ='$(call suite_dir,@LAB@,$(BACKEND))/test.o' LABS_TSV=$(LABS_TSV) \
	  NVCC='$(NVCC)' NVCC_FLAGS='$(NVCC_FLAGS)' \
	  $(SHELL) tests/emu_corpus/run.sh $(CORPUS)

# Every suite runs on the GPU when there is one, on the emulator otherwise;
# with nvcc present the GPU builds are compiled (warnings as errors) either way.
check_dir = $(call vdir,$(1),$(2),$(if $(filter gpu,$(lab$(1)_kind)),$(BACKEND),cpu))
CHECK_BUILDS := $(B)/unit $(B)/bench-report-test $(B)/emu-test $(EMU_TOOLS) \
  $(foreach n,$(LABS),$(call check_dir,$(n),student)/test $(call check_dir,$(n),reference)/test) \
  $(foreach n,$(CPU_LABS),$(B)/lab$(n)/bench) \
  $(if $(NVCC),$(foreach n,$(GPU_LABS),$(B)/lab$(n)/student/test $(B)/lab$(n)/reference/test $(B)/lab$(n)/bench) $(B)/plan-test)

# What the suites below use from this build folder besides, built here once:
# suites that run side by side must find it up to date, never build it at
# the same time (the grader's tools and the references, the emulator's
# profiles, the figures' tools).
CHECK_SHARED = $(GRADE_TOOLS) $(foreach n,$(GPU_LABS),$(B)/lab$(n)/profile-emu) $(FIGURE_TOOLS) $(B)/report-table

# make check's compile cache, where make deps installed ccache: every build its suites run,
# in this build folder and in their copies of the kit, goes through it (TILELAB_CCACHE,
# above), so that a file compiled again with the same flags, in another copy, is a hit.
# It lies in the build folder; the folder a compile runs in (a copy's) is not part of its
# key (hash_dir), nor is a header's being new (a copy's files are). The emulator's corpus
# compiles each of its files once, and goes without.
CHECK_CACHE = $(if $(shell command -v ccache),TILELAB_CCACHE=$(abspath $(B))/ccache CCACHE_DIR=$(abspath $(B))/ccache CCACHE_NOHASHDIR=1 \
  CCACHE_SLOPPINESS=include_file_ctime$(comma)include_file_mtime)

# A shell suite of tests/ as a line of the plan (harness/tools/check-suites.sh):
# $(1) its name; $(2) what it waits for (after=): build, the plan's first step,
# which builds what suites read of build/ (CHECK_BUILDS, CHECK_SHARED), and
# another suite where both write one folder (make dist's); nothing for a suite
# that reads nothing of build/ (it builds in a copy of the kit, or in a folder
# of its own), which runs beside the build; $(3) the script. Each suite has a
# lock of its own for the grading it does (grade.sh's TILELAB_GRADE_LOCK), so
# that a test run again alone waits for its own suite's grading, never for the
# suites beside it.
cli_suite = echo "cli $(1) $(if $(2),after=$(2)) env B=$(B) TILELAB_GRADE_LOCK=$(abspath $(B))/.grade-lock-$(1) $(SHELL) $(3)";

# The held-back test runs too, on cases of the lab's operation's own form: its
# small sizes that end mid-tile, from the table of labs (read in check's recipe).
check_env = env TILELAB_HIDDEN=$${lab_small_sizes[$(1)]}
# As many suites at once as cores (most of a suite's time is one core, or
# waiting), and the build among them as parallel: CHECK_JOBS=1 runs all one after another.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# The plan's order is the order suites start in where they may (and their results are
# printed in): the longest chains of work first, the grader's and the handouts' commands
# (minutes, one command after another), then the corpus, whose files run side by side and
# fill whatever cores the others leave.
check: $(LABS_TSV) $(B)/csv-rows $(B)/cpu-of
	@echo "== GPU suites run $(if $(filter cuda,$(BACKEND)),on the GPU,on the CPU emulator (no GPU here)), $(CHECK_JOBS) at a time; the build first, beside the suites that need nothing of it"
	@. harness/tools/labs.sh && CSV_ROWS=$(B)/csv-rows labs_read $(LABS_TSV) && \
	 { echo "step build $(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) $(CHECK_BUILDS) $(CHECK_SHARED)"; \
	   $(call cli_suite,documented-commands,,tests/docs_test.sh) \
	   $(call cli_suite,grader,build,tests/grader_test.sh) \
	   echo "cli emulator-corpus after=build env -u TILELAB_CCACHE $(MAKE) -s B=$(B) GPU=$(BACKEND) emu-corpus"; \
	   $(call cli_suite,hostile,build,tests/hostile_test.sh $(B)/hostile) \
	   $(call cli_suite,slurm,build,tests/slurm_test.sh) \
	   $(call cli_suite,class,build,tests/class_test.sh) \
	   echo "pass harness after=build $(B)/unit"; \
	   echo "pass bench-report after=build $(B)/bench-report-test"; \
	   echo "pass emulator after=build $(B)/emu-test"; \
	   $(if $(NVCC),echo "pass plans after=build $(B)/plan-test",echo "skip plans nvcc is not installed, so no lab process is built for a GPU"); \
	   $(foreach n,$(LABS),echo "pass lab$(n)-reference after=build $(call check_env,$(n)) $(call check_dir,$(n),reference)/test $(if $(and $(filter gpu,$(lab$(n)_kind)),$(filter cuda,$(BACKEND))),--jobs 1)"; \
	                       echo "fail lab$(n)-stub after=build $(call check_env,$(n)) $(call check_dir,$(n),student)/test $(if $(and $(filter gpu,$(lab$(n)_kind)),$(filter cuda,$(BACKEND))),--jobs 1)";) \
	   $(call cli_suite,command-line,build,tests/cli_test.sh) \
	   $(call cli_suite,suite-server,build,tests/server_test.sh) \
	   $(call cli_suite,figures,build,tests/plots_test.sh) \
	   $(call cli_suite,profile,build,tests/profile_test.sh) \
	   $(call cli_suite,emulator-tools,build,tests/emu_tools_test.sh) \
	   $(call cli_suite,student-kit,build,tests/dist_test.sh) \
	   $(call cli_suite,gradescope,build$(comma)student-kit,tests/gradescope_test.sh) \
	   $(call cli_suite,tunables,,tests/tunables_test.sh) \
	   $(if $(SLIDE_TOOLS),$(call cli_suite,slides,,tests/slides_test.sh),echo "skip slides pandoc and LaTeX (beamer) are not installed, so the decks are not built: make deps installs them";) \
	   $(call cli_suite,new-lab,,tests/newlab_test.sh) \
	   $(call cli_suite,new-operation,,tests/newop_test.sh) \
	   $(call cli_suite,labs,,tests/labs_test.sh) \
	   $(call cli_suite,scripts,,tests/scripts_test.sh) \
	   $(call cli_suite,sanitize,,tests/sanitize_test.sh) \
	 } | $(CHECK_CACHE) CPU_OF=$(B)/cpu-of harness/tools/check-suites.sh -j $(CHECK_JOBS)

# What each suite of make check ran, in CPU time: its orphans (a sandbox's
# commands, its lab processes) counted too (harness/tools/check-suites.sh).
$(B)/cpu-of: harness/tools/cpu_of.c harness/core/src/timer.c harness/core/include/timer.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)

# ---------------------------------------------------------------- grading

# A build's compiled references (make references below builds the one that is used).
PREBUILT_DIR := $(B)/prebuilt
lab_backends = $(if $(filter cpu,$(lab$(1)_kind)),cpu,emu $(if $(NVCC),cuda))
# $(1): lab, $(2): backend, $(3): the folder of compiled references it goes to
define prebuilt_rule
$(3)/lab$(1)-$(2).o: $(call vdir,$(1),reference,$(2))/lab.raw.o
	@mkdir -p $$(@D)
	cp $$< $$@
	@if [ -f $$(<D)/resources.txt ]; then cp $$(<D)/resources.txt $$(@:.o=.resources.txt); fi
endef
ifeq ($(REFERENCE_PREBUILT),)
$(foreach n,$(BUILD_LABS),$(foreach b,$(call lab_backends,$(n)),$(eval $(call prebuilt_rule,$(n),$(b),$(PREBUILT_DIR)))))
else
# The student kit (make dist) has no sources to compile them from: its
# compiled references are the grader's, as they are (make gradescope grades with the kit).
$(PREBUILT_DIR)/%.o: $(REFERENCE_PREBUILT)/%.o
	@mkdir -p $(@D)
	cp $< $@
	@if [ -f $(<:.o=.resources.txt) ]; then cp $(<:.o=.resources.txt) $(@:.o=.resources.txt); fi
# A kit made for some labs (make dist LABS="1 2 3") holds their references alone: another
# lab's SOLUTION=1 says so, where make said only "No rule to make target
# 'solutions/prebuilt/lab04-emu.o'" (an instructor's trial, 2026-11-28).
KIT_REFERENCE_LABS = $(patsubst 0%,%,$(sort $(foreach f,$(wildcard $(REFERENCE_PREBUILT)/lab*.o),$(firstword $(subst -, ,$(patsubst lab%,%,$(notdir $(f))))))))
$(REFERENCE_PREBUILT)/lab%.o:
	@echo "This kit has no reference solution of lab $(patsubst 0%,%,$(firstword $(subst -, ,$*))): it was made for lab$(if $(word 2,$(KIT_REFERENCE_LABS)),s) $(KIT_REFERENCE_LABS) alone, so SOLUTION=1 runs only $(if $(word 2,$(KIT_REFERENCE_LABS)),those,that one). Your own file's tests, make lab$(patsubst 0%,%,$(firstword $(subst -, ,$*))) test, still run; ask your instructor whether the lab is part of your course." >&2; exit 2
endif
REFERENCES := $(foreach n,$(BUILD_LABS),$(foreach b,$(call lab_backends,$(n)),$(PREBUILT_DIR)/lab$(n)-$(b).o))
# Beside them, each GPU reference's counts on the emulator at the grader's size, counted
# once: every grading of a hand-in on the emulator takes them (grade-lab gives grade-profile
# --reference-rows), where it counted them again each time (a product's, seconds each).
REFERENCE_PROFILES := $(foreach n,$(BUILD_LABS),$(if $(filter gpu,$(lab$(n)_kind)),$(PREBUILT_DIR)/lab$(n)-emu.profile.csv))
$(PREBUILT_DIR)/lab%-emu.profile.csv: $(B)/lab%/reference-profile
	@mkdir -p $(@D)
	$< --reference-only --grade-size --csv $@ >/dev/null 2>$@.log || { cat $@.log >&2; rm -f $@; exit 1; }
	@rm -f $@.log

# The references, compiled once for all that uses them: the grader (make
# grade, grade-all, Slurm), the student kit and Gradescope's autograder (make
# dist, make gradescope). One build, with the grader's flags: -O3 without
# -march, so that valgrind decodes every instruction and every machine grades
# alike, and a fat binary for the GPU, which runs on any GPU the kit supports
# (on an H100 its sm_90 code is a native build's). The suites' manifests, what
# each test grades, come from the same build.
# Beside them, what every hand-in's build shares (grade-common-*, below): the
# harness, no line of a hand-in's, which the grader copies into each
# hand-in's build rather than compile it again for every one of a class.
REFERENCE_BUILD := $(B)/grade-build
REFERENCE_OBJECTS = $(REFERENCES:$(B)/%=$(REFERENCE_BUILD)/%)
# Where this build compiles for the GPU as the references' build does (a fat
# binary: no GPU here and CUDA_ARCH unset), a GPU reference of the two is one
# compilation (NVCC_FLAGS leave OPT out), which make check did twice, five
# architectures each: the references' build takes this build's.
REFERENCE_CUDA_SHARED := $(if $(and $(NVCC),$(filter fat,$(CUDA_ARCH)),$(if $(REFERENCE_PREBUILT),,1)), \
  $(foreach n,$(BUILD_LABS),$(if $(filter gpu,$(lab$(n)_kind)),$(REFERENCE_BUILD)/prebuilt/lab$(n)-cuda.o)))
$(foreach o,$(REFERENCE_CUDA_SHARED),$(eval $(call prebuilt_rule,$(patsubst $(REFERENCE_BUILD)/prebuilt/lab%-cuda.o,%,$(o)),cuda,$(REFERENCE_BUILD)/prebuilt)))
# What the hand-ins' builds share (REFERENCE_SHARED, below) the references'
# build takes from this one where it has none yet.
references: $(REFERENCE_CUDA_SHARED)
	@[ -d $(REFERENCE_BUILD)/harness ] || { mkdir -p $(REFERENCE_BUILD) && cd $(B) && \
	  cp -p --parents $(patsubst $(B)/%,%,$(REFERENCE_SHARED)) $(abspath $(REFERENCE_BUILD)); }
	@$(MAKE) -s B=$(REFERENCE_BUILD) OPT=-O3 CUDA_ARCH=fat $(filter-out $(REFERENCE_CUDA_SHARED),$(REFERENCE_OBJECTS)) \
	  $(GRADE_MANIFESTS:$(B)/%=$(REFERENCE_BUILD)/%) $(GRADE_REFERENCE_TESTS:$(B)/%=$(REFERENCE_BUILD)/%) $(GRADE_COMMON:$(B)/%=$(REFERENCE_BUILD)/%) \
	  $(REFERENCE_PROFILES:$(B)/%=$(REFERENCE_BUILD)/%)

# The grader's own programs: scoring, running under limits, confining a measured run, the
# setpriv sandbox's view of the machine, probing the GPU.
GRADE_REPORT_SOURCES := $(addprefix harness/grade/,grade_report.c grade_book.c grade_weights.c grade_measure.c grade_callgrind.c grade_text.c)
$(B)/grade-report: $(GRADE_REPORT_SOURCES) $(CSV_READER) $(wildcard harness/grade/grade_*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/grade-run: harness/grade/grade_run.c harness/grade/grade_parts.c harness/grade/grade_cpu.c harness/core/src/timer.c harness/grade/grade_parts.h harness/grade/grade_cpu.h harness/core/include/timer.h
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/grade-confine: harness/grade/grade_confine.c harness/core/include/seccomp_site.h
	$(CC) $(CFLAGS_HARNESS) -o $@ $<
$(B)/grade-private: harness/grade/grade_private.c
	$(CC) $(CFLAGS_HARNESS) -o $@ $<
# What the grader does for a lab: builds, tests, measurements, each in its sandbox (grade_lab.h).
GRADE_LAB_SOURCES := $(addprefix harness/grade/,grade_lab_main.c grade_lab.c grade_grading.c grade_command.c grade_setpriv.c \
                     grade_tree.c grade_quota.c grade_build.c grade_plan.c grade_tests.c grade_retry.c grade_measuring.c \
                     grade_measured.c grade_held_back.c grade_misplaced.c grade_outcomes.c grade_sandbox.c grade_text.c)
$(B)/grade-lab: $(GRADE_LAB_SOURCES) $(wildcard harness/grade/grade_*.h) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^) $(CORE_LIB) -lm
$(B)/grade-held-back: harness/grade/grade_held_back_main.c harness/grade/grade_held_back.c harness/grade/grade_held_back.h $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^) $(CORE_LIB) -lm
$(B)/grade-misplaced: harness/grade/grade_misplaced_main.c harness/grade/grade_misplaced.c harness/grade/grade_misplaced.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/grade-name: harness/grade/grade_name.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $<
$(B)/grade-unpack: harness/grade/grade_unpack.c harness/grade/grade_unpack_folder.c harness/grade/grade_unpack.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/grade-sandbox: harness/grade/grade_sandbox_main.c harness/grade/grade_sandbox.c harness/grade/grade_sandbox.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/grade-gpu-probe: $(B)/harness/grade/grade_gpu_probe.o $(GPU_OBJS) $(CORE_LIB)
	$(CC) -o $@ $(LINK_OBJS) $(CUDA_LIBS) -lm

# What a hand-in's labs all link, by backend: the grader builds it once, then
# the labs' own builds side by side (harness/grade/grade.sh). The labs' suites and the
# lab process's own part too: no line of a hand-in's is in them.
grade_suites = $(call lab_runner,$(1)) $(foreach n,$(2),$(call suite_dir,$(n),$(1))/test.o)
GRADE_SHARED_cpu = $(CORE_LIB) $(LAB_CLIENT) $(GRADE_PERF_OBJS) $(call grade_suites,cpu,$(CPU_LABS))
GRADE_SHARED_emu = $(CORE_LIB) $(LAB_CLIENT) $(EMU_OBJS) $(EMU_TOOLS) $(call grade_suites,emu,$(GPU_LABS))
GRADE_SHARED_cuda = $(CORE_LIB) $(LAB_PLANS) $(GPU_OBJS) $(B)/harness/gpu/plan_record.o $(BENCH_OBJS) $(call grade_suites,cuda,$(GPU_LABS)) \
                    $(B)/harness/bench/bench_gpu_transpose.o $(B)/harness/bench/bench_gpu_run.o
$(B)/grade-common-cpu: $(GRADE_SHARED_cpu)
$(B)/grade-common-emu: $(GRADE_SHARED_emu)
$(B)/grade-common-cuda: $(GRADE_SHARED_cuda) $(foreach n,$(LABS),$(if $(lab$(n)_baseline),$(B)/lab$(lab$(n)_baseline)/reference/lab.renamed.o))
$(B)/grade-common-%:
	@touch $@
GRADE_COMMON = $(if $(CPU_LABS),$(B)/grade-common-cpu) $(if $(GPU_LABS),$(B)/grade-common-emu $(if $(filter cuda,$(BACKEND)),$(B)/grade-common-cuda))
# What they share holds no line of a lab file, and the references' build compiles
# it as this one does (OPT is a lab file's alone): a references' build that has
# none of it yet starts from this build's, copied with their times and flags
# files, and compiles again only what its flags files say differs.
REFERENCE_SHARED := $(sort $(HARNESS_FLAGS) $(CORE_OBJS) $(B)/harness/core/operations.h \
  $(if $(CPU_LABS),$(GRADE_SHARED_cpu)) $(if $(GPU_LABS),$(GRADE_SHARED_emu) $(if $(filter cuda,$(BACKEND)),$(GRADE_SHARED_cuda))) \
  $(foreach n,$(LABS),$(call suite_dir,$(n),$(if $(filter cpu,$(lab$(n)_kind)),cpu,emu))/flags \
    $(if $(and $(filter gpu,$(lab$(n)_kind)),$(filter cuda,$(BACKEND))),$(call suite_dir,$(n),cuda)/flags)))
references: $(REFERENCE_SHARED)

# Each suite's tests and what they grade, written by the suite itself
# (TILELAB_MANIFEST) from the reference's build: never a student's.
GRADE_MANIFESTS := $(foreach n,$(LABS),$(B)/grade-manifest/lab$(n).tests)
$(foreach n,$(LABS),$(eval $(B)/grade-manifest/lab$(n).tests: $(call vdir,$(n),reference,$(if $(filter gpu,$(lab$(n)_kind)),emu,cpu))/test))
$(GRADE_MANIFESTS):
	@mkdir -p $(@D)
	TILELAB_MANIFEST=$@ $<

# On a GPU, the references' suites built for it too: a test that timed out is
# run again with the reference's time for it on the machine (grade_retry.c).
GRADE_REFERENCE_TESTS := $(if $(filter cuda,$(BACKEND)),$(foreach n,$(GPU_LABS),$(B)/lab$(n)/reference/test))
GRADE_TOOLS := references $(B)/grade-report $(B)/grade-run $(B)/grade-confine $(B)/grade-private $(B)/grade-sandbox $(B)/grade-lab $(B)/grade-held-back $(B)/grade-misplaced $(B)/grade-name $(B)/grade-unpack $(if $(NVCC),$(B)/grade-gpu-probe) \
               $(LABS_TSV) $(B)/csv-rows

GRADE_DIR ?= $(B)/grade
VALGRIND ?= $(shell command -v valgrind)
GRADE_ENV = LABS_TSV=$(abspath $(LABS_TSV)) BACKEND=$(BACKEND) PREBUILT=$(abspath $(REFERENCE_BUILD))/prebuilt \
            MANIFESTS=$(abspath $(REFERENCE_BUILD))/grade-manifest WEIGHTS=$(ROOT)/labs/grading.conf \
            HIDDEN="$(if $(HIDDEN),$(abspath $(HIDDEN)))" TOOLS=$(abspath $(B)) VALGRIND="$(VALGRIND)" \
            CACHE_SIM="$(CACHE_SIM)" KEEP_BUILD="$(KEEP_BUILD)" HIDDEN_VISIBILITY="$(HIDDEN_VISIBILITY)"

# Which hand-in, said before anything is built.
ifneq ($(filter grade,$(MAKECMDGOALS)),)
ifeq ($(SUBMISSION),)
$(error which hand-in? make grade SUBMISSION=handin.tar.gz (a file from make handin, or a folder holding labs/NN-name/ files))
endif
# (by the shell, not $(wildcard): a name with spaces is one file, "Erin Smith (late).tar.gz")
ifeq ($(shell test -e $(call shell_quote,$(SUBMISSION)) && echo yes),)
$(error no such hand-in: $(SUBMISSION))
endif
endif
ifneq ($(filter grade-all,$(MAKECMDGOALS)),)
ifeq ($(and $(SUBMISSIONS),$(shell test -d $(call shell_quote,$(SUBMISSIONS)) && echo yes)),)
$(error which folder of hand-ins? make grade-all SUBMISSIONS=handins/ (a folder of .tar.gz files and folders); '$(SUBMISSIONS)' is not one)
endif
ifeq ($(filter-out slurm,$(SCHEDULER)),)
else
$(error SCHEDULER=$(SCHEDULER): the one scheduler known is slurm (leave SCHEDULER out to grade on this machine))
endif
endif
# A CPU lab's performance is its simulated cache misses: without valgrind no
# hand-in could earn those points, so grading stops before it scores anyone.
ifneq ($(and $(filter grade grade-all,$(MAKECMDGOALS)),$(CPU_LABS)),)
ifeq ($(wildcard $(VALGRIND)),)
$(error the CPU labs' performance is measured with valgrind's cache simulator, and this machine has no valgrind$(if $(VALGRIND), at $(VALGRIND)): run make deps (or grade the GPU labs alone: make grade LABS="$(strip $(GPU_LABS))" ...))
endif
endif
ifneq ($(filter-out hidden after_due_date after_published,$(HIDDEN_VISIBILITY)),)
$(error HIDDEN_VISIBILITY=$(HIDDEN_VISIBILITY): held-back tests are hidden (the default), after_due_date or after_published, as Gradescope names them)
endif
ifneq ($(and $(filter grade grade-all gradescope,$(MAKECMDGOALS)),$(HIDDEN)),)
ifeq ($(wildcard $(HIDDEN)),)
$(error no such file of held-back cases: HIDDEN=$(HIDDEN))
endif
endif

grade: $(GRADE_TOOLS)
	@$(GRADE_ENV) harness/grade/grade.sh $(call shell_quote,$(SUBMISSION)) $(GRADE_DIR)
	@[ ! -f $(GRADE_DIR)/gradebook.csv ] || echo "grade: note: $(GRADE_DIR)/gradebook.csv is grade-all's and was not updated: its row of this hand-in is the class's grading's still; make grade-all of the class's folder (with its LABS= and HIDDEN=) writes it again (INSTRUCTORS.md: Grading one student again)"

# SCHEDULER=slurm: one Slurm job array instead, one task a hand-in (harness/grade/grade-slurm.sh).
SLURM_ENV = PARTITION="$(PARTITION)" ACCOUNT="$(ACCOUNT)" TIME="$(TIME)" GRES="$(GRES)" \
            SBATCH_EXTRA="$(SBATCH_EXTRA)" WAIT="$(WAIT)" POLL="$(POLL)"
grade-all: $(GRADE_TOOLS)
	@$(GRADE_ENV) SUBMISSIONS="$$(cd $(call shell_quote,$(SUBMISSIONS)) && pwd)" \
	  $(if $(filter slurm,$(SCHEDULER)),$(SLURM_ENV) harness/grade/grade-slurm.sh,harness/grade/grade-all.sh) $(call shell_quote,$(SUBMISSIONS)) $(GRADE_DIR)

# A Slurm cluster of one node, this machine, to try SCHEDULER=slurm on
# (harness/grade/slurm/cluster.sh): its configuration and logs in SLURM_DIR.
SLURM_DIR ?= $(B)/slurm-cluster
slurm-start slurm-stop:
	@harness/grade/slurm/cluster.sh $(patsubst slurm-%,%,$@) $(SLURM_DIR)

# The public catalogue of leaderboard cheats as hand-ins (tests/hostile/), each
# beside an honest control of the same effort, and the references (unless
# HOSTILE= picks some of the catalogue), graded as one class on this machine:
# on a GPU, the record to keep in plots/data/ (RECORD=plots/data/FILE.csv copies it there).
hostile:
	@REFERENCES=$(if $(HOSTILE),,1) HOSTILE='$(HOSTILE)' B=$(B) $(SHELL) tests/hostile_test.sh $(B)/hostile
	@$(if $(RECORD),cp $(B)/hostile/hostile.csv $(RECORD) && echo "recorded $(RECORD)")

HANDIN_FILES := $(foreach n,$(LABS),labs/$(lab$(n)_dir)/$(lab$(n)_file))
# Each lab it packs: a stub still, passing N of M at its last make labN test, or edited since.
$(B)/handin-status: harness/tools/handin_status.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $<
handin: $(B)/handin-status
	@mkdir -p $(B)
	@tar -czf $(B)/handin.tar.gz $(wildcard $(HANDIN_FILES))
	@echo "packed $(B)/handin.tar.gz:"
	@$(B)/handin-status $(B) $(foreach n,$(LABS),$(if $(wildcard labs/$(lab$(n)_dir)/$(lab$(n)_file)),$(n):labs/$(lab$(n)_dir)/$(lab$(n)_file)))
	@echo "Hand in that file; nothing else from the kit goes in it."

# ---------------------------------------------------------------- figures

# Every bench variant's label and role, for the recorded CSVs written before
# the bench put them in each row (harness/bench/bench_variants_csv.c).
VARIANTS_CSV := $(B)/bench/variants.csv
$(B)/bench-variants: harness/bench/bench_variants_csv.c $(BENCH_HEADERS) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BENCH) -o $@ $< $(CORE_LIB) -lm
$(VARIANTS_CSV): $(B)/bench-variants
	@mkdir -p $(@D)
	$< > $@

# make labN plot draws the student's figure into PLOT_DIR; make plots draws
# the kit's figures into FIGURE_DIR, apart, so that it never replaces theirs.
PLOT_DIR ?= $(B)/plots
FIGURE_DIR ?= $(B)/figures
# The recorded runs: what figures, the report and the slides fall back on.
PLOTS_DATA ?= plots/data
# The lab's rate's unit (GB/s, GFLOP/s), its operation's, from the table of labs, in a recipe.
PLOT_UNIT = $$(. harness/tools/labs.sh && CSV_ROWS=$(B)/csv-rows labs_read $(LABS_TSV) && echo "$${lab_unit[$(LAB)]}")
RECORDED_CSV := $(PLOTS_DATA)/lab$(LAB).csv

# The report's tables, as its HTML page and its PDF print them (harness/tools/report_table.c),
# and the memory requests per warp of a profile's kernels, for the bar figures.
$(B)/report-table: harness/tools/report_table.c $(CSV_READER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
$(B)/requests-per-warp: harness/tools/requests_per_warp.c $(CSV_READER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
# The one reader of the kit's CSVs for its scripts (the figures, the report, the slides):
# they ask it for columns by name, and where a series comes from (harness/core/include/csv.h).
$(B)/csv-rows: harness/tools/csv_rows.c $(CSV_READER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) -o $@ $(filter %.c,$^)
FIGURE_TOOLS := $(VARIANTS_CSV) $(B)/requests-per-warp $(B)/csv-rows $(LABS_TSV)
# What the figures' scripts are told: the bench's table of variants, the reader of the CSVs, the labs.
FIGURE_ENV = VARIANTS=$(VARIANTS_CSV) CSV_ROWS=$(B)/csv-rows LABS_TSV=$(LABS_TSV)

# This machine's bench, run again when the code is newer than its CSV; a GPU
# lab without a GPU draws the recorded run instead, and says so.
plot: $(if $(filter emu,$(LAB_BACKEND)),$(LAB_DIR)/profile-emu,$(LAB_DIR)/bench) $(FIGURE_TOOLS)
	@mkdir -p $(PLOT_DIR) $(B)/bench
ifeq ($(LAB_BACKEND),emu)
	@if [ ! -s $(PROFILE_CSV) ] || [ $(PROFILE_CSV) -ot $(LAB_DIR)/profile-emu ]; then \
	  echo "== no GPU here: counting the memory requests of your kernels and the reference's on the CPU emulator (make lab$(patsubst 0%,%,$(LAB)) profile)"; \
	  $(LAB_DIR)/profile-emu --size $(call profile_size,$(LAB_DIR)/profile-emu) --title "lab $(patsubst 0%,%,$(LAB)) ($(lab$(LAB)_dir))" --csv $(PROFILE_CSV) \
	    >$(LAB_DIR)/profile.log 2>&1 || grep -E '^(student|naive) ' $(LAB_DIR)/profile.log; \
	fi
	@$(FIGURE_ENV) REQUESTS=$(B)/requests-per-warp plots/plot-profile.sh $(PROFILE_CSV) $(PLOT_DIR)/lab$(LAB) \
	  "lab $(patsubst 0%,%,$(LAB)), $(lab$(LAB)_title)" $(PLOT_UNIT)
	@echo "wrote $(PLOT_DIR)/lab$(LAB).png and .svg: the memory requests per warp of your kernels beside the reference's,"
	@echo "  as the CPU emulator counts them (PROFILE_SIZE=$(call profile_size,$(LAB_DIR)/profile-emu); 32-byte sectors per global request, passes per shared one;"
	@echo "  the numbers: $(PLOT_DIR)/lab$(LAB).csv, the whole table: make lab$(patsubst 0%,%,$(LAB)) profile)."
	@echo "No bandwidth: this machine has no GPU, and the emulator runs each thread on the CPU, so its timings say"
	@echo "  nothing of a GPU's. On a GPU, make lab$(patsubst 0%,%,$(LAB)) plot draws your $(PLOT_UNIT) beside the reference's."
	@if [ -s $(RECORDED_CSV) ]; then \
	  $(FIGURE_ENV) plots/plot-bench.sh $(RECORDED_CSV) $(PLOT_DIR)/lab$(LAB)-recorded \
	    "lab $(patsubst 0%,%,$(LAB)), $(lab$(LAB)_title)" $(PLOT_UNIT) "(the reference, not your code)" && \
	  echo "The reference's $(PLOT_UNIT), recorded on $$(sed -n 's/^# machine: //p' $(RECORDED_CSV) | sed 's/,.*//'): $(PLOT_DIR)/lab$(LAB)-recorded.png and .svg"; \
	fi
else
	@if [ ! -s $(BENCH_CSV) ] || [ $(BENCH_CSV) -ot $(LAB_DIR)/bench ]; then $(LAB_DIR)/bench $(BENCH_ARGS) --csv $(BENCH_CSV) || exit 1; fi
	@$(FIGURE_ENV) plots/plot-bench.sh $(BENCH_CSV) $(PLOT_DIR)/lab$(LAB) "lab $(patsubst 0%,%,$(LAB)), $(lab$(LAB)_title)" $(PLOT_UNIT)
	@echo "wrote $(PLOT_DIR)/lab$(LAB).png and .svg"
endif

plots: $(FIGURE_TOOLS)
	@command -v gnuplot >/dev/null || { echo "plots need gnuplot: run make deps" >&2; exit 1; }
	@$(FIGURE_ENV) B=$(B) DATA=$(PLOTS_DATA) plots/figures.sh $(FIGURE_DIR) recorded

report: $(FIGURE_TOOLS) $(B)/report-table
	@command -v gnuplot >/dev/null || { echo "the report needs gnuplot: run make deps" >&2; exit 1; }
	@$(FIGURE_ENV) B=$(B) DATA=$(PLOTS_DATA) REPORT_TABLE=$(B)/report-table plots/report.sh $(B)/report

# One deck per lab and an overview (slides/*.md), with the figures and tables
# of this machine's runs where there are some and the recorded ones otherwise.
# LABS="3 4" builds those labs' decks alone; the overview, which draws every lab, only without LABS.
SLIDE_DECKS := $(sort $(if $(LABS_GIVEN),$(wildcard $(LABS:%=slides/lab%.md)),$(wildcard slides/*.md)))
SLIDE_TOOLS = $(and $(shell command -v pandoc),$(shell command -v pdflatex),$(shell kpsewhich beamer.cls 2>/dev/null),$(shell command -v gnuplot))
slides: $(FIGURE_TOOLS)
	@test -n "$(SLIDE_TOOLS)" || { echo "slides need pandoc, LaTeX with beamer, and gnuplot: run make deps" >&2; exit 1; }
	@mkdir -p $(B)/slides
	@FORMATS=pdf $(FIGURE_ENV) B=$(B) DATA=$(PLOTS_DATA) plots/figures.sh $(B)/slides/figures local >/dev/null
	@VARIANTS=$(abspath $(VARIANTS_CSV)) CSV_ROWS=$(abspath $(B)/csv-rows) LABS_TSV=$(abspath $(LABS_TSV)) slides/build.sh $(B)/slides $(SLIDE_DECKS)

# ---------------------------------------------------------------- the student kit

# Everything but the reference sources, which travel compiled: for any
# x86-64 CPU (no -march), for the emulator, and as a fat GPU binary. The
# emulator's corpus stays out too: many of its kernels are working answers.
# With LABS= (make gradescope LABS=10 builds one) the kit holds those labs'
# references alone: its name says so, so that it never takes the place of the
# whole kit an earlier make dist wrote, which an instructor may hand out.
DIST_NAME := tilelab-student$(if $(LABS_GIVEN),-labs-$(subst $(eval) ,-,$(strip $(LABS))))
DIST_FILES := Makefile README.md $(wildcard labs harness tests plots slides)
dist: references
	@rm -rf $(B)/$(DIST_NAME) && mkdir -p $(B)/$(DIST_NAME)/solutions/prebuilt
	@tar -cf - --exclude=tests/grader_test.sh --exclude=tests/dist_test.sh --exclude=tests/sanitize \
	  --exclude=tests/sanitize_test.sh --exclude=tests/tunables_test.sh --exclude=tests/slurm_test.sh \
	  --exclude=tests/gradescope_test.sh --exclude=tests/class_test.sh --exclude=harness/tools/time-class.sh --exclude=tests/newlab_test.sh --exclude=tests/newop_test.sh --exclude=tests/newop --exclude=tests/docs_test.sh --exclude=tests/emu_corpus --exclude=tests/hostile --exclude=tests/hostile_test.sh $(DIST_FILES) | tar -xf - -C $(B)/$(DIST_NAME)
	@for o in $(REFERENCE_OBJECTS); do \
	   cp $$o $(B)/$(DIST_NAME)/solutions/prebuilt/ && { [ ! -f $${o%.o}.resources.txt ] || cp $${o%.o}.resources.txt $(B)/$(DIST_NAME)/solutions/prebuilt/; }; \
	 done
	@tar -czf $(B)/$(DIST_NAME).tar.gz -C $(B) $(DIST_NAME)
	@echo "wrote $(B)/$(DIST_NAME).tar.gz: stubs, handouts, harness, suites; references compiled only ($$(cd $(B)/$(DIST_NAME)/solutions/prebuilt && ls *.o | tr '\n' ' ' | sed 's/ $$//'))"

# Gradescope's autograder: the student kit above and its grader, for the labs in LABS.
# HIDDEN=: held-back cases, graded there out of the students' view.
gradescope: dist $(B)/grade-held-back $(B)/grade-report $(LABS_TSV) $(B)/csv-rows
	@LABS_TSV=$(LABS_TSV) TOOLS=$(abspath $(B)) CSV_ROWS=$(B)/csv-rows WEIGHTS=labs/grading.conf HIDDEN="$(if $(HIDDEN),$(abspath $(HIDDEN)))" HIDDEN_VISIBILITY="$(HIDDEN_VISIBILITY)" \
	  harness/grade/gradescope.sh $(B)/$(DIST_NAME) $(B)/gradescope

deps:
	@harness/tools/deps.sh

clean:
	rm -rf $(B)

help:
	@echo "tilelab: memory-bound GPU programming, one lab at a time."
	@echo
	@echo "A student's commands (N is the lab number, $(patsubst 0%,%,$(firstword $(LABS)))..$(patsubst 0%,%,$(lastword $(LABS)))):"
	@echo "  make labN test            build your labs/NN-*/ file with the lab's tests and run them"
	@echo "  make labN test SOLUTION=1 the same against the reference solution"
	@echo "  make labN bench           GB/s over a range of sizes: yours, the reference, the ceiling"
	@echo "                            SIZES=1024,4097x8191  REPS=N  OPT=-O0 (CPU labs)"
	@echo "                            ONLY=reference,memcpy: some variants (or roles: student, reference)"
	@echo "                            tunables: NAME=VALUE, a lab's as listed below (TILE_DIM=16)"
	@echo "  make labN cachegrind      simulated cache misses, yours beside the reference (labs $(call lab_list,$(CPU_LABS)))"
	@echo "  make labN plot            the bench drawn: build/plots/labNN.png (and .svg)"
	@echo "  make labN profile         memory requests per warp: sectors per request, bank conflicts (GPU labs)"
	@echo "  make labN resources       registers and shared memory per kernel (GPU labs)"
	@echo "  make labN sanitize        compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on your kernels (GPU labs)"
	@echo "  make labN sweep           the reference over TILE_DIM x BLOCK_ROWS pairs (labs $(call lab_list,$(SWEEP_LABS)))"
	@echo "                            GPU=emu runs GPU labs on the CPU emulator, GPU=cuda on the GPU;"
	@echo "                            the default takes the GPU when there is one"
	@echo
	@echo "The labs:"
	@$(foreach n,$(LABS),echo "  lab $(patsubst 0%,%,$(n))  labs/$(lab$(n)_dir)/$(lab$(n)_file)  ($(lab$(n)_title))$(if $(lab$(n)_tunables),  tunables: $(lab$(n)_tunables))";)
	@echo
	@echo "Also yours:"
	@echo "  make handin               pack your lab files into build/handin.tar.gz"
	@echo "  make deps                 install what the kit needs (as root, Debian or Ubuntu)"
	@echo "  make plots                every figure from the recorded runs: build/figures/"
	@echo "  make report               every figure and its tables, as HTML and PDF: build/report/"
	@echo "  make slides               a lecture deck per lab and an overview, as PDF: build/slides/"
	@echo "  make clean                remove build/"
	@echo "  make help                 this list"
	@echo
	@echo "For instructors (INSTRUCTORS.md):"
	@echo "  make grade SUBMISSION=handin.tar.gz      grade one hand-in: build/grade/<name>/"
	@echo "  make grade-all SUBMISSIONS=handins/      grade every hand-in: build/grade/gradebook.csv"
	@echo "    ... LABS=\"1 2 3\"                       only the labs of the assignment (their points are the maximum)"
	@echo "                            HIDDEN=held-back.txt adds cases students never saw"
	@echo "                            KEEP_BUILD=1 keeps each hand-in's builds and raw outputs (else only its report, < 1 MB)"
	@echo "                            SCHEDULER=slurm: one Slurm job array, a task a hand-in; WAIT=1 waits"
	@echo "                            PARTITION=.. ACCOUNT=.. TIME=01:00:00 GRES=gpu:1 SBATCH_EXTRA=.."
	@echo "  make gradescope           build/gradescope/autograder.zip: Gradescope's autograder (LABS=03 for one lab)"
	@echo "                            HIDDEN=held-back.txt grades held-back cases there, as hidden tests"
	@echo "  make references           compile the references once, for the grader, make dist and make gradescope"
	@echo "  make slurm-start          a Slurm cluster of one node, this machine, to try SCHEDULER=slurm (make slurm-stop)"
	@echo "  make hostile              grade the catalogue of cheats beside honest controls, and the references: build/hostile/hostile.csv"
	@echo "  make dist                 build/tilelab-student.tar.gz: the kit without reference sources (LABS=: tilelab-student-labs-NN...)"
	@echo
	@echo "For the kit's developers (DEVELOPERS.md):"
	@echo "  make check                the kit's own tests: every reference passes, every stub fails"
	@echo "  make unit                 the harness's own unit tests"
	@echo "  make emu-corpus           the emulator's fidelity corpus: each file's verdict beside a GPU's"
