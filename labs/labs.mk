# The one list of labs; add a lab here and nowhere else. The Makefile reads
# it (its rules, the help, the bench through -D flags) and writes it, checked,
# as one table, a row a lab and a column a field below (tl-labs,
# harness/tools/labs.c: build/labs.tsv), which the plots, the slides, the
# grader and the kit's tests read (harness/tools/labs.sh, csv.h). Besides its entry a lab brings only its own files: labs/NN-name/ (the
# handout and the stub), solutions/NN-name/, tests/labNN_test.c, and a deck
# slides/labNN.md if it has one. labs/grading.conf grades it with the default
# points of its kind until it gets a line there (and the grader says so).
# tests/newlab_test.sh adds a lab this way and checks all of it.
#
#   labNN_dir       folder under labs/ and solutions/
#   labNN_kind      cpu: host pointers, gcc | gpu: device pointers, nvcc
#   labNN_op        what the lab computes: transpose (the default), matmul, sgemm,
#                   inplace (a square matrix transposed in its own memory) or
#                   reduce (an array summed);
#                   each is one file, harness/core/ops/NAME.c (op.h)
#   labNN_file      the file the student edits
#   labNN_tunables  macros the student may change and -D may override
#   labNN_title     a few words for tables and plots
#   labNN_baseline  optional: a lab whose reference the bench times beside this
#                   one (the in-place lab against the out-of-place transpose)
#   labNN_change    what the lab changes from the one before, in a few words, and
#   labNN_lesson    what it teaches: the overview deck's ladder, a row a lab
#                   (slides/overview.md), which make slides refuses without them

LABS := 01 02 03 04 05 06 07 08 09 10

lab01_dir := 01-cpu-naive
lab01_kind := cpu
lab01_file := transpose.c
lab01_tunables :=
lab01_title := CPU naive
lab01_change := two loops
lab01_lesson := row-major layout, cache lines

lab02_dir := 02-cpu-blocked
lab02_kind := cpu
lab02_file := transpose.c
lab02_tunables := BLOCK
lab02_title := CPU blocked
lab02_change := `BLOCK` x `BLOCK` tiles
lab02_lesson := keep both tiles in cache

lab03_dir := 03-gpu-naive
lab03_kind := gpu
lab03_file := transpose.cu
lab03_tunables := TILE_DIM BLOCK_ROWS
lab03_title := GPU naive
lab03_change := a thread per element
lab03_lesson := coalesced reads, strided writes

lab04_dir := 04-gpu-coalesced
lab04_kind := gpu
lab04_file := transpose.cu
lab04_tunables := TILE_DIM
lab04_title := GPU coalesced
lab04_change := a shared-memory tile
lab04_lesson := coalesced writes; bank conflicts

lab05_dir := 05-gpu-bank-free
lab05_kind := gpu
lab05_file := transpose.cu
lab05_tunables := TILE_DIM
lab05_title := GPU bank-free
lab05_change := the tile padded to 33
lab05_lesson := the 32 banks

lab06_dir := 06-gpu-unrolled
lab06_kind := gpu
lab06_file := transpose.cu
lab06_tunables := TILE_DIM BLOCK_ROWS
lab06_title := GPU unrolled
lab06_change := 32 x 8 threads a tile
lab06_lesson := more work per thread

lab07_dir := 07-gpu-matmul
lab07_kind := gpu
lab07_op := matmul
lab07_file := matmul.cu
lab07_tunables := TILE_WIDTH
lab07_title := GPU matmul
lab07_change := naive, then tiled
lab07_lesson := reuse of each loaded float

lab08_dir := 08-gpu-sgemm
lab08_kind := gpu
lab08_op := sgemm
lab08_file := sgemm.cu
lab08_tunables :=
lab08_title := GPU SGEMM (extension)
lab08_change := register tiles, `float4`
lab08_lesson := near cuBLAS (extension)

lab09_dir := 09-gpu-inplace
lab09_kind := gpu
lab09_op := inplace
lab09_file := transpose.cu
lab09_tunables := TILE_DIM BLOCK_ROWS
lab09_title := GPU in-place (extension)
lab09_baseline := 06
lab09_change := tiles swapped in pairs
lab09_lesson := in place, near a copy (extension)

lab10_dir := 10-gpu-reduce
lab10_kind := gpu
lab10_op := reduce
lab10_file := reduce.cu
lab10_tunables := BLOCK_SIZE
lab10_title := GPU reduction
lab10_change := a tree a block, one `atomicAdd`
lab10_lesson := at a read's speed (extension)
