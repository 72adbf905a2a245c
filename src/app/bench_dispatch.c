/* bench --dispatches (bench_dispatch.h): glad's entry points for GL work swapped for wrappers
 * that put a GL_TIMESTAMP query on each side of the call while a frame is recorded. */
#include "bench_dispatch.h"

#include "gpu_timer.h"

#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

enum { MAX_EVENTS = 160, LABEL = 24 };

typedef struct event {
    const char *kind;
    char label[LABEL];   /* the bound program's GL label (compute work), else empty */
    unsigned groups[3];
    GLuint q[2];         /* timestamps before and after */
    double cpu[2];       /* the CPU clock (ms) at the call and at its return */
} event;

typedef struct recording {
    event *ev;           /* runs x MAX_EVENTS */
    GLuint *queries;     /* two per event */
    int frame, n;        /* the frame being recorded, its events so far */
    bool on, overflow;
} recording;
static recording rec;

static event *stamp_begin(const char *kind, unsigned gx, unsigned gy, unsigned gz)
{
    if (!rec.on || rec.n >= MAX_EVENTS) {
        rec.overflow |= rec.on;
        return NULL;
    }
    int i = rec.n++;
    event *e = &rec.ev[(size_t)rec.frame * MAX_EVENTS + i];
    *e = (event){kind, "", {gx, gy, gz}, {0, 0}, {gpu_timer_clock_ms(), 0}};
    GLint prog = 0;
    if (strncmp(kind, "dispatch", 8) == 0)
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    if (prog)
        glGetObjectLabel(GL_PROGRAM, (GLuint)prog, LABEL, NULL, e->label);
    memcpy(e->q, rec.queries + 2 * ((size_t)rec.frame * MAX_EVENTS + i), sizeof e->q);
    glQueryCounter(e->q[0], GL_TIMESTAMP);
    return e;
}

static void stamp_end(event *e)
{
    if (!e)
        return;
    glQueryCounter(e->q[1], GL_TIMESTAMP);
    e->cpu[1] = gpu_timer_clock_ms();
}

/* One wrapper per entry point, the real one saved in real_NAME: KIND, then the groups of a
 * direct dispatch (0 0 0 for other work and indirect dispatches: their count is on the GPU). */
#define WRAP(NAME, KIND, GX, GY, GZ, PARAMS, ARGS)                                             \
    static PFN##NAME##PROC real_##NAME;                                                        \
    static void GLAD_API_PTR wrap_##NAME PARAMS                                                    \
    {                                                                                          \
        event *e = stamp_begin(KIND, GX, GY, GZ);                                              \
        real_##NAME ARGS;                                                                      \
        stamp_end(e);                                                                          \
    }
WRAP(GLDISPATCHCOMPUTE, "dispatch", x, y, z, (GLuint x, GLuint y, GLuint z), (x, y, z))
WRAP(GLDISPATCHCOMPUTEINDIRECT, "dispatch (indirect)", 0, 0, 0, (GLintptr o), (o))
WRAP(GLCOPYBUFFERSUBDATA, "buffer copy", 0, 0, 0,
     (GLenum r, GLenum w, GLintptr ro, GLintptr wo, GLsizeiptr n), (r, w, ro, wo, n))
WRAP(GLCLEARBUFFERSUBDATA, "buffer clear", 0, 0, 0,
     (GLenum t, GLenum f, GLintptr o, GLsizeiptr n, GLenum fo, GLenum ty, const void *d),
     (t, f, o, n, fo, ty, d))
WRAP(GLCLEARBUFFERDATA, "buffer clear", 0, 0, 0,
     (GLenum t, GLenum f, GLenum fo, GLenum ty, const void *d), (t, f, fo, ty, d))
WRAP(GLBUFFERSUBDATA, "buffer upload", 0, 0, 0,
     (GLenum t, GLintptr o, GLsizeiptr n, const void *d), (t, o, n, d))
