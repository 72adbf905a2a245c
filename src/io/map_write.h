/* Writing a single-channel float map (an error map) as OpenEXR: one FLOAT channel "Y",
 * ZIP-compressed, written atomically (png_export.h's file_write_atomic). */
#ifndef HT_MAP_WRITE_H
#define HT_MAP_WRITE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the W x H floats of MAP (top row first) to PATH. False with "PATH: reason" in err. */
bool map_write_exr(const char *path, const float *map, int w, int h, char *err, size_t errlen);

#endif
