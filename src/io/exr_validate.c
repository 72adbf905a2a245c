/* OpenEXR structure validation (contract in exr_validate.h).
 *
 * tinyexr trusts its input: bogus headers make it allocate without limit, divide by zero,
 * read past the buffer or abort on an assert (Debian keeps asserts on), and some files it
 * "decodes" with wrong pixels (subsampled channels, decreasing line order). So the file's
 * structure is walked here first — every header of every part, the chunk offset tables and
 * each chunk's own header — against the OpenEXR file layout, and a part passes only when its
 * structure is sound and one of the decoders decodes its features correctly. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "exr_validate.h"
#include <float.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXR_MAX_DIM (1 << 20)
/* Cap on the RGBA float image of part 0, and on everything tinyexr allocates for all parts. */
#define EXR_MAX_BYTES ((uint64_t)4 << 30)
#define EXR_MAX_PARTS 1024
#define EXR_MAX_CHANNELS 1024
/* tinyexr reads at most this many attributes per header and then misreads the rest. */
#define EXR_MAX_ATTRIBUTES 1000

enum { LEVEL_ONE = 0, LEVEL_MIPMAP = 1, LEVEL_RIPMAP = 2 };

static const char *const COMPRESSION_NAMES[] = {"NONE", "RLE",  "ZIPS", "ZIP",  "PIZ",
                                                "PXR24", "B44", "B44A", "DWAA", "DWAB"};

static int32_t rd_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

static uint64_t rd_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

const char *exr_compression_name(int c)
{
    if (c >= 0 && c < (int)(sizeof COMPRESSION_NAMES / sizeof COMPRESSION_NAMES[0]))
        return COMPRESSION_NAMES[c];
    return NULL;
}

int exr_lines_per_chunk(int compression)
{
    switch (compression) {
    case 3: return 16;  /* ZIP */
    case 4: return 32;  /* PIZ */
    case 5: return 16;  /* PXR24 */
    case 6:             /* B44 */
    case 7:             /* B44A */
    case 8: return 32;  /* DWAA */
    case 9: return 256; /* DWAB */
    default: return 1;  /* NONE, RLE, ZIPS */
    }
}

/* Bytes of uncompressed pixel data for lines Y0..Y1 of a scanline part. */
static uint64_t scanline_raw_bytes(const exr_part_info *p, int64_t y0, int64_t y1)
{
    uint64_t raw = 0;
    for (int c = 0; c < p->nchannels; c++) {
        const exr_chan *ch = &p->chans[c];
        uint64_t nx = (uint64_t)image_multiples(p->dw[0], p->dw[2], ch->xs);
        uint64_t ny = (uint64_t)image_multiples(y0, y1, ch->ys);
        raw += nx * ny * (ch->type == EXR_HALF ? 2u : 4u);
    }
    return raw;
}

/* floor/ceil log2 as OpenEXR (and tinyexr) use for level counts. */
static int round_log2(uint32_t x, int rounding)
{
    int y = 0;
    if (rounding == 0) {
        while (x > 1) {
            y++;
            x >>= 1;
        }
    } else {
        uint32_t r = 0;
        while (x > 1) {
            if (x & 1)
                r = 1;
            y++;
            x >>= 1;
        }
        y += (int)r;
    }
    return y;
}

static uint32_t level_size(uint32_t top, int level, int rounding)
{
    uint32_t b = 1u << level;
    uint32_t s = top / b;
    if (rounding == 1 && s * b < top)
        s++;
    return s ? s : 1;
}

static void tiles_in_level(const exr_part_info *p, int lx, int ly, uint64_t *nx, uint64_t *ny)
{
    uint32_t w = (uint32_t)((int64_t)p->dw[2] - p->dw[0] + 1);
    uint32_t h = (uint32_t)((int64_t)p->dw[3] - p->dw[1] + 1);
    *nx = (level_size(w, lx, p->rounding) + (uint64_t)p->tile_w - 1) / p->tile_w;
    *ny = (level_size(h, ly, p->rounding) + (uint64_t)p->tile_h - 1) / p->tile_h;
}

