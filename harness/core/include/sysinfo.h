/* What produced a measurement: CPU, memory, date, in one line each. */
#ifndef TILELAB_SYSINFO_H
#define TILELAB_SYSINFO_H

#include <stddef.h>

void tl_cpu_model(char *buf, size_t len);
void tl_date(char *buf, size_t len);          /* ISO 8601, UTC */
size_t tl_meminfo(const char *key);          /* a /proc/meminfo line ("MemTotal"), bytes; 0 when unknown */
size_t tl_host_memory_available(void);        /* bytes, 0 when unknown */
size_t tl_last_level_cache(void);             /* bytes, a guess of 32 MiB when unknown */

#endif
