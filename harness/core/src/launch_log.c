/* The launch log (launch.h): the launches since the last reset. */
#include "launch.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

static tl_launch launches[TL_MAX_LAUNCHES];
static int count;

void tl_launch_add(const tl_launch *l)
{
    if (count < TL_MAX_LAUNCHES)
        launches[count] = *l;
    count++;
}

void tl_launch_note(const unsigned grid[3], const unsigned block[3], unsigned long shared,
                    const char *kernel)
{
    tl_launch l = {{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, (unsigned)shared, "", ""};
    snprintf(l.kernel, sizeof l.kernel, "%s", kernel ? kernel : "");
    tl_launch_add(&l);
}

tl_launch_fault tl_launch_fault_of(const unsigned grid[3], const unsigned block[3])
{
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (threads == 0 || threads > 1024 || block[0] > 1024 || block[1] > 1024 || block[2] > 64)
        return TL_LAUNCH_BAD_BLOCK;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0 || grid[0] > 0x7fffffffu || grid[1] > 65535 ||
        grid[2] > 65535)
        return TL_LAUNCH_BAD_GRID;
    return TL_LAUNCH_RUNS;
}

void tl_launch_symbol(const char *symbol)
{
    if (symbol && count > 0 && count <= TL_MAX_LAUNCHES)
        snprintf(launches[count - 1].symbol, sizeof launches[count - 1].symbol, "%s", symbol);
}

void tl_launch_more(int n)
{
    if (n > 0)
        count = n > INT_MAX - count ? INT_MAX : count + n;
}

int tl_launch_count(void)
{
    return count;
}

const tl_launch *tl_launch_get(int i)
{
    return i >= 0 && i < count && i < TL_MAX_LAUNCHES ? &launches[i] : NULL;
}

void tl_launch_reset(void)
{
    count = 0;
}

static unsigned blocks_for(int size, unsigned per_block)
{
    return ((unsigned)size + per_block - 1) / per_block;
}

int tl_grid_swapped(const tl_launch *l, int x_size, int y_size, unsigned per_y)
{
    unsigned bx = l->block[0];
    if (!bx || !per_y || l->grid[2] != 1)
        return 0;
    return l->grid[0] == blocks_for(y_size, bx) && l->grid[1] == blocks_for(x_size, per_y) &&
           !(l->grid[0] == blocks_for(x_size, bx) && l->grid[1] == blocks_for(y_size, per_y));
}
