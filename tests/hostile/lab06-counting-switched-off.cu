/*
 * A hostile lab 6 (tests/grader_test.sh): the naive transpose, its memory
 * traffic hidden from the emulator's counts. The lab file reads its own
 * process's symbol table (/proc/self/exe), finds the emulator's switch for
 * counting by a name it builds at run time, and switches counting off for
 * the real kernel and on for a decoy launch of one element. Before the lab
 * process was confined, it did, and its reply held fewer counted launches
 * than its launch log: not measured. Confined (harness/emu/confine.c), it
 * cannot open its program: both launches are counted, and it is measured
 * as the naive transpose it is.
 */
#include "lab.h"
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
/* the naive transpose with a padded decoy tile; work = 0: one element only */
__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols, int work)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (tile[threadIdx.x][threadIdx.y] < 0.0f)
        out[0] = -1.0f;
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r0 = blockIdx.y * TILE_DIM + threadIdx.y;
    if (work) {
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            if (r0 + j < rows && c < cols)
                out[(size_t)c * rows + r0 + j] = in[(size_t)(r0 + j) * cols + c];
    } else if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
        out[0] = in[0];
    }
}

static int bias_cb(struct dl_phdr_info *info, size_t, void *data)
{
    *(uintptr_t *)data = info->dlpi_addr;
    return 1; /* the first is the program itself */
}

/* the address of a function of the program, from its own symbol table (/proc/self/exe) */
static void *own_symbol(const char *want)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    fstat(fd, &st);
    unsigned char *img = (unsigned char *)mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return NULL;
    Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
    Elf64_Shdr *sh = (Elf64_Shdr *)(img + eh->e_shoff);
    void *found = NULL;
    for (int i = 0; i < eh->e_shnum && !found; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        Elf64_Sym *sym = (Elf64_Sym *)(img + sh[i].sh_offset);
        const char *names = (const char *)(img + sh[sh[i].sh_link].sh_offset);
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; k++)
            if (sym[k].st_name && !strcmp(names + sym[k].st_name, want)) {
                uintptr_t bias = 0;
                dl_iterate_phdr(bias_cb, &bias);
                found = (void *)(bias + sym[k].st_value);
                break;
            }
    }
    munmap(img, st.st_size);
    return found;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    static void (*profile)(int);
    static int looked;
    if (!looked) {
        char name[32] = "tl_emu_";
        strcat(name, "profile");
        profile = (void (*)(int))own_symbol(name);
        looked = 1;
    }
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    /* is the emulator counting? (on only in a profile run: then switch it off for the work) */
    if (profile) profile(0);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols, 1);
    cudaDeviceSynchronize();
    if (profile) profile(1);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols, 0);
}
