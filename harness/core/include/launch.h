/*
 * The record of kernel launches that the technique checks read: the kernel,
 * grid, block and dynamic shared memory of each launch since the last reset. The GPU glue
 * (gpu.h: tl_launch_record) or the emulator fills it in the process that runs a lab's code;
 * the suite's own process gets a copy with each answer of that process
 * (lab_process.h). Nothing here needs CUDA.
 */
#ifndef TILELAB_LAUNCH_H
#define TILELAB_LAUNCH_H

#define TL_MAX_LAUNCHES 64
#define TL_LAUNCH_NAME 96
#define TL_LAUNCH_SYMBOL 128

typedef struct {
    unsigned grid[3], block[3];
    unsigned shared; /* dynamic shared memory, bytes: <<<grid, block, shared>>> */
    /* The kernel launched: as the source names it in the emulator
     * ("tile<float, 32>"), mangled on a GPU ("_Z4tileIfLi32EEvPT_PKS0_ii"),
     * cut to fit; "" where the launch does not say. */
    char kernel[TL_LAUNCH_NAME];
    /* The function that ran, by its symbol: mangled on both backends (the GPU's loaded
     * code names it; the emulator, the function its threads entered), cut to fit; ""
     * where not known (the emulator: a launch no thread of ran). launch_compare.h. */
    char symbol[TL_LAUNCH_SYMBOL];
} tl_launch;

void tl_launch_add(const tl_launch *l);
/* The symbol of the last launch of the log (NULL: leaves it as it is). */
void tl_launch_symbol(const char *symbol);
/* n launches more, counted and not kept: those past TL_MAX_LAUNCHES of another process's log. */
void tl_launch_more(int n);

/* A <<<grid, block, shared>>> of kernel (NULL: not known) into the log. */
void tl_launch_note(const unsigned grid[3], const unsigned block[3], unsigned long shared,
                    const char *kernel);

/*
 * What a GPU refuses of a <<<grid, block>>>: a block of no threads or of
 * more than 1024, or a side past its limit (x, y <= 1024, z <= 64); a grid
 * with a side of 0, x past 2^31 - 1 or y, z past 65535. CUDA's rule, which
 * the GPU glue (gpu.h) and the emulator, standing where the runtime stands,
 * both apply; the error each gives for it is its runtime's.
 */
typedef enum { TL_LAUNCH_RUNS, TL_LAUNCH_BAD_BLOCK, TL_LAUNCH_BAD_GRID } tl_launch_fault;
tl_launch_fault tl_launch_fault_of(const unsigned grid[3], const unsigned block[3]);
/* Launches since the last reset: more than TL_MAX_LAUNCHES are counted, not kept. */
int tl_launch_count(void);
const tl_launch *tl_launch_get(int i);
void tl_launch_reset(void);

/*
 * Launch l's grid, for a matrix x_size wide (x runs along a row) and y_size
 * tall, has its x and y swapped: as many blocks in x as y_size needs in
 * blocks block.x wide, and in y as many as x_size needs in blocks of per_y
 * rows, rounded up both, where the right way round would give other counts.
 */
int tl_grid_swapped(const tl_launch *l, int x_size, int y_size, unsigned per_y);

#endif
