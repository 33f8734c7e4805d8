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
    return tl_entry_op(tl_entry_index(entry));
}

/* Entry point i: its operation, and which of its entries. */
static const tl_op *entry_at(int i, int *which)
{
    for (int k = 0; i >= 0 && tl_op_at(k); k++)
        for (int e = 0; e < TL_OPERATION_ENTRIES && tl_op_at(k)->entries[e].name; e++)
            if (i-- == 0) {
                *which = e;
                return tl_op_at(k);
            }
    return NULL;
}

int tl_entry_count(void)
{
    int n = 0;
    while (tl_entry_at(n))
        n++;
    return n;
}

const tl_op_entry *tl_entry_at(int i)
{
    int e;
    const tl_op *op = entry_at(i, &e);
    return op ? &op->entries[e] : NULL;
}

const tl_op *tl_entry_op(int i)
{
    int e;
    return entry_at(i, &e);
}

int tl_entry_index(const char *name)
{
    for (int i = 0; name && tl_entry_at(i); i++)
        if (strcmp(tl_entry_at(i)->name, name) == 0)
            return i;
    return -1;
}

/* The handles' addresses: bytes of this array, which no function occupies. */
#define MAX_ENTRIES 64
static const char handles[MAX_ENTRIES];

tl_entry_fn tl_entry_handle(int i)
{
    return i >= 0 && i < MAX_ENTRIES && tl_entry_at(i) ? (tl_entry_fn)(void *)&handles[i] : NULL;
}

int tl_entry_handled(tl_entry_fn fn)
{
    const char *at = (const char *)(void *)fn;
    return at >= handles && at < handles + MAX_ENTRIES ? (int)(at - handles) : -1;
}

const tl_op *tl_op_of_fn(tl_entry_fn fn)
{
    for (int i = 0; fn && tl_entry_at(i); i++)
        if (tl_entry_at(i)->student == fn || tl_entry_at(i)->reference == fn)
            return tl_entry_op(i);
    return tl_entry_op(tl_entry_handled(fn));
}

tl_entry_fn tl_entry_named(const char *name)
{
    int i = tl_entry_index(name);
    const tl_op_entry *e = tl_entry_at(i);
    return !e ? NULL : e->student ? e->student : tl_entry_handle(i);
}

void tl_op_size(const tl_op *op, char *buf, size_t len, tl_shape s)
{
    if (op->dims == 3)
        snprintf(buf, len, "%dx%dx%d", s.rows, s.cols, s.depth);
    else
        snprintf(buf, len, "%dx%d", s.rows, s.cols);
}
