/* Fonts: a font file found through fontconfig by pattern, read into memory and drawn with
 * stb_truetype (libstb's, precompiled). No GL; the legend of export --view falsecolor and the
 * viewer's text use it. */
#ifndef HT_FONT_H
#define HT_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The family the program draws its text in (Debian's fonts-dejavu-core). */
#define FONT_DEFAULT_PATTERN "DejaVu Sans"

/* The file fontconfig picks for PATTERN (a fontconfig pattern: "DejaVu Sans",
 * "DejaVu Sans Mono:bold") into PATH (LEN bytes). False, with a message naming the pattern and
 * the reason in err, when fontconfig cannot start, matches nothing, or matches only another
 * family (fontconfig falls back to any font it has; a pattern naming a family must get that
 * family), or the file is not a TrueType/OpenType file that can be read. */
bool font_find(const char *pattern, char *path, size_t len, char *err, size_t errlen);

/* A font file in memory. */
typedef struct font_file {
    uint8_t *data;     /* the whole file, owned */
    size_t size;
    char path[1024];   /* where it was read from */
} font_file;

/* font_find, then the file read into *f (free with font_free). False (reason in err, *f
 * empty) when font_find fails, or the file cannot be read. */
bool font_load(const char *pattern, font_file *f, char *err, size_t errlen);

/* Frees F's data and zeroes *f; accepts an empty one. */
void font_free(font_file *f);

/* Draws TEXT (ASCII; other bytes as '?') in F at PX pixels (ascender to descender) into
 * GREY, a W x H coverage buffer (top row first), the text's top left at (X, Y), keeping the
 * larger coverage where glyphs overlap; clipped to the buffer. GREY NULL: only measures.
 * Returns the text's width in pixels; 0 when F is not a font stb_truetype reads. */
int font_draw_text(const font_file *f, const char *text, double px, uint8_t *grey, int w,
                   int h, int x, int y);

#endif
