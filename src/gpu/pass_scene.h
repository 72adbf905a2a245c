/* Scene pass (viewer only): the image texture with the view's zoom and pan in a float target
 * the size of the window, every sample of it (scene.comp, a compute pass), so that MSAA also
 * antialiases the image when it is zoomed out. The pipeline then reads the target as an
 * ht_source. */
#ifndef HT_PASS_SCENE_H
#define HT_PASS_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"

typedef struct pass_scene pass_scene;

/* Where the image lands in the target: its top-left corner at (x, y) in target pixels
 * (top-left origin, y down), each image pixel ZOOM target pixels wide. */
typedef struct scene_view {
    double x, y;
    double zoom;
} scene_view;

/* Returns NULL with the reason in err (the shaders do not build). Needs a current context. */
pass_scene *pass_scene_create(char *err, size_t errlen);
/* Accepts NULL; sets *s to NULL. */
void pass_scene_destroy(pass_scene **s);

/* The sample count the target will really get for REQUESTED samples (1 = no MSAA): capped at
 * what the driver supports for the format (llvmpipe: 4). */
int pass_scene_samples(pass_scene *s, int requested, bool float32);

/* Draws IMAGE (a GL_TEXTURE_2D, samples 1) into the target of WIDTH x HEIGHT, recreated only
 * when the size, format (RGBA32F when FLOAT32, else RGBA16F) or sample count change. Pixels
 * the image does not cover are 0 (black: Lw = 0 takes no part in the statistics). Returns the
 * target as a source for pipeline_frame. */
ht_source pass_scene_run(pass_scene *s, ht_source image, bool float32, int width, int height,
                         int samples, scene_view view);

/* The same for the pipeline's uploaded image, every piece of it when it is larger than one
 * texture (pipeline_upload): one quad per piece, all placed by VIEW in the whole image's
 * pixels, so zoomed out the GPU downsamples the whole image (MSAA). For an image of one
 * texture it draws exactly what pass_scene_run(s, pipeline_image_source(p), ...) draws. */
ht_source pass_scene_run_image(pass_scene *s, const pipeline *p, bool float32, int width,
                               int height, int samples, scene_view view);

/* Why the latest pass_scene_run* drew no image (its program does not build for that sample
 * count or format on this driver; the target is then 0), or "" when it drew. */
const char *pass_scene_error(const pass_scene *s);

/* GPU time of the latest pass_scene_run* the GPU has finished, in milliseconds (its own
 * gpu_timer, read without waiting when the next run begins: a frame or two late; 0 until
 * available or where the driver reports 0). */
double pass_scene_last_ms(const pass_scene *s);

#endif
