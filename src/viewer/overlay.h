/* The viewer's overlay: a histogram panel drawn straight from the pipeline's frame buffer
 * (histogram, ceiling-trimmed histogram, response curve, range limits, cursor marker: the
 * vertex shaders read the SSBO, nothing is read back) and text (stb_easy_font) with boxes.
 * Coordinates are framebuffer pixels, origin top-left, y down. Draws into the currently bound
 * framebuffer. */
#ifndef HT_OVERLAY_H
#define HT_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "tonemap.h"

typedef struct overlay overlay;

/* Returns NULL with the reason in err (a shader does not build). Needs a current context. */
overlay *overlay_create(char *err, size_t errlen);
/* Accepts NULL; sets *o to NULL. */
void overlay_destroy(overlay **o);

/* Starts a frame of WIDTH x HEIGHT pixels; rectangles and text are batched and drawn, in the
 * order given, by the next overlay_plot or overlay_end. */
void overlay_begin(overlay *o, int width, int height);
void overlay_rect(overlay *o, float x, float y, float w, float h, const float rgba[4]);
/* Text with its top-left corner at (x, y); '\n' starts a new line. SCALE multiplies the
 * font's pixel size (about 6x12 per character at 1). */
void overlay_text(overlay *o, float x, float y, float scale, const char *text,
                  const float rgba[4]);
void overlay_end(overlay *o);

/* The outline of the rectangle (x, y, w, h), T pixels thick, drawn inside it. */
void overlay_outline(overlay *o, float x, float y, float w, float h, float t, const float rgba[4]);

/* Size of TEXT in pixels at SCALE. */
float overlay_text_width(const char *text, float scale);
float overlay_text_height(const char *text, float scale);

/* What the histogram panel needs from the CPU: where, the x axis, the display range and the
 * cursor. The data itself (bins, range, curve) comes from the frame buffer on the GPU. */
typedef struct overlay_plot_info {
    float x, y, w, h;           /* the panel, pixels */
    float scale;                /* UI scale (HiDPI) */
    double axis_lo, axis_hi;    /* x axis range, ln cd/m^2 */
    double ldmax, drange;       /* the display range of the curve's y axis */
    bool cursor;                /* draw the cursor marker at cursor_ln_lw */
    double cursor_ln_lw;
    const char *title;
} overlay_plot_info;

/* Draws the panel from FRAME_BUFFER (the pipeline's ht_frame SSBO). */
void overlay_plot(overlay *o, unsigned frame_buffer, const overlay_plot_info *info);

/* Which histograms of the tone-mapped 8-bit output overlay_plot_output draws. */
enum { OVERLAY_OUTPUT_RGBA = 0, OVERLAY_OUTPUT_GREY = 1 };

/* Draws the panel of the output's histograms from HIST_BUFFER (imgstats_gpu_hist_buffer,
 * layout ht_hist): KIND OVERLAY_OUTPUT_RGBA, the R, G, B counts (added up where they overlap)
 * over the A counts, or OVERLAY_OUTPUT_GREY, the 256 grey levels. Square-root scale
 * normalised to the largest second-largest bin of a channel (a black or clipped spike cannot
 * flatten the rest). Uses x, y, w, h, scale and title of INFO; nothing is read back. */
void overlay_plot_output(overlay *o, unsigned hist_buffer, int kind, const overlay_plot_info *info);

#endif
