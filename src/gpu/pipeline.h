/* The GPU tone-mapping pipeline: a fixed sequence of named compute passes
 *   foveal -> points_gather -> histogram -> range -> rebin -> merge -> points_bin -> curve
 *   -> veil -> veil_histogram -> sample_radii -> apply
 * (foveal and the points passes do their work with foveal sampling only, the three before
 * apply with the human-vision options only, pipeline_pass_used).
 * The histogram pass reads the image once for everything the analysis needs, binning it with
 * the range the frame held; the range pass computes the right range and, only when it
 * differs, the rebin pass bins the image again (its groups leave at once otherwise). So a
 * static image costs one read of the analysis per frame, a new one two, and the answer is
 * always the exact one. (Fused forms of range, merge and curve, in one or two dispatches,
 * were measured slower and left the code: BENCHMARKS.md, "The forms of the finishing".)
 * Each pass lives in its own pass_*.c and owns its GL objects; the pipeline owns the buffers
 * the passes hand each other (tiles, frame) and the image and
 * output textures. Nothing is read back between passes; pipeline_read_* read back on request
 * only. Needs a current GL 4.3 context. */
#ifndef HT_PIPELINE_H
#define HT_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "display.h"
#include "human.h"
#include "image.h"
#include "tonemap.h"

typedef struct pipeline pipeline;

/* A texture the passes read: samples == 1 for a GL_TEXTURE_2D, > 1 for a
 * GL_TEXTURE_2D_MULTISAMPLE (the analysis reads sample 0, the apply pass tone-maps every
 * sample, then resolves). The format must be RGBA16F or RGBA32F. */
typedef struct ht_source {
    unsigned texture;
    int width, height;
    int samples;
} ht_source;

/* Named passes, for timings (indices into pipeline_timings.ms). The human-vision analysis
 * (human.h's steps 2 to 4, as human_cpu_analyze): veil reads the first analysis back (a
 * stall), decides with human_check2do, and where the veil or acuity applies makes the foveal
 * image (pixel sampling has none yet), then the veil grid and the veiled foveal image;
 * veil_histogram runs the analysis passes again after the veil (pcond's second histogram:
 * the veiled foveal image and the continued point samples, or every pixel with the veil
 * added; the range test of the first stands); with acuity the veil pass also makes the
 * radii, whose largest sample_radii reads back (fenced: the GPU runs veil_histogram
 * meanwhile). */
#define HT_PASSES(X) \
    X(foveal) X(points_gather) X(histogram) X(range) X(rebin) X(merge) X(points_bin) X(curve) \
    X(veil) X(veil_histogram) X(sample_radii) X(apply)
#define HT_PASS_ENUM_(n) HT_PASS_##n,
enum { HT_PASSES(HT_PASS_ENUM_) HT_PASS_COUNT };
#undef HT_PASS_ENUM_
extern const char *const pipeline_pass_names[HT_PASS_COUNT];

/* Returns NULL with the reason in err (e.g. a shader that does not compile). */
pipeline *pipeline_create(char *err, size_t errlen);
/* Accepts NULL; sets *p to NULL. */
void pipeline_destroy(pipeline **p);

/* Uploads IMG as the image texture (RGBA16F when img->half_exact, else RGBA32F), replacing
 * the previous one: its half floats when it has them (image_add_half; through a pixel-buffer
 * object, nothing converted on this thread), else its floats. An image wider or taller than GL_MAX_TEXTURE_SIZE becomes a grid of
 * pieces, each its own texture of at most the limit (the analysis sees the whole image,
 * pipeline_tonemap_* apply every piece, pass_scene_run_image draws them all). False (with
 * the reason) for an empty image or when out of memory. */
bool pipeline_upload(pipeline *p, const hdr_image *img, char *err, size_t errlen);
/* An allocator for image_load_options.half_alloc (with half_only): decoder threads then
 * decode frames straight into persistently mapped pixel-buffer objects, up to FRAMES of
 * them, made at the first frame's size, and pipeline_upload copies nothing (upload_ring.h;
 * without buffer storage in the driver it hands out nothing). Every image loaded with it
 * must be freed before pipeline_destroy. NULL when out of memory. */
const image_allocator *pipeline_upload_allocator(pipeline *p, int frames);

/* The allocator's decoders wait for its buffers rather than take none, and NOTIFY(CTX) asks
 * the GL thread for them: pipeline_upload_serve (upload_ring_set_notify; NULL: no waiting). */
