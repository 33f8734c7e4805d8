#include "check.h"
#include "lab.h"

#include <stdio.h>

static char todo[512];

void tilelab_todo(const char *file, int line, const char *what)
{
    if (!todo[0])
        snprintf(todo, sizeof todo, "%s:%d: %s", file, line, what);
}

const char *tl_todo_message(void)
{
    return todo[0] ? todo : NULL;
}

void tl_todo_set(const char *message)
{
    snprintf(todo, sizeof todo, "%s", message ? message : "");
}

void tl_todo_reset(void)
{
    todo[0] = '\0';
}
