/* The colour tags of PNG and JPEG files (image_ldr.c's helper): which one rules a file, and
 * its content, read from the file's bytes before any pixel is decoded. */
#ifndef HT_LDR_COLOUR_H
#define HT_LDR_COLOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "icc.h"

/* What a file says about its colours (ldr_tags.kind). */
enum {
    LDR_TAG_NONE = 0,      /* nothing: sRGB, as every viewer shows it */
    LDR_TAG_SRGB = 1,      /* PNG's sRGB chunk: sRGB said */
    LDR_TAG_ICC = 2,       /* an ICC profile: PNG iCCP, JPEG APP2 ICC_PROFILE */
    LDR_TAG_ENCODING = 3,  /* numbers: PNG cICP, or cHRM and/or gAMA */
};

typedef struct ldr_tags {
    int kind;              /* LDR_TAG_* */
    uint8_t *icc;          /* LDR_TAG_ICC: the profile, malloc'd */
    size_t icc_size;
    icc_encoding enc;      /* LDR_TAG_ENCODING */
    char chunk[48];        /* what ruled, for messages and docs: "cICP 12/13/0/1", "iCCP",
                              "APP2 ICC_PROFILE (2 segments)", "gAMA 0.45455", ... */
} ldr_tags;

/* The tags of PNG file DATA (SIZE bytes) by PNG's third edition's precedence: cICP, then iCCP,
 * then sRGB, then cHRM/gAMA; chunks after the first IDAT are not looked at. False with
 * "PATH: reason" in ERR (*T empty) for a corrupt colour chunk (iCCP that does not inflate, a
 * chunk of the wrong length) or a cICP this build does not decode (PQ, HLG, narrow range,
 * other primaries). */
bool ldr_tags_png(const char *path, const uint8_t *data, size_t size, ldr_tags *t, char *err,
                  size_t errlen);

/* The tags of JPEG file DATA: the ICC profile of its APP2 "ICC_PROFILE" segments (before the
 * first scan), joined in their sequence order. False with "PATH: reason" when the segments
 * disagree (counts, a number missing or repeated). */
bool ldr_tags_jpeg(const char *path, const uint8_t *data, size_t size, ldr_tags *t, char *err,
                   size_t errlen);

/* Frees the profile and empties *T. */
void ldr_tags_free(ldr_tags *t);

#endif
