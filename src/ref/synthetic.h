/* Synthetic test and benchmark images. */
#ifndef HT_SYNTHETIC_H
#define HT_SYNTHETIC_H

#include <stdbool.h>

#include "image.h"

/* Fills *img with a W x H image whose luminance is log-uniform over 1e-3..1e4 cd/m^2 with
 * varied colours, every value rounded to half precision (half_exact), from a fixed seed:
 * never constant or zero data, which would run faster than real data. False when out of
 * memory. */
bool synthetic_image(hdr_image *img, int w, int h, unsigned seed);

#endif
