/* Batch export: many inputs in one process, decoding and encoding overlapped with the GPU. */
#ifndef HT_BATCH_H
#define HT_BATCH_H

#include "backend.h"
#include "encode_terms.h"
#include "options.h"

/* The stages of an export, for bench --export. */
#define BATCH_STAGES(X)                                                               \
    X(decode)     /* read + decode, on the worker threads */                             \
    X(tonemap)    /* upload, GPU passes, read-back, or the CPU backend: main thread */   \
    X(encode)     /* PNG / JPEG / hdr / pfm / stream encoding, on the worker threads */  \
    X(write)      /* writing the file (atomic) or the stream */
#define BATCH_STAGE_ENUM_(n) BATCH_##n,
enum { BATCH_STAGES(BATCH_STAGE_ENUM_) BATCH_STAGE_COUNT };
#undef BATCH_STAGE_ENUM_
extern const char *const batch_stage_names[BATCH_STAGE_COUNT];

/* The GL thread's time in a GPU batch, term by term (bench --export --json's "gl_ms"). */
#define BATCH_GL_TERMS(X)                                                              \
    X(wait)          /* waiting for a decode, or for room among the frames to encode */ \
    X(ring)          /* making the decoders' upload buffers (batch_gpu_serve) */       \
    X(upload)        /* backend_gpu_upload: a direct upload, or a copy then upload */  \
    X(passes)        /* issuing the passes and the read-back */                        \
    X(readback_wait) /* waiting for the previous frame's read-back */                  \
    X(readback_copy) /* copying it out of the pixel-buffer object */
#define BATCH_GL_ENUM_(n) BATCH_GL_##n,
enum { BATCH_GL_TERMS(BATCH_GL_ENUM_) BATCH_GL_COUNT };
#undef BATCH_GL_ENUM_
extern const char *const batch_gl_names[BATCH_GL_COUNT];

/* A frame's moments, seconds from the batch's start (bench --export --json's "timeline"). */
#define BATCH_MOMENTS(X)                                                               \
    X(decode_start) X(buffer_asked) X(buffer_got) X(decoded) X(gl_start) X(gl_issued)      \
    X(mapped) X(encode_start) X(done)
#define BATCH_MOMENT_ENUM_(n) BATCH_AT_##n,
enum { BATCH_MOMENTS(BATCH_MOMENT_ENUM_) BATCH_MOMENT_COUNT };
#undef BATCH_MOMENT_ENUM_
extern const char *const batch_moment_names[BATCH_MOMENT_COUNT];

/* What a batch measured: per stage, the seconds its threads were busy (summed over them; the
 * CPU backend's tone-map threads count as busy while the main thread is in it), and how many
 * threads ran it; the frames exported and the wall-clock seconds of the whole batch. */
typedef struct batch_stats {
    double busy_s[BATCH_STAGE_COUNT];
    int threads[BATCH_STAGE_COUNT];
    int frames;
    double wall_s;
    bool shared;   /* decode, encode and write ran on the same threads (a pool of workers) */
    double gl_s[BATCH_GL_COUNT];   /* the GL thread's terms (GPU backend; else 0) */
    unsigned long direct_uploads;  /* frames uploaded straight from the decoders' buffers */
    double cpu_s[2];               /* the process's CPU seconds in the batch: user, system */
    double terms_cpu_s[ENCODE_TERM_COUNT], terms_wall_s[ENCODE_TERM_COUNT]; /* encode_terms.h */
    /* NULL, or the caller's array of the batch's N frames: each frame's moments. */
    double (*timeline)[BATCH_MOMENT_COUNT];
} batch_stats;

/* Tone-maps INPUTS[i] into OUTPUTS[i] for i < N with the backend BE, in o->format (ENCODE_AUTO: PNG; the caller
 * checks that it accepts the pixels), o->depth and o->quality, with o->jobs worker threads
 * (at least two) that decode and encode; the main thread does the tone mapping (it owns the
 * GL context; the CPU backend adds tonemap_fast's workers). A float format (hdr, pfm) gets
 * the linear output as Radiance's pcond writes it, from the CPU whatever the backend:
 * tonemap_cpu_apply_linear's values, and for hdr the EXPOSURE line tonemap_exposure_pcond.
 * Outputs "-" (all of them) make one stream on standard output, frames in input order, all
 * of the first frame's size. Shows progress on stderr when it is a terminal. Returns 0 when
 * every input was exported, 1 otherwise (each failure reported on stderr, naming the file).
 * STATS (may be NULL) receives the stages' times. */
int batch_export(cmd_backend *be, const ht_options *o, const char **inputs,
                 const char **outputs, int n, batch_stats *stats);

/* A sequence's export (seq_cmd.c): FRAMES[i] is input i's frame number, with which its
 * messages start ("frame 17: ..."); TONEMAP (NULL: the backend's own) tone-maps input i
 * instead of the backend, on the main thread and in input order, IMG with its float pixels
 * (it is freed afterwards), into PX (width*height*3 samples of BITS 8 or 16, or BITS 32:
 * the linear output as floats, tonemap_cpu_apply_linear's, with its tonemap_exposure_pcond
 * into *EXPOSURE); false with the reason in err. */
typedef struct batch_hook {
    bool (*tonemap)(void *ctx, int index, hdr_image *img, void *px, int bits, double *exposure,
                    char *err, size_t errlen);
    void *ctx;
    const int *frames;
} batch_hook;

/* batch_export with HOOK (NULL: none). */
int batch_export_hooked(cmd_backend *be, const ht_options *o, const char **inputs,
                        const char **outputs, int n, const batch_hook *hook, batch_stats *stats);

#endif
