/* The display encoding as tables of thresholds (tonemap_fast.h): a value's code from a table
 * look-up and a comparison or two instead of pow, and exactly the reference's code. */
#include "tonemap_fast.h"

#include "parallel.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum {
    THRESH_BLOCK = 512,   /* thresholds per work item: each item starts with a full search */
    CELL_BLOCK = 8192,    /* look-up cells per work item */
    SECANT_STEPS = 4,
    MAX_CELL_BITS = 20,   /* at most 2^20 cells per octave */
    MAX_CELLS = 1 << 22,  /* 8 MiB of look-up table */
};

typedef struct table_job {
    tonemap_encode_table *t;
    const tonemap_params *p;
    _Atomic size_t next;
    size_t count;
} table_job;

static uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static double double_of(uint64_t u)
{
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* E(V) * LEVELS + 0.5, whose integer part is the reference's code of V (the expression of
 * tonemap_cpu_apply and tonemap_cpu_apply16): the code is >= k exactly when this is >= k. */
static double scaled(const table_job *j, double v)
{
    return tonemap_encode_unit(j->p, v) * j->t->levels + 0.5;
}

/* The smallest double V in (LO, HI] with scaled(V) >= K, given scaled(LO) < K <= scaled(HI)
 * (LO and HI as bit patterns of non-negative doubles, which order as the values). */
static uint64_t bisect(const table_job *j, unsigned k, uint64_t lo, uint64_t hi)
{
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (scaled(j, double_of(mid)) >= k)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* The threshold of code K near the estimate GUESS in (LO, 1], with scaled(LO) < K: a few
 * secant steps on scaled(V) - K, then an exponential search in ulps for a bracket, then
 * bisection. */
static double threshold_near(const table_job *j, unsigned k, double lo, double guess)
{
    double a = lo, fa = scaled(j, lo) - k, b = guess, fb = scaled(j, guess) - k;
    for (int s = 0; s < SECANT_STEPS && fb != fa && fb != 0; s++) {
        double c = b - fb * (b - a) / (fb - fa);
        if (!(c > lo && c <= 1.0))
            break;
        a = b, fa = fb;
        b = c, fb = scaled(j, c) - k;
    }
    uint64_t v = bits_of(b), lo_bits = bits_of(lo), one = bits_of(1.0), step = 1;
    if (fb >= 0) {   /* B is at or past the threshold: find a point below it */
        uint64_t hi = v;
        for (;;) {
            uint64_t below = hi - lo_bits > step ? hi - step : lo_bits;
            if (below == lo_bits || scaled(j, double_of(below)) < k)
                return double_of(bisect(j, k, below, hi));
            hi = below;
            step *= 2;
        }
    }
    uint64_t low = v;
    for (;;) {
        uint64_t above = one - low > step ? low + step : one;
        if (above == one || scaled(j, double_of(above)) >= k)
            return double_of(bisect(j, k, low, above));
        low = above;
        step *= 2;
    }
}

/* Thresholds of a block of codes: the first by bisection over [0, 1], each next one from the
 * previous two (the step between them, extrapolated). */
static void threshold_block(void *ctx, int worker)
{
    (void)worker;
    table_job *j = ctx;
    size_t item;
    while (tonemap_fast_take(&j->next, j->count, &item)) {
        unsigned first = 1 + (unsigned)item * THRESH_BLOCK, levels = j->t->levels;
        unsigned last = first + THRESH_BLOCK - 1 < levels ? first + THRESH_BLOCK - 1 : levels;
        double *t = j->t->thresh;
        for (unsigned k = first; k <= last; k++) {
            double prev = k > first ? t[k - 1] : 0.0;
            if (scaled(j, prev) >= k && k > first)
                t[k] = prev;   /* two codes at once (cannot happen for these encodings) */
            else if (k < first + 2)
                t[k] = double_of(bisect(j, k, bits_of(prev), bits_of(1.0)));
            else
                t[k] = threshold_near(j, k, prev, fmin(prev + (prev - t[k - 2]), 1.0));
        }
    }
}

/* The codes of a block of look-up cells: the code of the cell's first double, counted from
 * the thresholds (binary search, then a walk along the block). */
static void lut_block(void *ctx, int worker)
{
    (void)worker;
    table_job *j = ctx;
    tonemap_encode_table *t = j->t;
    size_t item;
    while (tonemap_fast_take(&j->next, j->count, &item)) {
        size_t first = item * CELL_BLOCK;
        size_t end = first + CELL_BLOCK < t->cells ? first + CELL_BLOCK : t->cells;
        /* code = the number of thresholds <= the first double of the cell */
        double v0 = double_of((t->base + first) << t->shift);
        unsigned lo = 0, hi = t->levels;   /* thresh[lo] <= v0 (lo = 0: none) < thresh[hi+1] */
        while (lo < hi) {
            unsigned mid = lo + (hi - lo + 1) / 2;
            if (t->thresh[mid] <= v0)
                lo = mid;
            else
                hi = mid - 1;
        }
        unsigned code = lo;
        for (size_t c = first; c < end; c++) {
            double v = double_of((t->base + c) << t->shift);
            while (v >= t->thresh[code + 1])
                code++;
            t->lut[c] = (uint16_t)code;
        }
    }
}

/* The cell size: 2^-bits of an octave with BITS such that a cell holds one threshold at most
 * (cells narrower than the smallest step between two thresholds relative to the upper one),
 * within MAX_CELLS. */
static void choose_cells(tonemap_encode_table *t)
{
    double gap = 1.0;
    for (unsigned k = 1; k < t->levels; k++)
        if (t->thresh[k + 1] > t->thresh[k])
            gap = fmin(gap, (t->thresh[k + 1] - t->thresh[k]) / t->thresh[k + 1]);
    int bits = (int)floor(-log2(gap)) + 1;
    bits = bits < 1 ? 1 : bits > MAX_CELL_BITS ? MAX_CELL_BITS : bits;
    for (;; bits--) {
        t->shift = 52 - bits;
        t->base = bits_of(t->thresh[1]) >> t->shift;
        t->cells = (size_t)((bits_of(1.0) >> t->shift) - t->base);
        if (t->cells <= MAX_CELLS || bits == 1)
            return;
    }
}

bool tonemap_encode_table_init(tonemap_encode_table *t, const tonemap_params *p,
                               unsigned levels, int threads)
{
    memset(t, 0, sizeof *t);
    t->levels = levels;
    if (!(t->thresh = malloc((levels + 2) * sizeof *t->thresh)))
        return false;
    table_job j = {.t = t, .p = p, .count = (levels + THRESH_BLOCK - 1) / THRESH_BLOCK};
    t->thresh[0] = 0.0;
    t->thresh[levels + 1] = INFINITY;
    parallel_run(tonemap_fast_threads(threads), threshold_block, &j);
    choose_cells(t);
    if (!(t->lut = malloc(t->cells * sizeof *t->lut))) {
        tonemap_encode_table_free(t);
        return false;
    }
    j.next = 0;
    j.count = (t->cells + CELL_BLOCK - 1) / CELL_BLOCK;
    parallel_run(tonemap_fast_threads(threads), lut_block, &j);
    return true;
}

void tonemap_encode_table_free(tonemap_encode_table *t)
{
    free(t->thresh);
    free(t->lut);
    memset(t, 0, sizeof *t);
}
