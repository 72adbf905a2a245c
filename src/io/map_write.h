/* Writing float planes as OpenEXR through tinyexr, written atomically (png_export.h's
 * file_write_atomic): error maps (one FLOAT channel "Y") and the tools' test images. */
#ifndef HT_MAP_WRITE_H
#define HT_MAP_WRITE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes N (1 to 4) planes of W x H floats (top row first), channel i named NAMES[i] (give
 * them in the order readers expect: alphabetical, e.g. B, G, R), stored as half floats when
 * HALF, else as floats, with tinyexr's COMPRESSION (TINYEXR_COMPRESSIONTYPE_*), to PATH.
 * False with "PATH: reason" in err, and no file at PATH. */
bool exr_write_planes(const char *path, const float *const *planes, const char *const *names,
                      int n, int w, int h, bool half, int compression, char *err, size_t errlen);

/* Writes the W x H floats of MAP (top row first) to PATH as one FLOAT channel "Y", ZIP. */
bool map_write_exr(const char *path, const float *map, int w, int h, char *err, size_t errlen);

#endif
