#include "sysinfo.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void tl_cpu_model(char *buf, size_t len)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, len, "unknown CPU");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 2;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s (%ld cores)", colon, sysconf(_SC_NPROCESSORS_ONLN));
            break;
        }
    }
    fclose(f);
}

void tl_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

size_t tl_host_memory_available(void)
{
    char line[256];
    unsigned long kib;
    size_t bytes = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lu kB", &kib) == 1) {
            bytes = (size_t)kib * 1024;
            break;
        }
    fclose(f);
    return bytes;
}

size_t tl_last_level_cache(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l3 > 0)
        return (size_t)l3;
    if (l2 > 0)
        return (size_t)l2;
    return (size_t)32 << 20;
}
