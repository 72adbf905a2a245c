/* OpenEXR part and layer choice, and the descriptions of parts for listings (exr_select.c).
 * Works on a file exr_validate accepted. Not part of the public interface. */
#ifndef HT_EXR_SELECT_H
#define HT_EXR_SELECT_H

#include "exr_validate.h"

/* Which channels of a part make R, G, B, A: indices into the part's channel list or -1. */
enum { VIEW_R, VIEW_G, VIEW_B, VIEW_A, VIEW_Y, VIEW_RY, VIEW_BY, VIEW_N };
typedef enum { VIEW_RGB, VIEW_GREY, VIEW_YC } exr_view_mode;
typedef struct exr_view {
    int idx[VIEW_N];
    exr_view_mode mode;
    bool fallback;     /* no R,G,B or Y: other channels shown as grey or R,G(,B) */
    char layer[64];
    char rgb_source[192];   /* three layer prefixes of up to 41 characters fit */
} exr_view;

/* The part WANT names ("N" = index, else a part name; NULL or "" = part 0), or -1 with the
 * reason (listing the parts) in WHY. */
int exr_pick_part(const exr_file *f, const char *want, char *why, size_t wl);

/* Chooses which channels of part P make R, G, B, A for layer WANT (NULL = the default: the
 * un-prefixed R,G,B or Y, else the first layer with R,G,B or Y); false with the reason in WHY
 * when there is no such layer or its channels are sampled in a way the loader cannot show. */
bool exr_pick_view(const exr_part_info *p, const char *want, exr_view *v, char *why, size_t wl);

/* "A,B,G,R (half)", grouped by type; subsampled channels carry "@x,y"; "..." when cut. */
void exr_describe_channels(const exr_part_info *p, char *out, size_t len);

/* A listing of every part of F (f->nparts entries, malloc'd; NULL when out of memory). */
hdr_part_info *exr_describe_parts(const exr_file *f);

#endif
