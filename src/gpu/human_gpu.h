/* The human-vision per-pixel stage on the GPU (human.h's step 5: acuity, veil, colour loss;
 * common.glsl's ht_human_pixel): fed by foveal-resolution grids that an analysis (on the GPU,
 * or human_cpu_analyze through human_grids_upload) leaves in two SSBOs, it runs inside the
 * apply pass (pipeline_set_human) or on its own into a float picture (pipeline_human_prepare,
 * for the viewer, whose scene pass then zooms that picture instead of the image). Acuity reads
 * a box pyramid of the uploaded image that the pipeline builds when the image or the root
 * level change. The stage needs the image in one texture: an image in pieces is refused. */
#ifndef HT_HUMAN_GPU_H
#define HT_HUMAN_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "human.h"
#include "pipeline.h"

/* The stage's inputs. The buffers are the caller's (human_grids_upload makes its own). */
typedef struct ht_human_grids {
    unsigned veil;           /* SSBO, fw * fh vec4 (rgb; a unused), top row first, image units */
    unsigned sample_radii;   /* SSBO, fw * fh float, input pixels, top row first */
    int fw, fh;              /* the foveal grid */
    int root_level;          /* the pyramid's coarsest level (human_report.root_level) */
    unsigned stages;         /* HT_HUMAN_* bits (gpu_shared.h); 0: the stage changes nothing */
} ht_human_grids;

/* What the human-vision analysis of the last frame (pipeline_frame, pipeline_analyze_uploaded,
 * pipeline_tonemap_* with the options; pipeline.h) left: its human_report, as human_cpu_analyze
 * fills it, or NULL when that analysis had no human-vision option (an image in pieces refuses
 * the options: its frame fails with the reason); and its grids, the pipeline's own buffers
 * (sample_radii holds fw * fh radii), all zero without the options. */
const human_report *pipeline_human_report(const pipeline *p);
ht_human_grids pipeline_human_grids(const pipeline *p);
/* Reads the grids back (tests): VEIL fw * fh * 3 floats (rgb), SR fw * fh floats; either may
 * be NULL. Valid where the stage applied. */
void pipeline_read_human_grids(pipeline *p, float *veil, float *sr);

/* *G from the CPU analysis' state HS: its veil and sample radii in G's buffers (made on the
 * first call, when G->veil and G->sample_radii are 0; refilled after), the stages that
 * human_cpu_pixel applies (acuity only when it blurs: HUMAN_APPLIED with radii). False (and
 * *G as it was) when out of memory. */
bool human_grids_upload(ht_human_grids *g, const human_state *hs, char *err, size_t errlen);
/* Deletes the buffers human_grids_upload made; *G becomes all zero. */
void human_grids_release(ht_human_grids *g);

/* From now on the apply pass runs the stage G (copied; its buffers must live while it is
 * set) on every pixel before the tone curve, until the next analysis with human-vision
 * options, which sets its own (an analysis without them leaves G); NULL (or no stage in G)
 * turns it off, and the apply pass is then the plain one. With the stage on, the apply pass's source must be the
 * uploaded image (pipeline_image_source) in one texture: else it fails with the reason. */
void pipeline_set_human(pipeline *p, const ht_human_grids *g);

/* Runs the stage G over the uploaded image into an RGBA32F texture of its size (owned by the
 * pipeline, rewritten by the next call; alpha is the image's), *OUT: what the tone curve gets
 * per pixel (human_cpu_prepare), in the image's units. PARAMS: scale and luminance weights of
 * the colour loss. False (reason in err) for an image in pieces or none, or when a program
 * does not build. */
bool pipeline_human_prepare(pipeline *p, const ht_human_grids *g, const tonemap_params *params,
                            ht_source *out, char *err, size_t errlen);

/* The acuity pyramid of the uploaded image for G (built when stale): *TEXTURE, an RGBA32F
 * texture whose mip level k - 1 is level k (human_pyramid_build), with *LEVELS levels (at
 * least G's; 0 and no texture without acuity). Owned by the pipeline. False as
 * pipeline_human_prepare. */
bool pipeline_human_pyramid(pipeline *p, const ht_human_grids *g, unsigned *texture,
                            int *levels, char *err, size_t errlen);
/* Benchmark knob: the pyramid held counts as stale, so that its next use builds it again (as
 * new pixels would). */
void pipeline_human_pyramid_stale(pipeline *p);

#endif
