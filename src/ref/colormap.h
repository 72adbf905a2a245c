/* The colour maps of the error maps (colormap_data.c): 256 sRGB-encoded RGB8 entries each. */
#ifndef HT_COLORMAP_H
#define HT_COLORMAP_H

#include <stdint.h>

#define COLORMAP_SIZE 256

extern const uint8_t colormap_magma[COLORMAP_SIZE][3];      /* FLIP's */
extern const uint8_t colormap_viridis[COLORMAP_SIZE][3];    /* the other sequential maps */
extern const uint8_t colormap_diverging[COLORMAP_SIZE][3];  /* signed: blue, white, red */

#endif
