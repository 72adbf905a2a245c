#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "gpu_timer.h"

#include <stdlib.h>
#include <time.h>

#include <glad/gl.h>

/* A ring of DEPTH queries: [head, head + pending) hold intervals not yet read, oldest first. */
struct gpu_timer {
    unsigned *query;
    int depth, head, pending;
    bool open;           /* between begin and end, with a query running */
    double last_ms;
};

/* The timer whose query is running: GL allows one GL_TIME_ELAPSED query at a time (per
 * context; the program makes one context current at a time). */
static const gpu_timer *g_open;

gpu_timer *gpu_timer_create(int depth)
{
    gpu_timer *t = calloc(1, sizeof *t);
    if (!t || !(t->query = calloc((size_t)(depth > 0 ? depth : 1), sizeof *t->query))) {
        free(t);
        return NULL;
    }
    t->depth = depth > 0 ? depth : 1;
    glGenQueries(t->depth, t->query);
    return t;
}

void gpu_timer_destroy(gpu_timer **tp)
{
    if (!tp || !*tp)
        return;
    gpu_timer *t = *tp;
    if (t->open) {
        glEndQuery(GL_TIME_ELAPSED);
        g_open = NULL;
    }
    glDeleteQueries(t->depth, t->query);
    free(t->query);
    free(t);
    *tp = NULL;
}

void gpu_timer_begin(gpu_timer *t)
{
    if (!t || g_open)
        return;
    if (t->pending == t->depth) {   /* full: the oldest unread interval gives way */
        t->head = (t->head + 1) % t->depth;
        t->pending--;
    }
    glBeginQuery(GL_TIME_ELAPSED, t->query[(t->head + t->pending) % t->depth]);
    t->open = true;
    g_open = t;
}

void gpu_timer_end(gpu_timer *t)
{
    if (!t || !t->open)
        return;
    glEndQuery(GL_TIME_ELAPSED);
    t->open = false;
    t->pending++;
    g_open = NULL;
}

/* Reads the oldest unread interval into t->last_ms. */
static void read_oldest(gpu_timer *t)
{
    GLuint64 ns = 0;
    glGetQueryObjectui64v(t->query[t->head], GL_QUERY_RESULT, &ns);
    t->last_ms = (double)ns * 1e-6;
    t->head = (t->head + 1) % t->depth;
    t->pending--;
}

double gpu_timer_poll(gpu_timer *t)
{
    if (!t)
        return 0;
    while (t->pending > 0) {
        GLuint ready = 0;
        glGetQueryObjectuiv(t->query[t->head], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready)
            break;   /* later intervals finish later */
        read_oldest(t);
    }
    return t->last_ms;
}

int gpu_timer_wait(gpu_timer *t, double *ms, int max)
{
    int n = 0;
    while (t->pending > 0) {
        read_oldest(t);
        if (n < max)
            ms[n++] = t->last_ms;
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

gpu_timing gpu_timing_of(double *ms, int n)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    return (gpu_timing){n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]), ms[0]};
}

double gpu_timer_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

gpu_timing gpu_timer_measure(gpu_timer_fn fn, void *arg, int runs, bool *wall_clock)
{
    for (int i = 0; i < 5; i++)
        fn(arg);
    glFinish();
    double *ms = calloc((size_t)runs, sizeof *ms);
    gpu_timer *t = *wall_clock ? NULL : gpu_timer_create(runs);
    if (!ms)
        abort();
    if (t) {
        double t0 = gpu_timer_clock_ms();
        for (int i = 0; i < runs; i++) {
            gpu_timer_begin(t);
            fn(arg);
            gpu_timer_end(t);
        }
        double total = 0;
        int n = gpu_timer_wait(t, ms, runs);
        for (int i = 0; i < n; i++)
            total += ms[i];
        /* Some drivers (llvmpipe) answer 0 or nonsense for compute: compare with the clock. */
        if (n < runs || total < 0.01 * (gpu_timer_clock_ms() - t0))
            *wall_clock = true;
        gpu_timer_destroy(&t);
    } else {
        *wall_clock = true;
    }
    if (*wall_clock)
        for (int i = 0; i < runs; i++) {
            double t0 = gpu_timer_clock_ms();
            fn(arg);
            glFinish();
            ms[i] = gpu_timer_clock_ms() - t0;
        }
    gpu_timing r = gpu_timing_of(ms, runs);
    free(ms);
    return r;
}