WRAP(GLBUFFERDATA, "buffer (re)made", 0, 0, 0,
     (GLenum t, GLsizeiptr n, const void *d, GLenum u), (t, n, d, u))
WRAP(GLGETBUFFERSUBDATA, "read-back", 0, 0, 0, (GLenum t, GLintptr o, GLsizeiptr n, void *d),
     (t, o, n, d))
WRAP(GLGETTEXIMAGE, "texture read-back", 0, 0, 0,
     (GLenum t, GLint l, GLenum f, GLenum ty, void *d), (t, l, f, ty, d))
WRAP(GLCOPYIMAGESUBDATA, "image copy", 0, 0, 0,
     (GLuint s, GLenum st, GLint sl, GLint sx, GLint sy, GLint sz, GLuint d, GLenum dt,
      GLint dl, GLint dx, GLint dy, GLint dz, GLsizei w, GLsizei h, GLsizei n),
     (s, st, sl, sx, sy, sz, d, dt, dl, dx, dy, dz, w, h, n))
#undef WRAP

/* glClientWaitSync returns a value. */
static PFNGLCLIENTWAITSYNCPROC real_GLCLIENTWAITSYNC;
static GLenum GLAD_API_PTR wrap_GLCLIENTWAITSYNC(GLsync s, GLbitfield f, GLuint64 t)
{
    event *e = stamp_begin("fence wait", 0, 0, 0);
    GLenum r = real_GLCLIENTWAITSYNC(s, f, t);
    stamp_end(e);
    return r;
}

#define SWAPS(X)                                                                               \
    X(GLDISPATCHCOMPUTE, glad_glDispatchCompute)                                               \
    X(GLDISPATCHCOMPUTEINDIRECT, glad_glDispatchComputeIndirect)                               \
    X(GLCOPYBUFFERSUBDATA, glad_glCopyBufferSubData)                                           \
    X(GLCLEARBUFFERSUBDATA, glad_glClearBufferSubData)                                         \
    X(GLCLEARBUFFERDATA, glad_glClearBufferData)                                               \
    X(GLBUFFERSUBDATA, glad_glBufferSubData)                                                   \
    X(GLBUFFERDATA, glad_glBufferData)                                                         \
    X(GLGETBUFFERSUBDATA, glad_glGetBufferSubData)                                             \
    X(GLGETTEXIMAGE, glad_glGetTexImage)                                                       \
    X(GLCOPYIMAGESUBDATA, glad_glCopyImageSubData)                                             \
    X(GLCLIENTWAITSYNC, glad_glClientWaitSync)

/* The wrappers in (ON) or the real entry points back. */
static void swap_entry_points(bool on)
{
#define SWAP(NAME, PTR)                                                                        \
    if (on) {                                                                                  \
        real_##NAME = PTR;                                                                     \
        PTR = wrap_##NAME;                                                                     \
    } else {                                                                                   \
        PTR = real_##NAME;                                                                     \
    }
    SWAPS(SWAP)
#undef SWAP
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of V[0..N) (sorts V). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static GLuint64 stamp(GLuint q)
{
    GLuint64 t = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &t);
    return t;
}

/* Whether frame R's sequence of work is frame 0's. */
static bool same_sequence(int r, int n)
{
    const event *a = rec.ev, *b = rec.ev + (size_t)r * MAX_EVENTS;
    for (int i = 0; i < n; i++)
        if (a[i].kind != b[i].kind || strcmp(a[i].label, b[i].label) != 0 ||
            memcmp(a[i].groups, b[i].groups, sizeof a[i].groups) != 0)
            return false;
    return true;
}