void pipeline_upload_notify(pipeline *p, void (*notify)(void *ctx), void *ctx);
/* GL thread: makes the buffers a waiting decoder asked for (upload_ring_serve). */
void pipeline_upload_serve(pipeline *p);
/* GL thread: one buffer more before it is asked for; whether it made one
 * (upload_ring_make_ahead). */
bool pipeline_upload_make_ahead(pipeline *p);

/* The uploads so far that copied nothing (from pipeline_upload_allocator's buffers). */
unsigned long pipeline_direct_uploads(const pipeline *p);

/* The uploaded image as a source (texture 0 before any upload). For an image in pieces: its
 * first piece (top left), which pipeline_frame and pipeline_run_pass's analysis passes
 * take for the whole image. */
ht_source pipeline_image_source(const pipeline *p);
/* The number of pieces of the uploaded image (1 when it fits one texture, 0 before any
 * upload), and piece I as a source, with its top-left corner in the image in *x, *y. */
int pipeline_image_pieces(const pipeline *p);
/* Counts the uploads (pipeline_upload*, successful or not): a new value, new pixels. */
unsigned long pipeline_image_generation(const pipeline *p);
ht_source pipeline_image_piece(const pipeline *p, int i, int *x, int *y);
/* Test knob: pieces of at most SIZE pixels a side (rounded down to whole histogram tiles)
 * from the next upload on, to split ordinary images; 0 restores the GL limit. */
void pipeline_set_max_piece(pipeline *p, int size);

/* A frame, timed (pipeline_last_timings): the analysis passes (foveal .. curve, then with
 * human-vision options veil .. sample_radii, so that the frame holds the curve after the
 * veil) over ANALYSIS into the frame buffer, over every piece when ANALYSIS is
 * pipeline_image_source of an image in pieces; then the apply pass: APPLY through the frame's
 * curve into the output texture (RGBA8, APPLY's size, resolved when APPLY is multisampled),
 * APPLY as given (one piece of an image in pieces: pipeline_tonemap_* apply them all). False
 * (reason in err) when a pass's program cannot be built, or for human-vision options on an
 * image in pieces; the passes after it do not run. */
bool pipeline_frame(pipeline *p, ht_source analysis, ht_source apply,
                    const tonemap_params *params, char *err, size_t errlen);

/* Runs the one pass PASS (HT_PASS_*) on SRC, as pipeline_frame does, without its timer (the
 * benchmark brackets it with its own). The passes before it must have run on SRC. False
 * (reason in err) when its program cannot be built. */
bool pipeline_run_pass(pipeline *p, int pass, ht_source src, const tonemap_params *params,
                       char *err, size_t errlen);
/* Whether PASS does any work with PARAMS (foveal and the points passes need foveal sampling,
 * the points passes point samples too; veil any human-vision option, veil_histogram the veil,
 * sample_radii acuity); the others always do. */
bool pipeline_pass_used(int pass, const tonemap_params *params);


/* The one-frame-latency form for streams, FRAMES 1 (0, the default: none; other values are
 * ignored): pipeline_frame applies the curve the frame holds (the previous frame's analysis)
 * while the apply pass bins the new frame's tiles as the histogram pass would, so a frame is
 * read once, not twice; range, merge and curve then make its curve for the next frame. The frame
 * therefore holds the new frame's analysis (pipeline_read_result) while the output shows the
 * previous one's; a static image gives the same bytes as without latency from its second
 * frame on. It applies when the frame holds an analysis (else that frame runs as without
 * latency) and with pixel sampling when ANALYSIS and APPLY are the same texture of one sample
 * in one piece; any other frame runs as without latency. */
void pipeline_set_latency(pipeline *p, int frames);

/* The display mode of the apply pass from the next frame on (display.h; resolved: its
 * automatic parts made concrete for the image, display_resolve), copied; NULL: tone mapping,
 * the default. Only the apply pass reads it: switching needs no upload and no analysis, and
 * the analysis (histogram, curve) still runs as in tone mapping. A mode other than tone
 * mapping runs without the one-frame latency (pipeline_set_latency) and without the
 * human-vision stage. */
void pipeline_set_display(pipeline *p, const display_params *d);
const display_params *pipeline_display(const pipeline *p);

/* Per-pass timing: with ON, pipeline_frame and the analyses time every pass with its own
 * timer (pipeline_last_timings' ms[] and their sum); off (the default), one timer spans the
 * whole frame (total_ms only, ms[] zero): the queries between passes cost time. */
void pipeline_set_pass_timing(pipeline *p, bool on);

