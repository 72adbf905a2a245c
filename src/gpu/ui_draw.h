/* The renderer of the viewer's GUI: textured, coloured triangles in window pixels with a
 * clip rectangle per draw command, drawn over whatever the frame holds (alpha blended). It
 * knows no GUI toolkit: the viewer converts its toolkit's output to this vertex layout. All
 * the GL of the GUI is here (one owner). */
#ifndef HT_UI_DRAW_H
#define HT_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One vertex: position in framebuffer pixels (y down), texture coordinate, RGBA8 colour. */
typedef struct ui_vertex {
    float pos[2];
    float uv[2];
    uint8_t col[4];
} ui_vertex;

/* COUNT indices from the current offset, textured with TEXTURE (a ui_draw texture or an
 * RGBA8 texture of the GPU layer), clipped to CLIP = x, y, w, h in framebuffer pixels. */
typedef struct ui_cmd {
    unsigned count;
    unsigned texture;
    float clip[4];
} ui_cmd;

typedef struct ui_draw ui_draw;

/* The program, buffers and vertex layout; NULL with the reason in err. */
ui_draw *ui_draw_create(char *err, size_t errlen);
/* Deletes everything ui_draw_create made and the textures of ui_draw_texture; *U = NULL.
 * Accepts NULL. Needs the context current. */
void ui_draw_destroy(ui_draw **u);
/* An RGBA8 texture of W x H from PIXELS (linear filtering), owned by U (a font atlas).
 * Returns its GL name, 0 on failure. */
unsigned ui_draw_texture(ui_draw *u, const void *pixels, int w, int h);
/* Draws CMDS[0..NCMDS) over the default framebuffer of FB_W x FB_H with vertices VTX (NVTX)
 * and 32-bit indices IDX (NIDX), then restores the state it changed (blend, scissor). */
void ui_draw_render(ui_draw *u, int fb_w, int fb_h, const ui_vertex *vtx, size_t nvtx,
                    const uint32_t *idx, size_t nidx, const ui_cmd *cmds, size_t ncmds);

#endif
