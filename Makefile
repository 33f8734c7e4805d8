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

B := build
ROOT := $(CURDIR)

# ---------------------------------------------------------------- goals

LAB_ACTIONS := test bench cachegrind sanitize sweep resources
KIT_GOALS := help check deps clean unit
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

# ---------------------------------------------------------------- tools

CC := $(if $(filter default,$(origin CC)),gcc,$(CC))
WARN := -Wall -Wextra -Werror
CFLAGS_HARNESS := -std=c11 -D_DEFAULT_SOURCE -O2 -g $(WARN) -Iharness
# Flags for the lab files themselves (student and reference): OPT=-O0 for
# the -O level experiment.
OPT ?= -O3 -march=native

NVCC ?= $(shell command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
ifneq ($(NVCC),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
CUDA_INC := -I$(CUDA_HOME)/include
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUDA_LIBS := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcudart -ldl -lstdc++
# The local GPU when there is one, else a fat binary for Turing to Hopper
# plus PTX for what comes after.
CUDA_ARCH ?= $(if $(shell nvidia-smi -L 2>/dev/null | grep -m1 GPU),native,fat)
ifeq ($(CUDA_ARCH),fat)
NVCC_ARCH := $(foreach a,75 80 86 89 90,-gencode arch=compute_$(a),code=sm_$(a)) \
             -gencode arch=compute_90,code=compute_90
else ifeq ($(CUDA_ARCH),native)
NVCC_ARCH := -arch=native
else
NVCC_ARCH := -arch=$(if $(filter sm_%,$(CUDA_ARCH)),$(CUDA_ARCH),sm_$(CUDA_ARCH))
endif
NVCC_FLAGS := -O3 -g -lineinfo $(NVCC_ARCH) -Wno-deprecated-gpu-targets -Werror all-warnings \
              -Xcompiler -Wall,-Wextra,-Werror -Iharness -Xptxas -v
endif

HAVE_OPENBLAS := $(shell pkg-config --exists openblas 2>/dev/null && echo 1)
OPENBLAS_CFLAGS := $(if $(HAVE_OPENBLAS),-DTL_HAVE_OPENBLAS $(shell pkg-config --cflags openblas))
OPENBLAS_LIBS := $(if $(HAVE_OPENBLAS),$(shell pkg-config --libs openblas))

# ---------------------------------------------------------------- harness

HARNESS_CORE := matrix shapes check todo timer sysinfo
HARNESS_GPU := gpu launch_log
CORE_OBJS := $(HARNESS_CORE:%=$(B)/harness/%.o)
GPU_OBJS := $(HARNESS_GPU:%=$(B)/harness/%.o)
HEADERS := $(wildcard harness/*.h)

$(B)/harness/%.o: harness/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HARNESS) $(CUDA_INC) $(OPENBLAS_CFLAGS) -c $< -o $@

# Rebuild what depends on flags when the flags change.
define stamp
	@mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
endef
.PHONY: FORCE
FORCE:

# ---------------------------------------------------------------- labs

# The tunables a lab file defines, as NAME=VALUE, read off its #defines.
tunables_of = $(shell sed -n 's/^\#define \($(subst $(eval) ,\|,$(2))\) \+\([^ ]*\).*/\1=\2/p' $(1))
# -D for each tunable given on the command line (make lab6 bench TILE_DIM=64).
tunable_defs = $(strip $(foreach t,$(lab$(1)_tunables),$(if $($(t)),-D$(t)=$($(t)))))
lab_src = $(if $(filter student,$(2)),labs,solutions)/$(lab$(1)_dir)/$(lab$(1)_file)

# $(1): lab number, $(2): student or reference
define lab_variant
$(B)/lab$(1)/$(2)/flags: FORCE
	$$(call stamp,$$(OPT) $$(NVCC_ARCH) $$(call tunable_defs,$(1)))

ifeq ($(lab$(1)_kind),cpu)
$(B)/lab$(1)/$(2)/lab.raw.o: $(call lab_src,$(1),$(2)) harness/lab.h $(B)/lab$(1)/$(2)/flags
	$$(CC) -std=c11 -g $$(OPT) $$(WARN) -Iharness $$(call tunable_defs,$(1)) -c $$< -o $$@
else
$(B)/lab$(1)/$(2)/lab.raw.o: $(call lab_src,$(1),$(2)) harness/lab.h $(B)/lab$(1)/$(2)/flags
	@test -n "$$(NVCC)" || { echo "lab $(1) needs the CUDA toolkit (nvcc), which this machine lacks: see README.md, 'Set-up'" >&2; exit 1; }
	@echo "$$(NVCC) -c $$< ($$(CUDA_ARCH)) $$(call tunable_defs,$(1))"
	@$$(NVCC) $$(NVCC_FLAGS) $$(call tunable_defs,$(1)) -c $$< -o $$@ > $$(@D)/resources.txt 2>&1; \
	  rc=$$$$?; grep -v '^ptxas info\|bytes stack frame' $$(@D)/resources.txt >&2; exit $$$$rc
endif

# Only the entry points stay global, so helpers and kernels of the
# student's file and the reference's never collide with each other or the harness.
$(B)/lab$(1)/$(2)/lab.o: $(B)/lab$(1)/$(2)/lab.raw.o harness/isolate-symbols.sh
	harness/isolate-symbols.sh $$< $$@

$(B)/lab$(1)/$(2)/test.o: tests/lab$(1)_test.c tests/tl_test.h tests/transpose_tests.h $(HEADERS) $(B)/lab$(1)/$(2)/flags
	$$(CC) $$(CFLAGS_HARNESS) -Itests $$(CUDA_INC) $$(call tunable_defs,$(1)) \
	  $(if $(filter gpu,$(lab$(1)_kind)),-DTL_LAB_GPU) \
	  -DTL_RESOURCES='"$(ROOT)/$(B)/lab$(1)/$(2)/resources.txt"' -c $$< -o $$@

$(B)/lab$(1)/$(2)/test: $(B)/lab$(1)/$(2)/test.o $(B)/lab$(1)/$(2)/lab.o $(CORE_OBJS) $(if $(filter gpu,$(lab$(1)_kind)),$(GPU_OBJS))
	$$(CC) -o $$@ $$^ -lcriterion $(if $(filter gpu,$(lab$(1)_kind)),$$(CUDA_LIBS)) -lm
endef

# $(1): lab number
define lab_rules
$(call lab_variant,$(1),student)
$(call lab_variant,$(1),reference)

$(B)/lab$(1)/reference/lab.renamed.o: $(B)/lab$(1)/reference/lab.raw.o harness/isolate-symbols.sh
	harness/isolate-symbols.sh $$< $$@ reference_

$(B)/lab$(1)/bench.o: harness/bench.c $(HEADERS) $(B)/lab$(1)/student/flags
	$$(CC) $$(CFLAGS_HARNESS) $$(CUDA_INC) $(if $(filter gpu,$(lab$(1)_kind)),-DTL_LAB_GPU) \
	  -DTL_LAB=$(patsubst 0%,%,$(1)) -DTL_LAB_DIR='"$(lab$(1)_dir)"' -DTL_LAB_TITLE='"$(lab$(1)_title)"' \
	  -DTL_COMPILER='"$(if $(filter gpu,$(lab$(1)_kind)),$$(NVCC_VERSION),$$(CC_VERSION))"' \
	  -DTL_FLAGS='"$(if $(filter gpu,$(lab$(1)_kind)),$$(NVCC_ARCH) -O3,$$(OPT))"' \
	  -DTL_TUNABLES_STUDENT='"$$(or $$(call tunable_defs,$(1)),$$(call tunables_of,$$(call lab_src,$(1),student),$(lab$(1)_tunables)),none)"' \
	  -DTL_TUNABLES_REFERENCE='"$$(or $$(call tunable_defs,$(1)),$$(call tunables_of,$$(call lab_src,$(1),reference),$(lab$(1)_tunables)),none)"' \
	  -c $$< -o $$@

$(B)/lab$(1)/bench: $(B)/lab$(1)/bench.o $(B)/lab$(1)/student/lab.o $(B)/lab$(1)/reference/lab.renamed.o $(CORE_OBJS) \
                    $(if $(filter gpu,$(lab$(1)_kind)),$(GPU_OBJS) $(B)/harness/bench_gpu.o,$(B)/harness/bench_cpu.o)
	$$(CC) -o $$@ $$^ $(if $(filter gpu,$(lab$(1)_kind)),$$(CUDA_LIBS) -lcublas,$$(OPENBLAS_LIBS)) -lm
endef

$(foreach n,$(LABS),$(eval $(call lab_rules,$(n))))

# The sweep: the reference rebuilt for each (TILE_DIM, BLOCK_ROWS) pair that
# makes a valid block (BLOCK_ROWS <= TILE_DIM, at most 1024 threads).
SWEEP_TILES := 8 16 32 64
SWEEP_ROWS := 1 2 4 8 16 32
SWEEP_PAIRS := $(foreach t,$(SWEEP_TILES),$(foreach r,$(SWEEP_ROWS),\
                 $(if $(shell [ $(r) -le $(t) ] && [ $$(($(t) * $(r))) -le 1024 ] && echo y),T$(t)-R$(r))))
SWEEP_LABS := $(foreach n,$(LABS),$(if $(filter TILE_DIM,$(lab$(n)_tunables)),$(if $(filter BLOCK_ROWS,$(lab$(n)_tunables)),$(n))))

# $(1): lab, $(2): tile, $(3): rows
define sweep_pair
$(B)/lab$(1)/sweep/T$(2)-R$(3)/ref.o: $(call lab_src,$(1),reference) harness/lab.h harness/isolate-symbols.sh
	@mkdir -p $$(@D)
	@echo "$$(NVCC) -c $$< TILE_DIM=$(2) BLOCK_ROWS=$(3)"
	@$$(NVCC) $$(NVCC_FLAGS) -DTILE_DIM=$(2) -DBLOCK_ROWS=$(3) -c $$< -o $$@.raw > $$(@D)/resources.txt 2>&1 \
	  || { cat $$(@D)/resources.txt >&2; exit 1; }
	@harness/isolate-symbols.sh $$@.raw $$@ reference_

$(B)/lab$(1)/sweep/T$(2)-R$(3)/bench: $(B)/lab$(1)/bench.o $(B)/lab$(1)/student/lab.o $(B)/lab$(1)/sweep/T$(2)-R$(3)/ref.o $(CORE_OBJS) $(GPU_OBJS) $(B)/harness/bench_gpu.o
	$$(CC) -o $$@ $$^ $$(CUDA_LIBS) -lcublas -lm
endef
$(foreach n,$(SWEEP_LABS),$(foreach p,$(SWEEP_PAIRS),\
  $(eval $(call sweep_pair,$(n),$(patsubst T%,%,$(firstword $(subst -, ,$(p)))),$(patsubst R%,%,$(lastword $(subst -, ,$(p))))))))

CC_VERSION := $(shell $(CC) --version | head -1)
NVCC_VERSION := $(if $(NVCC),$(shell $(NVCC) --version | tail -1))

# ---------------------------------------------------------------- actions

VARIANT := $(if $(SOLUTION),reference,student)
LAB_DIR := $(B)/lab$(LAB)
GPU_LAB := $(filter gpu,$(lab$(LAB)_kind))
# GPU suites run one test at a time: parallel tests would share one GPU.
TEST_FLAGS := $(if $(GPU_LAB),--jobs 1)
SIZES ?=
BENCH_ARGS := $(if $(SIZES),--sizes $(SIZES)) $(if $(REPS),--reps $(REPS))
BENCH_CSV := $(B)/bench/lab$(LAB)$(if $(filter command line,$(origin OPT)),$(subst $(eval) ,,$(OPT))).csv

.PHONY: $(KNOWN_GOALS) $(LAB_GOALS)
$(LAB_GOALS):
	@:

test: $(LAB_DIR)/$(VARIANT)/test
	@echo "== lab $(LAB) ($(lab$(LAB)_dir)), $(if $(SOLUTION),the reference solution,your code: labs/$(lab$(LAB)_dir)/$(lab$(LAB)_file))"
	@$< $(TEST_FLAGS) $(TEST_ARGS)

bench: $(LAB_DIR)/bench
	@mkdir -p $(B)/bench
	@$< $(BENCH_ARGS) --csv $(BENCH_CSV)

CACHE_SIZE ?= 2048
CACHEGRIND := valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no \
              --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
cachegrind: $(LAB_DIR)/bench
	@test -z "$(GPU_LAB)" || { echo "cachegrind is for the CPU labs (1 and 2); for a GPU lab try: make lab$(LAB) sanitize" >&2; exit 2; }
	@command -v valgrind >/dev/null || { echo "cachegrind needs valgrind: run make deps" >&2; exit 1; }
	@mkdir -p $(B)/bench
	@for v in student reference; do \
	  fn=$$([ $$v = student ] && echo transpose || echo reference_transpose); \
	  $(CACHEGRIND) --toggle-collect=$$fn --callgrind-out-file=$(LAB_DIR)/callgrind.$$v.out \
	    $< --once $$v --sizes $(CACHE_SIZE) 2>$(LAB_DIR)/callgrind.$$v.log \
	    || { cat $(LAB_DIR)/callgrind.$$v.log >&2; exit 1; }; \
	done
	@harness/cache-table.sh $(LAB) $(CACHE_SIZE) $(LAB_DIR)/callgrind.student.out \
	  $(LAB_DIR)/callgrind.reference.out $(B)/bench/lab$(LAB)-cache.csv

SANITIZER := $(or $(shell command -v compute-sanitizer),$(wildcard $(CUDA_HOME)/bin/compute-sanitizer))
SANITIZE_SIZES ?= 33x31,97x89,1000x37,1x300,256
sanitize: $(LAB_DIR)/bench
	@test -n "$(GPU_LAB)" || { echo "sanitize runs compute-sanitizer on a GPU lab (3 and up); for a CPU lab try: make lab$(LAB) cachegrind" >&2; exit 2; }
	@test -n "$(SANITIZER)" || { echo "sanitize needs compute-sanitizer, part of the CUDA toolkit" >&2; exit 1; }
	@for tool in memcheck racecheck; do \
	  echo "== compute-sanitizer --tool $$tool: $(VARIANT) of lab $(LAB) at $(SANITIZE_SIZES)"; \
	  $(SANITIZER) --tool $$tool --error-exitcode 3 $< --only $(VARIANT) --sizes $(SANITIZE_SIZES) \
	    --reps 1 --warmup 0 || exit 1; \
	done

SWEEP_SIZES ?= 8192
sweep: $(if $(filter $(LAB),$(SWEEP_LABS)),$(SWEEP_PAIRS:%=$(LAB_DIR)/sweep/%/bench))
	@test -n "$(filter $(LAB),$(SWEEP_LABS))" || { echo "sweep is for the labs tuned by TILE_DIM and BLOCK_ROWS: $(patsubst 0%,lab%,$(SWEEP_LABS))" >&2; exit 2; }
	@mkdir -p $(B)/bench
	@rm -f $(B)/bench/lab$(LAB)-sweep.csv
	@for p in $(SWEEP_PAIRS); do \
	  t=$${p%-*}; r=$${p#*-}; \
	  echo "== TILE_DIM=$${t#T} BLOCK_ROWS=$${r#R}"; \
	  $(LAB_DIR)/sweep/$$p/bench --only memcpy,reference --sizes $(SWEEP_SIZES) $(if $(REPS),--reps $(REPS)) \
	    --tag "TILE_DIM=$${t#T} BLOCK_ROWS=$${r#R}" --csv $(B)/bench/lab$(LAB)-sweep.csv \
	    $$([ -f $(B)/bench/lab$(LAB)-sweep.csv ] && echo --append) | grep -E '^ +reference|^[0-9]' || exit 1; \
	done
	@echo "wrote $(B)/bench/lab$(LAB)-sweep.csv"

resources: $(LAB_DIR)/$(VARIANT)/lab.o
	@test -n "$(GPU_LAB)" || { echo "resources shows the GPU compiler's report: GPU labs only (3 and up)" >&2; exit 2; }
	@grep -E 'Compiling|Used' $(LAB_DIR)/$(VARIANT)/resources.txt

# ---------------------------------------------------------------- the kit

CPU_LABS := $(foreach n,$(LABS),$(if $(filter cpu,$(lab$(n)_kind)),$(n)))
GPU_LABS := $(foreach n,$(LABS),$(if $(filter gpu,$(lab$(n)_kind)),$(n)))
CHECK_LABS := $(CPU_LABS) $(if $(NVCC),$(GPU_LABS))

$(B)/unit: tests/harness_test.c $(CORE_OBJS) $(HEADERS)
	$(CC) $(CFLAGS_HARNESS) -Itests -o $@ $< $(CORE_OBJS) -lcriterion -lm

unit: $(B)/unit
	@$<

CHECK_BUILDS := $(B)/unit $(foreach n,$(CHECK_LABS),$(B)/lab$(n)/student/test $(B)/lab$(n)/reference/test $(B)/lab$(n)/bench)

check: $(CHECK_BUILDS)
	@{ echo "pass harness $(B)/unit"; \
	   $(foreach n,$(CHECK_LABS),echo "pass lab$(n)-reference $(B)/lab$(n)/reference/test $(if $(filter gpu,$(lab$(n)_kind)),--jobs 1)"; \
	                             echo "fail lab$(n)-stub $(B)/lab$(n)/student/test $(if $(filter gpu,$(lab$(n)_kind)),--jobs 1)";) \
	   $(if $(NVCC),,echo "skip gpu-labs no CUDA toolkit (nvcc) on this machine: labs $(GPU_LABS) not built";) \
	   echo "cli command-line $(SHELL) tests/cli_test.sh"; \
	 } | harness/check-suites.sh

deps:
	@harness/deps.sh

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
	@echo "                            tunables: BLOCK=.. (lab 2), TILE_DIM=.. BLOCK_ROWS=.. (labs 3-6)"
	@echo "  make labN cachegrind      simulated cache misses, yours beside the reference (labs 1-2)"
	@echo "  make labN resources       registers and shared memory per kernel (GPU labs)"
	@echo "  make labN sanitize        compute-sanitizer memcheck and racecheck on your kernel (GPU labs)"
	@echo "  make labN sweep           the reference over TILE_DIM x BLOCK_ROWS pairs (labs 3 and 6)"
	@echo
	@echo "The labs:"
	@$(foreach n,$(LABS),echo "  lab $(patsubst 0%,%,$(n))  labs/$(lab$(n)_dir)/$(lab$(n)_file)  ($(lab$(n)_title))";)
	@echo
	@echo "The kit:"
	@echo "  make deps                 install what the kit needs (as root, Debian or Ubuntu)"
	@echo "  make check                the kit's own tests: every reference passes, every stub fails"
	@echo "  make unit                 the harness's own unit tests"
	@echo "  make clean                remove build/"
	@echo "  make help                 this list"
