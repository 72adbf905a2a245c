/* The content light level of an AVIF file (avif_boxes.h): libavif 0.11 writes no `clli`
 * property (1.0 added it), so it is added to the file libavif wrote. ISO/IEC 14496-12 (boxes,
 * iloc) and 23008-12 (HEIF: ipco, ipma, pitm); the clli box is ISO/IEC 23000-22's
 * ContentLightLevelBox, the two 16-bit values of CTA-861.3 in cd/m^2. */
#include "avif_boxes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLLI_LEN = 12 };

typedef struct box {
    size_t at, end;     /* the box, header included */
    size_t body;        /* after the header (and a full box's version and flags) */
    int version, flags;
} box;

static uint32_t be(const uint8_t *p, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_be(uint8_t *p, int n, uint32_t v)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* The child of [FROM, TO) of type TYPE; FULL: a full box. Boxes with 64-bit or open sizes are
 * not looked into (libavif writes neither inside meta). */
static bool find(const uint8_t *d, size_t from, size_t to, const char *type, bool full, box *b)
{
    for (size_t at = from; to - at >= 8;) {
        size_t len = be(d + at, 4);
        if (len < 8 || len > to - at)
            return false;
        if (memcmp(d + at + 4, type, 4) == 0 && (!full || len >= 12)) {
            *b = (box){at, at + len, at + (full ? 12 : 8), full ? d[at + 8] : 0,
                       full ? (int)be(d + at + 9, 3) : 0};
            return true;
        }
        at += len;
    }
    return false;
}

/* Adds DELTA to every iloc offset into the file at or after FROM (in COPY, laid out as D). */
static bool shift_iloc(const uint8_t *d, uint8_t *copy, const box *il, size_t from, uint32_t delta)
{
    size_t p = il->body;
    if (il->version > 2 || il->end - p < 2)
        return false;
    int osz = d[p] >> 4, lsz = d[p] & 15, bsz = d[p + 1] >> 4;
    int isz = il->version ? d[p + 1] & 15 : 0, idsz = il->version < 2 ? 2 : 4;
    p += 2;
    if ((osz != 0 && osz != 4) || (bsz != 0 && bsz != 4) || il->end - p < (size_t)idsz)
        return false;
    uint32_t items = be(d + p, idsz);
    p += (size_t)idsz;
    for (uint32_t i = 0; i < items; i++) {
        size_t head = (size_t)idsz + (il->version ? 2 : 0) + 2 + (size_t)bsz + 2;
        if (il->end - p < head)
            return false;
        int method = il->version ? d[p + idsz + 1] & 15 : 0;
        size_t base = p + head - 2 - (size_t)bsz;
        uint32_t nex = be(d + p + head - 2, 2), base_off = bsz ? be(d + base, 4) : 0;
        p += head;
        if (method == 0 && bsz && base_off >= from)
            put_be(copy + base, 4, base_off + delta);
        for (uint32_t e = 0; e < nex; e++) {
            size_t len = (size_t)(isz + osz + lsz);
            if (il->end - p < len)
                return false;
            size_t off = p + (size_t)isz;
            if (method == 0 && !bsz && osz && be(d + off, 4) >= from)
                put_be(copy + off, 4, be(d + off, 4) + delta);
            p += len;
        }
    }
    return true;
}

/* Where the primary item's associations end in ipma, and its count's place; false if absent. */
static bool primary_assoc(const uint8_t *d, const box *ipma, uint32_t item, size_t *count_at,
                          size_t *end)
{
    int idsz = ipma->version < 1 ? 2 : 4, asz = ipma->flags & 1 ? 2 : 1;
    size_t p = ipma->body;
    if (ipma->end - p < 4)
        return false;
    uint32_t n = be(d + p, 4);
    p += 4;
    for (uint32_t i = 0; i < n; i++) {
        if (ipma->end - p < (size_t)idsz + 1)
            return false;
        uint32_t id = be(d + p, idsz);
        size_t c = p + (size_t)idsz;
        p = c + 1 + (size_t)d[c] * (size_t)asz;
        if (p > ipma->end)
            return false;
        if (id == item) {
            *count_at = c;
            *end = p;
            return d[c] < 255;
        }
    }
    return false;
}

static int count_children(const uint8_t *d, const box *b)
{
    int n = 0;
    for (size_t at = b->body; b->end - at >= 8 && be(d + at, 4) >= 8; at += be(d + at, 4))
        n++;
    return n;
}

bool avif_add_clli(const uint8_t *d, size_t n, unsigned max_cll, unsigned max_fall,
                   encode_buffer *out)
{
    box meta, pitm, iloc, iprp, ipco, ipma;
    if (!find(d, 0, n, "meta", true, &meta) || !find(d, meta.body, meta.end, "pitm", true, &pitm) ||
        !find(d, meta.body, meta.end, "iloc", true, &iloc) ||
        !find(d, meta.body, meta.end, "iprp", false, &iprp) ||
        !find(d, iprp.body, iprp.end, "ipco", false, &ipco) ||
        !find(d, iprp.body, iprp.end, "ipma", true, &ipma) || ipma.at < ipco.end ||
        pitm.end - pitm.body < (pitm.version ? 4u : 2u))
        return false;
    int asz = ipma.flags & 1 ? 2 : 1, index = count_children(d, &ipco) + 1;
    size_t count_at, assoc_end;
    if (index > (asz == 1 ? 127 : 32767) ||
        !primary_assoc(d, &ipma, be(d + pitm.body, pitm.version ? 4 : 2), &count_at, &assoc_end))
        return false;
    uint32_t delta = CLLI_LEN + (uint32_t)asz;
    uint8_t *copy = malloc(n), *o = malloc(n + delta);
    bool ok = copy && o;
    if (ok) {
        memcpy(copy, d, n);
        ok = shift_iloc(d, copy, &iloc, meta.end, delta);
    }
    if (ok) {
        put_be(copy + meta.at, 4, be(d + meta.at, 4) + delta);
        put_be(copy + iprp.at, 4, be(d + iprp.at, 4) + delta);
        put_be(copy + ipco.at, 4, be(d + ipco.at, 4) + CLLI_LEN);
        put_be(copy + ipma.at, 4, be(d + ipma.at, 4) + (uint32_t)asz);
        copy[count_at]++;
        uint8_t clli[CLLI_LEN] = {0, 0, 0, CLLI_LEN, 'c', 'l', 'l', 'i'};
        put_be(clli + 8, 2, max_cll > 65535 ? 65535 : max_cll);
        put_be(clli + 10, 2, max_fall > 65535 ? 65535 : max_fall);
        uint8_t assoc[2];
        put_be(assoc, asz, (uint32_t)index);   /* not essential: a reader may ignore it */
        size_t k = 0;
        memcpy(o + k, copy, ipco.end), k += ipco.end;
        memcpy(o + k, clli, CLLI_LEN), k += CLLI_LEN;
        memcpy(o + k, copy + ipco.end, assoc_end - ipco.end), k += assoc_end - ipco.end;
        memcpy(o + k, assoc, (size_t)asz), k += (size_t)asz;
        memcpy(o + k, copy + assoc_end, n - assoc_end);
        out->data = o;
        out->len = n + delta;
    } else {
        free(o);
    }
    free(copy);
    return ok;
}
