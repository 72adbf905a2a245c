/* Metadata entries of an image (image_meta_add, image.h) and what hdrtone reads from an ICC
 * profile for them (image_meta_icc, image_internal.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "image_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the UTF-8 sequence starting at S (at most N bytes), 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
                                 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xc2))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

/* The first N bytes of S into OUT (N + 1 bytes), terminated, as text JSON can carry: control
 * characters as spaces, bytes that are not UTF-8 (Latin-1 strings in files) as '?', a
 * sequence cut by the fold left out. Returns the length written. */
static size_t clean_utf8(const char *s, size_t n, char *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_len(u + i, strnlen(s + i, 4));
        if (i + len > n)
            break; /* a sequence cut by the fold */
        if (len <= 1)
            out[o++] = len == 0 ? '?' : u[i] < 0x20 ? ' ' : (char)u[i];
        else
            memcpy(out + o, s + i, len), o += len;
        i += len ? len : 1;
    }
    out[o] = '\0';
    return o;
}

bool image_meta_add(hdr_image *img, const char *key, const char *value)
{
    if (img->meta_count % 16 == 0) {
        image_meta *m = realloc(img->meta, (size_t)(img->meta_count + 16) * sizeof *m);
        if (!m)
            return false;
        img->meta = m;
    }
    size_t n = strlen(value), keep = n > IMAGE_META_FOLD ? IMAGE_META_FOLD : n;
    char *v = malloc(keep + 40), *k = strdup(key);
    if (!v || !k) {
        free(v);
        free(k);
        return false;
    }
    size_t o = clean_utf8(value, keep, v);
    if (keep < n)
        snprintf(v + o, 40, " ... (%zu bytes)", n);
    img->meta[img->meta_count++] = (image_meta){k, v};
    return true;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The text of an ICC 'desc' tag at P (N bytes): a v2 textDescriptionType (ASCII) or a v4
 * multiLocalizedUnicodeType's first record (UTF-16BE; non-ASCII shown as '?'). */
static bool icc_text(const uint8_t *p, size_t n, char *out, size_t ol)
{
    size_t o = 0;
    if (n >= 12 && memcmp(p, "desc", 4) == 0) {
        size_t len = be32(p + 8);
        for (size_t i = 0; i < len && 12 + i < n && p[12 + i] && o + 1 < ol; i++)
            out[o++] = (char)p[12 + i];
    } else if (n >= 28 && memcmp(p, "mluc", 4) == 0) {
        size_t len = be32(p + 20), off = be32(p + 24);
        for (size_t i = 0; i + 1 < len && off + i + 1 < n && o + 1 < ol; i += 2) {
            unsigned c = (unsigned)p[off + i] << 8 | p[off + i + 1];
            out[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
    } else {
        return false;
    }
    out[o] = '\0';
    return o > 0;
}

void image_meta_icc(hdr_image *img, const uint8_t *icc, size_t n)
{
    char v[256];
    snprintf(v, sizeof v, "%zu bytes", n);
    image_meta_add(img, "icc:size", v);
    if (n < 132)
        return;
    uint32_t count = be32(icc + 128);
    for (uint32_t i = 0; i < count && 132 + 12 * (size_t)(i + 1) <= n; i++) {
        const uint8_t *t = icc + 132 + 12 * (size_t)i;
        uint32_t off = be32(t + 4), len = be32(t + 8);
        if (memcmp(t, "desc", 4) == 0 && off < n && len <= n - off &&
            icc_text(icc + off, len, v, sizeof v)) {
            image_meta_add(img, "icc:description", v);
            return;
        }
    }
}