/* The table of the recorded RUNS frames of N pieces each. */
static void report(FILE *f, const char *title, int runs, int n)
{
    double *col = malloc((size_t)runs * 3 * sizeof *col), *gap = col + runs, *cpu = gap + runs;
    double busy = 0, idle = 0, span[2] = {0, 0};
    if (!col)
        abort();
    fprintf(f, "\n%s: the frame's GPU work, medians of %d frames (us; idle: the GPU waiting "
               "before the piece, where it ran dry, not where the CPU spent the time; cpu: the "
               "CPU from issuing the piece before to issuing this one)\n"
               "%3s  %-20s %-22s %-16s %9s %9s %9s\n",
            title, runs, "#", "kind", "program", "groups", "gpu", "idle", "cpu");
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < runs; r++) {
            const event *e = rec.ev + (size_t)r * MAX_EVENTS;
            GLuint64 t0 = stamp(e[i].q[0]), t1 = stamp(e[i].q[1]);
            GLuint64 prev = i ? stamp(e[i - 1].q[1]) : t0;
            col[r] = (double)(t1 - t0) * 1e-3;
            gap[r] = t0 > prev ? (double)(t0 - prev) * 1e-3 : 0.0;
            cpu[r] = (e[i].cpu[0] - (i ? e[i - 1].cpu[1] : e[i].cpu[0])) * 1e3;
        }
        const event *e = rec.ev + i;
        char groups[32] = "";
        if (e->groups[0] || e->groups[1] || e->groups[2])
            snprintf(groups, sizeof groups, "%ux%ux%u", e->groups[0], e->groups[1], e->groups[2]);
        double g = median(col, runs), d = median(gap, runs);
        busy += g;
        idle += d;
        fprintf(f, "%3d  %-20s %-22s %-16s %9.1f %9.1f %9.1f\n", i, e->kind, e->label, groups, g,
                d, median(cpu, runs));
    }
    for (int r = 0; r < runs; r++) {
        const event *e = rec.ev + (size_t)r * MAX_EVENTS;
        col[r] = (double)(stamp(e[n - 1].q[1]) - stamp(e[0].q[0])) * 1e-3;
        gap[r] = (e[n - 1].cpu[1] - e[0].cpu[0]) * 1e3;
    }
    span[0] = median(col, runs);
    span[1] = median(gap, runs);
    fprintf(f, "%s: GPU span %.1f us (busy %.1f, idle %.1f: sums of the medians); CPU span "
               "%.1f us\n",
            title, span[0], busy, idle, span[1]);
    free(col);
}

bool bench_dispatches(FILE *f, const char *title, void (*frame)(void *), void *arg, int runs)
{
    for (int i = 0; i < 5; i++)
        frame(arg);
    glFinish();
    rec = (recording){0};
    rec.ev = calloc((size_t)runs * MAX_EVENTS, sizeof *rec.ev);
    rec.queries = calloc((size_t)runs * MAX_EVENTS * 2, sizeof *rec.queries);
    if (!rec.ev || !rec.queries)
        abort();
    glGenQueries(runs * MAX_EVENTS * 2, rec.queries);
    swap_entry_points(true);
    bool same = true;
    int n = 0;
    for (rec.frame = 0; rec.frame < runs; rec.frame++) {
        rec.n = 0;
        rec.on = true;
        frame(arg);
        rec.on = false;
        if (rec.frame == 0)
            n = rec.n;
        same = same && rec.n == n && same_sequence(rec.frame, n);
        glFinish();   /* frames apart: each one's idle is its own */
    }
    swap_entry_points(false);
    GLint bits = 0;
    glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
    bool ok = same && !rec.overflow && n > 0 && bits > 0;
    if (ok)
        report(f, title, runs, n);
    else
        fprintf(f, "\n%s: not timed (%s)\n", title,
                !bits           ? "the driver has no timestamps"
                : rec.overflow  ? "more than the pieces of work a frame can hold"
                : n == 0        ? "no GL work in the frame"
                                : "the frames' sequences of work differ");
    glDeleteQueries(runs * MAX_EVENTS * 2, rec.queries);
    free(rec.ev);
    free(rec.queries);
    rec = (recording){0};
    return ok;
}
