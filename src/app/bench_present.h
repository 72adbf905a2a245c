/* The present of bench's "viewer frame" rows: the tone-mapped output put into the window, here
 * a stand-in RGBA8 texture of the window's size, in the ways bench compares (the viewer
 * blits). Needs a current GL 4.3 context. */
#ifndef HT_BENCH_PRESENT_H
#define HT_BENCH_PRESENT_H

#include <stddef.h>

/* blit: glBlitFramebuffer, as the viewer; copy: glCopyImageSubData texture to texture;
 * apply: the apply pass writes the window itself (pipeline_set_output), nothing to present;
 * triangle: a full-screen triangle that samples the output. */
#define BENCH_PRESENTS(X) X(blit) X(copy) X(apply) X(triangle)
#define BENCH_PRESENT_ENUM_(n) BENCH_PRESENT_##n,
enum { BENCH_PRESENTS(BENCH_PRESENT_ENUM_) BENCH_PRESENT_COUNT };
#undef BENCH_PRESENT_ENUM_
extern const char *const bench_present_names[BENCH_PRESENT_COUNT];

typedef struct bench_present bench_present;

/* NULL with the reason in err (the triangle's program does not build). */
bench_present *bench_present_create(char *err, size_t errlen);
/* Accepts NULL; sets *p to NULL. */
void bench_present_destroy(bench_present **p);

/* The window's stand-in, an RGBA8 texture of W x H (made or resized here, owned by P). */
unsigned bench_present_window(bench_present *p, int w, int h);
/* Puts the RGBA8 texture OUTPUT (W x H) into the window by HOW (BENCH_PRESENT_*; apply:
 * nothing); no wait. */
void bench_present_run(bench_present *p, int how, unsigned output, int w, int h);

#endif