/* From now on the apply pass writes TEXTURE, the caller's RGBA8 GL_TEXTURE_2D of at least the
 * applied source's size (level 0; the pipeline neither sizes nor deletes it), instead of the
 * pipeline's own output texture; 0 restores the own one. The read-backs read the own one:
 * set 0 before pipeline_read_rgb and pipeline_tonemap_*. */
void pipeline_set_output(pipeline *p, unsigned texture);

/* The GL objects others may read (not delete): the RGBA8 output texture and the frame SSBO
 * (layout ht_frame) that the viewer reads back for its panels. */
unsigned pipeline_output_texture(const pipeline *p);
/* 8 or 16: the bits per channel of the output texture (RGBA8, or RGBA16 after
 * pipeline_tonemap_uploaded16). */
int pipeline_output_bits(const pipeline *p);
unsigned pipeline_frame_buffer(const pipeline *p);

/* Read-backs (they wait for the GPU). rgb: width*height*3 bytes of the last apply (for an
 * image in pieces after pipeline_tonemap_*: of its first piece). */
void pipeline_read_result(pipeline *p, tonemap_result *r);
void pipeline_read_rgb(pipeline *p, uint8_t *rgb);

/* GPU times of the latest frames the GPU has finished, in milliseconds, from gpu_timers
 * (gpu_timer.h; read a frame or two late, never stalls): the frame's (total_ms) and, with
 * pipeline_set_pass_timing, each pass's (ms[], total_ms their sum). All zero until
 * available; the driver may report 0 for compute (llvmpipe). A viewer's frame time is total_ms
 * plus its scene pass's (pass_scene_last_ms). */
typedef struct pipeline_timings {
    double ms[HT_PASS_COUNT];
    double total_ms;
} pipeline_timings;
pipeline_timings pipeline_last_timings(const pipeline *p);

/* Deletes the image and output textures (the next upload or apply makes new ones): memory for
 * a batch between images, which on a CPU rasteriser is system memory. */
void pipeline_release_textures(pipeline *p);

/* One-shot helper for export/stats/tests: upload IMG, analyse and apply it, read back the
 * result (r may be NULL) and the RGB8 pixels (rgb may be NULL). An image in pieces: every
 * piece applied and read back into its place in RGB, one piece at a time through one output
 * texture (no full-size copy); with RGB NULL only the first piece is applied. Afterwards the
 * output texture holds the first piece's output (pipeline_image_source's). */
bool pipeline_tonemap_image(pipeline *p, const hdr_image *img, const tonemap_params *params,
                            tonemap_result *r, uint8_t *rgb, char *err, size_t errlen);

/* The same for the image pipeline_upload sent last (the CPU copy may be gone). */
bool pipeline_tonemap_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                               uint8_t *rgb, char *err, size_t errlen);

/* The same with 16-bit output (export --depth 16): the apply pass writes an RGBA16 texture,
 * read back as width*height*3 uint16_t, the display-encoded value scaled to 0..65535 and
 * rounded (tonemap_cpu_apply16). The output texture is RGBA16 until the next apply, which
 * makes it RGBA8 again. */
bool pipeline_tonemap_uploaded16(pipeline *p, const tonemap_params *params, tonemap_result *r,
                                 uint16_t *rgb, char *err, size_t errlen);

/* The analysis passes alone on the image pipeline_upload sent last, the result read back
 * into *r: a frame's analysis that the CPU then changes (the temporal adaptation, adapt.h)
 * before pipeline_apply_result. */
bool pipeline_analyze_uploaded(pipeline *p, const tonemap_params *params, tonemap_result *r,
                               char *err, size_t errlen);

/* SRC's frame (its last analysis, on the GPU) as DST's, for DST's next apply pass: another
 * image's curve on DST's image without a read-back. */
void pipeline_copy_result(pipeline *dst, const pipeline *src);

/* R as the frame's analysis (written into the frame buffer) for the next apply pass run
 * with pipeline_run_pass: another image's curve on this one (a reference shown with the
 * current image's tone mapping). */
void pipeline_set_result(pipeline *p, const tonemap_result *r);

/* The apply pass alone with R as the frame (written into the frame buffer) over every piece
 * of the uploaded image, read back into RGB (width*height*3 samples of BITS 8 or 16, as
 * pipeline_tonemap_uploaded and pipeline_tonemap_uploaded16 write them). */
bool pipeline_apply_result(pipeline *p, const tonemap_params *params, const tonemap_result *r,
                           void *rgb, int bits, char *err, size_t errlen);

#endif
