/* The backend a command-line command tone-maps with: the CPU (tonemap_fast.h's threads) or
 * the GPU (a headless GL context and one pipeline). Each command makes one (backend_create)
 * and passes it down to what tone-maps (batch export, sequences, stats, bench); there is no
 * process-wide GL state. Calls on one backend come from one thread (the GL context's). */
#ifndef HT_BACKEND_H
#define HT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "pipeline.h"

typedef struct cmd_backend cmd_backend;

/* Decides o->backend where it is HT_BACKEND_AUTO: the GPU when a headless context's renderer
 * is not one of Mesa's software rasterisers (the fast CPU path beats them: BENCHMARKS.md),
 * else the CPU; the context made to look stays for the GPU. Returns the backend (the GPU's
 * pipeline is made on first use), or NULL (reason in err) when out of memory. */
cmd_backend *backend_create(ht_options *o, char *err, size_t errlen);
/* Accepts NULL; sets *b to NULL. Releases the GL context and pipeline. */
void backend_destroy(cmd_backend **b);

/* B's headless GL context, made current on first use, without a pipeline (compare's GPU
 * passes). False (reason in err) when there is no GPU. */
bool backend_gl_context(cmd_backend *b, char *err, size_t errlen);

/* The GPU's pipeline in B's headless context, made on first use (NULL, reason in err, when
 * there is no GPU). HT_MAX_PIECE=N (a test hook, tests/README.md) splits images into pieces
 * of at most N pixels a side. */
pipeline *backend_pipeline(cmd_backend *b, char *err, size_t errlen);

/* The GPU backend's start on IMG: uploads it (pipeline_upload) for tone mapping with O. The
 * GPU cannot take the human-vision options on an image in pieces (larger than a texture: its
 * human-vision stage needs it in one); then the textures are released again and NOTE gets
 * the reason and that the CPU reference runs the image instead (the caller's note, after the
 * file's name): the caller runs it on the CPU. Else NOTE is "" and IMG stays uploaded. False,
 * reason in err. */
bool backend_gpu_upload(cmd_backend *b, const ht_options *o, const hdr_image *img, char *note,
                        size_t len, char *err, size_t errlen);

/* Tone-maps IMG with the backend o->backend selects into *r and RGB (either may be NULL): the
 * GPU's pipeline, or tonemap_fast.h's on o->jobs threads (0: one per CPU). False with the
 * reason in err. */
bool backend_tonemap(cmd_backend *b, const ht_options *o, const hdr_image *img,
                     tonemap_result *r, uint8_t *rgb, char *err, size_t errlen);

/* The same for export, where nothing reads IMG or the GPU textures afterwards: IMG is freed
 * (always, also on failure) as soon as the backend has no more use for it, and the GPU's
 * textures after the read-back, so a large picture is never held twice. The output goes to
 * RGB (8 bits) or, when RGB is NULL, to RGB16 (16 bits: tonemap_cpu_apply16). */
bool backend_tonemap_consume(cmd_backend *b, const ht_options *o, hdr_image *img, uint8_t *rgb,
                             uint16_t *rgb16, char *err, size_t errlen);

#endif
