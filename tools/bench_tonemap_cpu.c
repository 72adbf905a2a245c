/* bench_tonemap_cpu IN [RUNS] [THREADS...]
 * Times the CPU tone mapping of IN (default settings; BENCHMARKS.md, "CPU tone mapping"): the
 * reference (tonemap_cpu.c, one thread) and the fast path (tonemap_fast.c) on each THREADS
 * (default 1 and 2), analysis and apply (RGB8) separately, RUNS times each (default 5): the
 * median, minimum and maximum in ms (the fast path's first run builds the sRGB table, a
 * process does that once: its time is printed apart). Each fast run's result is checked
 * against the reference's. Then the same for the 16-bit apply. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image.h"
#include "tool_time.h"
#include "tonemap_fast.h"

enum { MAX_RUNS = 101, MAX_SETS = 16 };

/* One line: median (min..max) of the analysis, the apply and their sum (AN NULL: the apply
 * alone). */
static void report(const char *name, double *an, double *ap, int runs)
{
    if (!an) {
        qsort(ap, (size_t)runs, sizeof *ap, cmp_double);
        printf("| %s | %.1f (%.1f..%.1f) |\n", name, ap[runs / 2], ap[0], ap[runs - 1]);
        return;
    }
    double sum[MAX_RUNS];
    for (int i = 0; i < runs; i++)
        sum[i] = an[i] + ap[i];
    qsort(an, (size_t)runs, sizeof *an, cmp_double);
    qsort(ap, (size_t)runs, sizeof *ap, cmp_double);
    qsort(sum, (size_t)runs, sizeof *sum, cmp_double);
    printf("| %s | %.1f (%.1f..%.1f) | %.1f (%.1f..%.1f) | %.1f (%.1f..%.1f) |\n", name,
           an[runs / 2], an[0], an[runs - 1], ap[runs / 2], ap[0], ap[runs - 1],
           sum[runs / 2], sum[0], sum[runs - 1]);
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[2]) : 5, sets[MAX_SETS] = {1, 2}, nsets = 2;
    if (argc > 3) {
        nsets = argc - 3 < MAX_SETS ? argc - 3 : MAX_SETS;
        for (int i = 0; i < nsets; i++)
            sets[i] = atoi(argv[3 + i]);
    }
    if (argc < 2 || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: %s IN [RUNS (1..%d)] [THREADS...]\n", argv[0], MAX_RUNS);
        return 2;
    }
    char err[HT_ERR_MAX];
    hdr_image img = {0};
    tonemap_params p;
    tonemap_params_default(&p);
    bool loaded = image_load(argv[1], NULL, &img, err, sizeof err);
    if (!loaded) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t n = (size_t)img.width * img.height * 3;
    uint8_t *ref = malloc(n), *out = malloc(n);
    tonemap_result rr, fr;
    if (!ref || !out) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double an[MAX_RUNS], ap[MAX_RUNS];
    printf("%d x %d, %d runs: median (min..max) ms\n\n", img.width, img.height, runs);
    printf("| path | analysis | apply (RGB8) | total |\n|---|---:|---:|---:|\n");
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        tonemap_cpu_analyze(&img, &p, &rr);
        double t1 = now_ms();
        tonemap_cpu_apply(&img, &p, &rr, ref);
        an[i] = t1 - t0;
        ap[i] = now_ms() - t1;
    }
    report("reference", an, ap, runs);
    int status = 0;
    for (int s = 0; s < nsets; s++) {
        for (int i = 0; i < runs; i++) {
            double t0 = now_ms();
            tonemap_fast_analyze(&img, &p, &fr, sets[s]);
            double t1 = now_ms();
            tonemap_fast_apply(&img, &p, &fr, out, sets[s]);
            an[i] = t1 - t0;
            ap[i] = now_ms() - t1;
            if (memcmp(&rr, &fr, sizeof rr) != 0 || memcmp(ref, out, n) != 0)
                status = 1;
        }
        char name[64];
        snprintf(name, sizeof name, "fast, %d thread%s", tonemap_fast_threads(sets[s]),
                 tonemap_fast_threads(sets[s]) > 1 ? "s" : "");
        report(name, an, ap, runs);
    }
    for (unsigned levels = 255; levels <= 65535; levels = levels * 257) {
        tonemap_encode_table t;
        double t0 = now_ms();
        bool ok = tonemap_encode_table_init(&t, &p, levels, sets[nsets - 1]);
        printf("%ssRGB table for %u levels: %.1f ms on %d thread(s), %zu cells\n",
               levels == 255 ? "\n" : "", levels,
               now_ms() - t0, tonemap_fast_threads(sets[nsets - 1]), ok ? t.cells : 0);
        tonemap_encode_table_free(&t);
    }
    uint16_t *ref16 = malloc(n * 2), *out16 = malloc(n * 2);
    printf("\n| path | apply (RGB16) |\n|---|---:|\n");
    for (int s = -1; s < nsets && ref16 && out16; s++) {
        for (int i = 0; i < runs; i++) {
            double t0 = now_ms();
            if (s < 0)
                tonemap_cpu_apply16(&img, &p, &rr, ref16);
            else
                tonemap_fast_apply16(&img, &p, &rr, out16, sets[s]);
            ap[i] = now_ms() - t0;
            status |= s >= 0 && memcmp(ref16, out16, n * 2) != 0;
        }
        char name[64];
        snprintf(name, sizeof name, s < 0 ? "reference" : "fast, %d thread(s)",
                 s < 0 ? 0 : tonemap_fast_threads(sets[s]));
        report(name, NULL, ap, runs);
    }
    free(ref16);
    free(out16);
    if (status)
        fprintf(stderr, "the fast path differs from the reference\n");
    free(ref);
    free(out);
    image_free(&img);
    return status;
}
