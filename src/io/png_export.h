/* PNG writing, atomic: a temporary file in the target directory, renamed into place. */
#ifndef HT_PNG_EXPORT_H
#define HT_PNG_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes RGB8 pixels (width*height*3, top row first) to PATH as PNG. The data goes to a
 * temporary file beside PATH that is renamed over PATH only when complete, so a failure
 * never leaves a partial file and never harms an existing PATH. Returns false and writes
 * "PATH: reason" to err on failure. */
bool png_write_atomic(const char *path, const uint8_t *rgb, int width, int height,
                      char *err, size_t errlen);

/* The same for CHANNELS (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) bytes per pixel. */
bool png_write_atomic_channels(const char *path, const uint8_t *pixels, int width, int height,
                               int channels, char *err, size_t errlen);

#endif
