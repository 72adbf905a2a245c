/* Writing export's files: atomically (a temporary file in the target directory, renamed into
 * place; an interrupting SIGINT, SIGTERM or SIGHUP removes it), or to a descriptor. */
#ifndef HT_PNG_EXPORT_H
#define HT_PNG_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes LEN bytes of DATA to PATH. The data goes to a temporary file beside PATH that is
 * renamed over PATH only when complete (and fsync'd), so a failure never leaves a partial
 * file and never harms an existing PATH. Returns false and writes "PATH: reason" to err on
 * failure (a full disk, a read-only directory, ... in words). */
bool file_write_atomic(const char *path, const void *data, size_t len, char *err,
                       size_t errlen);

/* Makes the folder DIR and those above it that are missing, as mkdir -p does (render outputs
 * make their folders). True when DIR is a folder afterwards (also when it was before); else
 * false with "DIR: reason" in err (a file in the way, permission denied, ...). */
bool file_make_dirs(const char *dir, char *err, size_t errlen);

/* file_make_dirs for the folder that holds the file PATH (none for a name without '/'). */
bool file_make_parent_dirs(const char *path, char *err, size_t errlen);

/* Writes all LEN bytes to FD (retrying short writes). False with the reason in err. */
bool file_write_fd(int fd, const void *data, size_t len, char *err, size_t errlen);

/* Writes RGB8 pixels (width*height*3, top row first) to PATH as an 8-bit sRGB PNG
 * (encode.h), with file_write_atomic. */
bool png_write_atomic(const char *path, const uint8_t *rgb, int width, int height,
                      char *err, size_t errlen);

/* The same for CHANNELS (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) bytes per pixel. */
bool png_write_atomic_channels(const char *path, const uint8_t *pixels, int width, int height,
                               int channels, char *err, size_t errlen);

#endif
