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

size_t tl_meminfo(const char *key)
{
    char line[256];
    unsigned long kib = 0;
    size_t len = strlen(key);
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && sscanf(line + len, ": %lu kB", &kib) == 1)
            break;
    fclose(f);
    return (size_t)kib << 10;
}

size_t tl_host_memory_available(void)
{
    return tl_meminfo("MemAvailable");
}

size_t tl_last_level_cache(void)
{
    /* sysfs knows the cache one core sees; sysconf may add up a whole package. */
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 8; i++) {
        char path[128];
        int level = 0;
        unsigned long kib = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        if (fscanf(f, "%d", &level) != 1)
            level = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%luK", &kib) == 1 && level >= best_level) {
                best_level = level;
                best = (size_t)kib << 10;
            }
            fclose(f);
        }
    }
    if (best)
        return best;
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return l3 > 0 ? (size_t)l3 : (size_t)32 << 20;
}
