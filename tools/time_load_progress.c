/* time_load_progress FILE [RUNS]
 * Times image_load of FILE as the viewer loads it (half floats only, one thread per core)
 * without and with a progress hook (image_progress), alternating, RUNS times each (default 7):
 * the medians of the whole load and of start to the first rows told, and the ratio of the
 * whole loads (BENCHMARKS.md, "OpenEXRCore's progress"). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "image.h"
#include "tool_time.h"

enum { MAX_RUNS = 101 };

/* The time of the first report since the load's start (-1: none yet), and the reports. */
typedef struct told {
    double start, first;
    int calls;
} told;

static void on_rows(void *ctx, const uint16_t *half, int width, int done, int height)
{
    (void)half, (void)width, (void)done, (void)height;
    told *t = ctx;
    if (t->calls++ == 0)
        t->first = now_ms() - t->start;
}

/* One load of FILE with PR (NULL: none); its milliseconds, -1 on failure (printed). */
static double load_ms(const char *file, const image_progress *pr, told *t)
{
    image_load_options lo = {.half_only = true, .progress = pr};
    hdr_image img;
    char err[HT_ERR_MAX];
    *t = (told){.start = now_ms(), .first = -1};
    bool ok = image_load(file, &lo, &img, err, sizeof err);
    double ms = now_ms() - t->start;
    if (!ok)
        fprintf(stderr, "time_load_progress: %s\n", err);
    image_free(&img);
    return ok ? ms : -1;
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    if (argc < 2 || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: time_load_progress FILE [RUNS 1-%d]\n", MAX_RUNS);
        return 2;
    }
    static double without[MAX_RUNS], with[MAX_RUNS], first[MAX_RUNS];
    told t;
    image_progress pr = {on_rows, &t};
    int calls = 0;
    for (int i = -1; i < runs; i++) { /* -1: the warm-up, not counted */
        double a = load_ms(argv[1], NULL, &t), b = load_ms(argv[1], &pr, &t);
        if (a < 0 || b < 0)
            return 1;
        if (i >= 0) {
            without[i] = a;
            with[i] = b;
            first[i] = t.first;
            calls = t.calls;
        }
    }
    double a = median(without, runs), b = median(with, runs);
    printf("%s: load %.1f ms without progress, %.1f ms with (%+.1f %%); first rows told after "
           "%.1f ms; %d reports\n", argv[1], a, b, (b / a - 1) * 100, median(first, runs), calls);
    return 0;
}
