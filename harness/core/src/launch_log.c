/* The launch log (launch.h): the launches since the last reset. */
#include "launch.h"

#include <stddef.h>

static tl_launch launches[TL_MAX_LAUNCHES];
static int count;

void tl_launch_add(const tl_launch *l)
{
    if (count < TL_MAX_LAUNCHES)
        launches[count] = *l;
    count++;
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
