/*
 * The table of operations: every descriptor of harness/core/ops/, which the
 * build lists in operations.h as TL_OPERATION(name) (op.h).
 */
#include "op.h"

#include <stdio.h>
#include <string.h>

#include "operations.h"

#define TL_OPERATION(name) extern const tl_op tl_operation_##name;
TL_OPERATIONS
#undef TL_OPERATION

#define TL_OPERATION(name) &tl_operation_##name,
static const tl_op *const table[] = {TL_OPERATIONS};
#undef TL_OPERATION

const tl_op *tl_op_at(int i)
{
    return i >= 0 && i < (int)(sizeof table / sizeof *table) ? table[i] : NULL;
}

const tl_op *tl_op_named(const char *name)
{
    for (int i = 0; name && tl_op_at(i); i++)
        if (strcmp(tl_op_at(i)->name, name) == 0)
            return tl_op_at(i);
    return NULL;
}

const tl_op *tl_op_of_entry(const char *entry)
{
    for (int i = 0; entry && tl_op_at(i); i++)
        for (int e = 0; e < TL_OPERATION_ENTRIES && tl_op_at(i)->entries[e]; e++)
            if (strcmp(tl_op_at(i)->entries[e], entry) == 0)
                return tl_op_at(i);
    return NULL;
}

void tl_op_size(const tl_op *op, char *buf, size_t len, tl_shape s)
{
    if (op->dims == 3)
        snprintf(buf, len, "%dx%dx%d", s.rows, s.cols, s.depth);
    else
        snprintf(buf, len, "%dx%d", s.rows, s.cols);
}