static void level_counts(const exr_part_info *p, int *nlx, int *nly)
{
    uint32_t w = (uint32_t)((int64_t)p->dw[2] - p->dw[0] + 1);
    uint32_t h = (uint32_t)((int64_t)p->dw[3] - p->dw[1] + 1);
    switch (p->level_mode) {
    case LEVEL_MIPMAP: *nlx = *nly = round_log2(w > h ? w : h, p->rounding) + 1; break;
    case LEVEL_RIPMAP:
        *nlx = round_log2(w, p->rounding) + 1;
        *nly = round_log2(h, p->rounding) + 1;
        break;
    default: *nlx = *nly = 1; break;
    }
}

const char *exr_printable(const char *name, char out[44])
{
    size_t i = 0;
    for (; name[i] && i < 40; i++)
        out[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    out[i] = '\0';
    return out;
}

/* One channel NAME of TYPE sampled XS, YS appended to P's list, checked against the one
 * before it; false (reason in WHY) when refused. */
static bool add_channel(exr_part_info *p, int *cap, const char *name, int type, int xs, int ys,
                        char *why, size_t wl)
{
    if (type < EXR_UINT || type > EXR_FLOAT) {
        snprintf(why, wl, "channel has unknown pixel type %d", type);
        return false;
    }
    if (xs < 1 || ys < 1) {
        snprintf(why, wl, "channel has invalid sampling %d,%d", xs, ys);
        return false;
    }
    /* OpenEXR requires the names in ascending byte order, without repeats: its libraries
     * keep the list sorted and read each line's channels in that order, tinyexr in the
     * file's, so an unsorted list decodes to other pixels per decoder (fuzz_load's
     * findings, tests/fuzz/seeds/unsorted-*.exr). */
    if (p->nchannels > 0 && strcmp(p->chans[p->nchannels - 1].name, name) >= 0) {
        char a[44], b[44];
        snprintf(why, wl, "channel list is not sorted by name ('%s' after '%s'; OpenEXR "
                          "requires ascending names, decoders read such files differently)",
                 exr_printable(name, a), exr_printable(p->chans[p->nchannels - 1].name, b));
        return false;
    }
    if (p->nchannels + 1 > EXR_MAX_CHANNELS) {
        snprintf(why, wl, "too many channels");
        return false;
    }
    if (p->nchannels == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        exr_chan *nc = realloc(p->chans, (size_t)*cap * sizeof *nc);
        if (!nc) {
            snprintf(why, wl, "out of memory");
            return false;
        }
        p->chans = nc;
    }
    if (xs != 1 || ys != 1)
        p->subsampled = true;
    p->pixel_bytes += type == EXR_HALF ? 2 : 4;
    p->chans[p->nchannels++] = (exr_chan){name, type, xs, ys};
    return true;
}

/* Parses the chlist attribute value. */
static bool parse_channels(const uint8_t *v, size_t n, exr_part_info *p, char *why, size_t wl)
{
    size_t i = 0;
    p->nchannels = 0;
    p->pixel_bytes = 0;
    free(p->chans);
    p->chans = NULL;
    int cap = 0;
    for (;;) {
        if (i >= n) {
            snprintf(why, wl, "channel list is not terminated");
            return false;
        }
        if (v[i] == 0)
            break;
        size_t len = strnlen((const char *)v + i, n - i);
        if (len == n - i || len > 255) {
            snprintf(why, wl, "channel name is too long or not terminated");
            return false;
        }
        const char *cname = (const char *)v + i;
        i += len + 1;
        if (n - i < 16) {
            snprintf(why, wl, "channel list is truncated");
            return false;
        }
        if (!add_channel(p, &cap, cname, rd_i32(v + i), rd_i32(v + i + 8), rd_i32(v + i + 12),
                         why, wl))
            return false;
        i += 16;
    }
    /* tinyexr wants the terminating NUL strictly inside the attribute. */
    if (p->nchannels == 0) {
        snprintf(why, wl, "no usable channels (the channel list is empty)");
        return false;
    }
    return true;
}

/* One header attribute: NAME and TYPE are NUL-terminated inside the file; N bytes of value at V
 * lie inside it too. */
typedef struct exr_attr {
    const char *name, *type;
    const uint8_t *v;
    size_t n;
} exr_attr;

/* The attribute name or type at *pos in D (SIZE bytes): NUL-terminated inside D, at most 255
 * characters. Advances *pos past its NUL; NULL when there is no such string. */
static const char *read_name(const uint8_t *d, size_t size, size_t *pos)
{
    const char *s = (const char *)d + *pos;
    size_t l = strnlen(s, size - *pos);
    if (l == size - *pos || l > 255)
        return NULL;
    *pos += l + 1;
    return s;
}

/* Reads the attribute at *pos (not a header's terminating NUL) and advances past it. */
static bool read_attribute(const uint8_t *d, size_t size, size_t *pos, exr_attr *attr,
                           char *why, size_t wl)
{
    size_t i = *pos;
    const char *name = read_name(d, size, &i);
    if (!name) {
        snprintf(why, wl, "header is truncated or has a bad attribute name");
        return false;
    }
    const char *type = read_name(d, size, &i);
    if (!type) {
        snprintf(why, wl, "header is truncated or has a bad attribute type");
        return false;
    }
    if (size - i < 4) {
        snprintf(why, wl, "header is truncated");
        return false;
    }
    int32_t alen = rd_i32(d + i);
    i += 4;
    char shown[44];
    if (alen < 0 || (size_t)alen > size - i) {
        snprintf(why, wl, "header is truncated (attribute '%s')", exr_printable(name, shown));
        return false;
    }
    if (alen == 0 && strcmp(type, "string") != 0) {
        snprintf(why, wl, "attribute '%s' is empty", exr_printable(name, shown));
        return false;
    }
    *attr = (exr_attr){name, type, d + i, (size_t)alen};
    *pos = i + (size_t)alen;
    return true;
}

/* Records in P what attribute A says; attributes the loader has no use for are skipped.
 * READ_TILES: the file is single-part tiled or multi-part, the only files in which tinyexr
 * reads the 'tiles' attribute. */
static bool apply_attribute(const exr_attr *a, bool read_tiles, exr_part_info *p, char *why,
                            size_t wl)
{
    const char *name = a->name, *type = a->type;
    const uint8_t *v = a->v;
    size_t n = a->n;
    if (strcmp(name, "channels") == 0) {
        if (!parse_channels(v, n, p, why, wl))
            return false;
        p->has_channels = true;
    } else if (strcmp(name, "compression") == 0) {
        p->compression = v[0];
        p->has_compression = true;
    } else if (strcmp(name, "dataWindow") == 0 || strcmp(name, "displayWindow") == 0) {
        if (n < 16) {
            snprintf(why, wl, "attribute '%s' is too short", name);
            return false;
        }
        int *box = name[1] == 'a' ? p->dw : p->disp;
        for (int k = 0; k < 4; k++)
            box[k] = rd_i32(v + 4 * k);
        if (name[1] == 'a')
            p->has_dw = true;
        else
            p->has_disp = true;
    } else if (strcmp(name, "lineOrder") == 0) {
        p->line_order = v[0];
        p->has_line_order = true;
    } else if (strcmp(name, "tiles") == 0) {
        /* tinyexr asserts on any other size, and only looks at it in these files. */
        if (read_tiles) {
            if (n != 9) {
                snprintf(why, wl, "attribute 'tiles' has size %zu, expected 9", n);
                return false;
            }
            p->tile_w = (uint32_t)rd_i32(v);
            p->tile_h = (uint32_t)rd_i32(v + 4);
            p->level_mode = v[8] & 0x0f;
            p->rounding = v[8] >> 4;
            p->has_tiles = true;
        }
    } else if (strcmp(name, "name") == 0 && strcmp(type, "string") == 0) {
        size_t l = n < sizeof p->name - 1 ? n : sizeof p->name - 1;
        memcpy(p->name, v, l);
        p->name[l] = '\0';
        for (size_t k = 0; k < l; k++) /* shown in listings: printable only */
            if ((unsigned char)p->name[k] < 0x20 || (unsigned char)p->name[k] >= 0x7f)
                p->name[k] = '?';
    } else if (strcmp(name, "chromaticities") == 0 && n == 32) {
        for (int k = 0; k < 8; k++) {
            uint32_t u = (uint32_t)rd_i32(v + 4 * k);
            memcpy(&p->chroma[k], &u, 4);
        }
        p->has_chroma = true;
    } else if (strcmp(name, "adoptedNeutral") == 0 && strcmp(type, "v2f") == 0 && n == 8) {
        for (int k = 0; k < 2; k++) {
            uint32_t u = (uint32_t)rd_i32(v + 4 * k);
            memcpy(&p->adopted[k], &u, 4);
        }
        p->has_adopted = true;
    } else if (strcmp(name, "whiteLuminance") == 0 && strcmp(type, "float") == 0 && n == 4) {
        uint32_t u = (uint32_t)rd_i32(v);
        memcpy(&p->white_luminance, &u, 4);
        if (!(p->white_luminance > 0 && p->white_luminance <= FLT_MAX))
            p->white_luminance = 0;   /* unusable: the units stay relative */
    } else if (strcmp(name, "chunkCount") == 0) {
        if (n >= 4) {
            p->chunk_count = rd_i32(v);
            p->has_chunk_count = true;
        }
    } else if (strcmp(name, "type") == 0) {
        size_t l = strnlen((const char *)v, n);
        if (l >= sizeof p->type)
            l = sizeof p->type - 1;
        memcpy(p->type, v, l);
        p->type[l] = '\0';
        if (!p->type[0]) {
            snprintf(why, wl, "attribute 'type' is empty");
            return false;
        }
    }
    return true;
}

/* Walks one header starting at *pos; stops after its terminating NUL. */
static bool parse_header(const uint8_t *d, size_t size, size_t *pos, bool single_tiled,
                         bool multipart, exr_part_info *p, char *why, size_t wl)
{
    memset(p, 0, sizeof *p); /* the caller owns no chans yet */
    size_t i = *pos;
    for (int nattr = 0;; nattr++) {
        if (i >= size) {
            snprintf(why, wl, "header is truncated");
            return false;
        }
        if (d[i] == 0) {
            i++;
            break;
        }
        if (nattr >= EXR_MAX_ATTRIBUTES) {
            snprintf(why, wl, "header has too many attributes");
            return false;
        }
        exr_attr attr;
        if (!read_attribute(d, size, &i, &attr, why, wl) ||
            !apply_attribute(&attr, single_tiled || multipart, p, why, wl))
            return false;
    }
    *pos = i;
    return true;
}

/* Checks that part P has every required attribute, a known type and compression, and a
 * tiling that agrees with its type. WHERE prefixes messages ("part 2: " or ""). */
static bool check_kind(exr_part_info *p, const char *where, bool single_tiled, bool multipart,
                       char *why, size_t wl)
{
    if (!p->has_channels || !p->has_compression || !p->has_dw || !p->has_disp ||
        !p->has_line_order) {
        snprintf(why, wl, "%sheader lacks a required attribute (%s)", where,
                 !p->has_channels      ? "channels"
                 : !p->has_compression ? "compression"
                 : !p->has_dw          ? "dataWindow"
                 : !p->has_disp        ? "displayWindow"
                                       : "lineOrder");
        return false;
    }
    if (p->type[0]) {
        if (strcmp(p->type, "deepscanline") == 0 || strcmp(p->type, "deeptile") == 0) {
            snprintf(why, wl, "%sdeep images are not supported", where);
            return false;
        }
        if (strcmp(p->type, "scanlineimage") != 0 && strcmp(p->type, "tiledimage") != 0) {
            char shown[44];
            snprintf(why, wl, "%sunknown part type '%s'", where, exr_printable(p->type, shown));
            return false;
        }
    }
    p->tiled = multipart ? p->has_tiles : single_tiled;
    if (p->type[0] && (strcmp(p->type, "tiledimage") == 0) != p->tiled) {
        snprintf(why, wl, "%spart type '%s' does not match its tile description", where,
                 p->type); /* one of the two known names here */
        return false;
    }
    if (single_tiled && !p->has_tiles) {
        snprintf(why, wl, "tiled file without a 'tiles' attribute");
        return false;
    }
    const char *cname = exr_compression_name(p->compression);
    if (!cname) {
        snprintf(why, wl, "%sunknown compression type %d", where, p->compression);
        return false;
    }
    /* tinyexr has no PXR24/B44/DWA decoder and ignores sampling (garbling every channel). */
    p->needs_core = p->compression > EXR_PIZ || p->subsampled;
    if (p->subsampled && p->tiled) {
        snprintf(why, wl, "%stiled part with subsampled channels (not allowed by OpenEXR)",
                 where);
        return false;
    }
    return true;
}

/* Checks the data window (returning its size in *W, *H), display window and line order. */
static bool check_windows(const exr_part_info *p, const char *where, int64_t *w, int64_t *h,
                          char *why, size_t wl)
{
    *w = (int64_t)p->dw[2] - p->dw[0] + 1;
    *h = (int64_t)p->dw[3] - p->dw[1] + 1;
    if (*w <= 0 || *h <= 0 || *w > EXR_MAX_DIM || *h > EXR_MAX_DIM ||
        (uint64_t)*w * (uint64_t)*h * 16 > EXR_MAX_BYTES) {
        snprintf(why, wl, "%sabsurd data window (%d,%d)-(%d,%d)", where, p->dw[0], p->dw[1],
                 p->dw[2], p->dw[3]);
        return false;
    }
    if (p->disp[2] < p->disp[0] || p->disp[3] < p->disp[1]) {
        snprintf(why, wl, "%sinvalid display window (%d,%d)-(%d,%d)", where, p->disp[0],
                 p->disp[1], p->disp[2], p->disp[3]);
        return false;
    }
    if (p->line_order > 2) {
        snprintf(why, wl, "%sinvalid line order %d", where, p->line_order);
        return false;
    }
    return true;
}

/* Counts the chunks of tiled part P (every tile of every level) and what tinyexr allocates. */
static bool count_tiles(exr_part_info *p, const char *where, char *why, size_t wl)
{
    if (p->tile_w < 1 || p->tile_h < 1 || p->tile_w > EXR_MAX_DIM ||
        p->tile_h > EXR_MAX_DIM || p->level_mode > 2 || p->rounding > 1) {
        snprintf(why, wl, "%sinvalid tile description (%u x %u, mode %d, rounding %d)",
                 where, p->tile_w, p->tile_h, p->level_mode, p->rounding);
        return false;
    }
    int nlx, nly;
    level_counts(p, &nlx, &nly);
    uint64_t total = 0;
    if (p->level_mode == LEVEL_RIPMAP) {
        for (int ly = 0; ly < nly; ly++)
            for (int lx = 0; lx < nlx; lx++) {
                uint64_t nx, ny;
                tiles_in_level(p, lx, ly, &nx, &ny);
                total += nx * ny;
            }
    } else {
        for (int l = 0; l < nlx; l++) {
            uint64_t nx, ny;
            tiles_in_level(p, l, l, &nx, &ny);
            total += nx * ny;
        }
    }
    p->expected_chunks = total;
    /* tinyexr gives every tile (of every level) a full tile-sized buffer. */
    p->decode_bytes = total * p->tile_w * p->tile_h * (uint64_t)p->nchannels * 4;
    if (total > EXR_MAX_BYTES || p->decode_bytes > EXR_MAX_BYTES) {
        snprintf(why, wl, "%sabsurd tiling (%llu tiles of %u x %u)", where,
                 (unsigned long long)total, p->tile_w, p->tile_h);
        return false;
    }
    return true;
}

/* Counts the chunks of scanline part P (W x H pixels) and what tinyexr allocates. */
static bool count_scanline_chunks(exr_part_info *p, const char *where, int64_t w, int64_t h,
                                  char *why, size_t wl)
{
    int lpc = exr_lines_per_chunk(p->compression);
    p->expected_chunks = ((uint64_t)h + (uint64_t)lpc - 1) / (uint64_t)lpc;
    p->decode_bytes = (uint64_t)w * (uint64_t)h * (uint64_t)p->nchannels * 4;
    if (p->decode_bytes > EXR_MAX_BYTES) {
        snprintf(why, wl, "%simage too large (%lld x %lld, %d channels)", where,
                 (long long)w, (long long)h, p->nchannels);
        return false;
    }
    return true;
}

/* Checks one part's header for what tinyexr needs and does right. INDEX is for messages. */
static bool check_part(exr_part_info *p, int index, bool single_tiled, bool multipart,
                       char *why, size_t wl)
{
    char where[32] = "";
    if (multipart)
        snprintf(where, sizeof where, "part %d: ", index);
    int64_t w, h;
    if (!check_kind(p, where, single_tiled, multipart, why, wl) ||
        !check_windows(p, where, &w, &h, why, wl))
        return false;
    if (p->tiled ? !count_tiles(p, where, why, wl)
                 : !count_scanline_chunks(p, where, w, h, why, wl))
        return false;
    if (multipart && !p->has_chunk_count) {
        snprintf(why, wl, "%smulti-part header lacks 'chunkCount'", where);
        return false;
    }
    if (p->has_chunk_count && (p->chunk_count <= 0 ||
                               (uint64_t)p->chunk_count != p->expected_chunks)) {
        snprintf(why, wl, "%schunkCount %d does not match the image (%llu chunks expected)",
                 where, p->chunk_count, (unsigned long long)p->expected_chunks);
        return false;
    }
    return true;
}

/* Checks the coordinates in the header CH of tile chunk C of part P and gives the size of its
 * pixels uncompressed in *RAW. */
static bool check_tile_chunk(const exr_part_info *p, const uint8_t *ch, uint64_t c,
                             uint64_t *raw, char *why, size_t wl)
{
    int nlx, nly;
    level_counts(p, &nlx, &nly);
    int32_t tx = rd_i32(ch), ty = rd_i32(ch + 4), lx = rd_i32(ch + 8), ly = rd_i32(ch + 12);
    bool ok = lx >= 0 && ly >= 0 && lx < nlx && ly < nly && tx >= 0 && ty >= 0 &&
              (p->level_mode == LEVEL_RIPMAP || lx == ly);
    if (ok) {
        uint64_t nx, ny;
        tiles_in_level(p, lx, ly, &nx, &ny);
        ok = (uint64_t)tx < nx && (uint64_t)ty < ny;
    }
    if (!ok) {
        snprintf(why, wl, "damaged file (tile chunk %llu has invalid coordinates)",
                 (unsigned long long)c);
        return false;
    }
    uint32_t lw = level_size((uint32_t)((int64_t)p->dw[2] - p->dw[0] + 1), lx, p->rounding);
    uint32_t lh = level_size((uint32_t)((int64_t)p->dw[3] - p->dw[1] + 1), ly, p->rounding);
    uint64_t tw = lw - (uint64_t)tx * p->tile_w, th = lh - (uint64_t)ty * p->tile_h;
    if (tw > p->tile_w)
        tw = p->tile_w;
    if (th > p->tile_h)
        th = p->tile_h;
    *raw = tw * th * p->pixel_bytes;
    return true;
}

/* The same for scanline chunks. */
static bool check_scanline_chunk(const exr_part_info *p, const uint8_t *ch, uint64_t c,
                                 uint64_t *raw, char *why, size_t wl)
{
    int64_t y = rd_i32(ch);
    int lpc = exr_lines_per_chunk(p->compression);
    if (y < p->dw[1] || y > p->dw[3] || (y - p->dw[1]) % lpc != 0) {
        snprintf(why, wl, "damaged file (chunk %llu has invalid scanline %lld)",
                 (unsigned long long)c, (long long)y);
        return false;
    }
    int64_t lines = (int64_t)p->dw[3] + 1 - y;
    if (lines > lpc)
        lines = lpc;
    *raw = scanline_raw_bytes(p, y, y + lines - 1);
    return true;
}

/* Checks chunk C of part K (P), which the offset table places at OFF: it lies inside the file,
 * belongs to the part, has valid coordinates and a data size that fits its pixels. DATA_START
 * is where the offset tables end. */
static bool check_chunk(const uint8_t *d, size_t size, size_t data_start, uint64_t off,
                        const exr_part_info *p, int k, bool multipart, uint64_t c, char *why,
                        size_t wl)
{
    size_t pre = multipart ? 4 : 0;
    size_t hdr = pre + (p->tiled ? 20 : 8);
    if (off < data_start || off > size || size - off < hdr) {
        snprintf(why, wl, "file is truncated or damaged (chunk %llu%s lies outside the file)",
                 (unsigned long long)c, multipart ? " of a part" : "");
        return false;
    }
    const uint8_t *ch = d + off;
    if (multipart && rd_i32(ch) != k) {
        snprintf(why, wl, "damaged file (chunk %llu has part number %d, expected %d)",
                 (unsigned long long)c, rd_i32(ch), k);
        return false;
    }
    ch += pre;
    uint64_t raw; /* the chunk's pixels uncompressed */
    if (p->tiled ? !check_tile_chunk(p, ch, c, &raw, why, wl)
                 : !check_scanline_chunk(p, ch, c, &raw, why, wl))
        return false;
    int32_t dsize = rd_i32(ch + (p->tiled ? 16 : 4));
    if (dsize <= 0 || (uint64_t)dsize > size - off - hdr) {
        snprintf(why, wl, "file is truncated or damaged (chunk %llu: %d data bytes, %llu left "
                          "in the file)",
                 (unsigned long long)c, dsize, (unsigned long long)(size - off - hdr));
        return false;
    }
    /* Compressed data never exceeds the raw size (writers store raw data when compression
     * does not help), and uncompressed data is exactly that size. tinyexr leaks its buffers
     * when a chunk fails to decode, so catch this here. */
    if ((uint64_t)dsize > raw ||
        (p->compression == EXR_NO_COMPRESSION && (uint64_t)dsize != raw)) {
        snprintf(why, wl, "damaged file (chunk %llu: %d data bytes for %llu bytes of pixels)",
                 (unsigned long long)c, dsize, (unsigned long long)raw);
        return false;
    }
    return true;
}

/* Checks the chunk offset tables and every chunk's header, so tinyexr never reads outside
 * the file, never tries to "reconstruct" a damaged table, and never sees coordinates that
 * would place pixels outside its buffers. */
static bool check_chunks(const uint8_t *d, size_t size, size_t table_pos, const exr_file *f,
                         char *why, size_t wl)
{
    uint64_t entries = 0;
    for (int k = 0; k < f->nparts; k++)
        entries += f->parts[k].expected_chunks;
    if (table_pos > size || entries > (size - table_pos) / 8) {
        snprintf(why, wl, "file is truncated (chunk offset table incomplete)");
        return false;
    }
    size_t data_start = table_pos + (size_t)entries * 8;
    size_t t = table_pos;
    for (int k = 0; k < f->nparts; k++)
        for (uint64_t c = 0; c < f->parts[k].expected_chunks; c++, t += 8)
            if (!check_chunk(d, size, data_start, rd_u64(d + t), &f->parts[k], k, f->multipart,
                             c, why, wl))
                return false;
    return true;
}

/* Checks the magic number and version field; gives the flags the rest of the walk needs. */
static bool check_version(const uint8_t *data, size_t size, bool *single_tiled, bool *multipart,
                          char *why, size_t wl)
{
    if (size < 8 || memcmp(data, "\x76\x2f\x31\x01", 4) != 0) {
        snprintf(why, wl, "not an OpenEXR file (truncated or bad magic number)");
        return false;
    }
    if (data[4] != 2) {
        snprintf(why, wl, "unsupported OpenEXR version %d", data[4]);
        return false;
    }
    uint8_t flags = data[5];
    bool deep = flags & 0x08;
    *single_tiled = flags & 0x02;
    *multipart = flags & 0x10;
    if ((flags & ~0x1e) || data[6] || data[7]) {
        snprintf(why, wl, "unknown OpenEXR version flags (damaged file?)");
        return false;
    }
    if (deep && !*multipart) {
        snprintf(why, wl, "deep images are not supported");
        return false;
    }
    if (*multipart)
        *single_tiled = false;
    return true;
}

/* Appends an empty part to F (growing its array); NULL when out of memory or at the limit. */
static exr_part_info *add_part(exr_file *f, int *cap, char *why, size_t wl)
{
    if (f->nparts == EXR_MAX_PARTS) {
        snprintf(why, wl, "too many parts");
        return NULL;
    }
    if (f->nparts == *cap) {
        int ncap = *cap ? *cap * 2 : 4;
        exr_part_info *np = realloc(f->parts, (size_t)ncap * sizeof *np);
        if (!np) {
            snprintf(why, wl, "out of memory");
            return NULL;
        }
        f->parts = np;
        memset(np + *cap, 0, (size_t)(ncap - *cap) * sizeof *np);
        *cap = ncap;
    }
    return &f->parts[f->nparts];
}

/* Walks and checks every header from *pos (after the version field) into F; leaves *pos after
 * the header list, at the chunk offset tables. */
static bool read_headers(const uint8_t *data, size_t size, size_t *pos, bool single_tiled,
                         exr_file *f, char *why, size_t wl)
{
    int cap = 0;
    uint64_t decode_total = 0;
    for (;;) {
        if (f->multipart) {
            if (*pos >= size) {
                snprintf(why, wl, "header is truncated");
                return false;
            }
            if (data[*pos] == 0) { /* the empty header ends the list */
                (*pos)++;
                break;
            }
        }
        exr_part_info *p = add_part(f, &cap, why, wl);
        if (!p)
            return false;
        size_t header_pos = *pos;
        bool parsed = parse_header(data, size, pos, single_tiled, f->multipart, p, why, wl);
        p->header_pos = header_pos;
        f->nparts++; /* counted even when it failed, so that its channels are freed */
        if (!parsed || !check_part(p, f->nparts - 1, single_tiled, f->multipart, why, wl))
            return false;
        decode_total += p->decode_bytes;
        if (decode_total > EXR_MAX_BYTES) {
            snprintf(why, wl, "parts together are too large to decode");
            return false;
        }
        if (!f->multipart)
            break;
    }
    if (f->nparts == 0) {
        snprintf(why, wl, "multi-part file without parts");
        return false;
    }
    return true;
}

bool exr_validate(const uint8_t *data, size_t size, exr_file *f, char *why, size_t wl)
{
    memset(f, 0, sizeof *f);
    bool single_tiled, multipart;
    if (!check_version(data, size, &single_tiled, &multipart, why, wl))
        return false;
    f->multipart = multipart;
    size_t pos = 8;
    if (!read_headers(data, size, &pos, single_tiled, f, why, wl) ||
        !check_chunks(data, size, pos, f, why, wl)) {
        exr_file_free(f);
        return false;
    }
    return true;
}

void exr_file_free(exr_file *f)
{
    for (int k = 0; f->parts && k < f->nparts; k++)
        free(f->parts[k].chans);
    free(f->parts);
    memset(f, 0, sizeof *f);
}
