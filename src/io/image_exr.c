/* OpenEXR through tinyexr (Debian 1.0.1), from memory, with OpenEXRCore (image_openexr.c) for
 * what tinyexr cannot decode (PXR24, B44, B44A, DWAA, DWAB, subsampled channels) — decided
 * from the headers, never by trying one decoder after the other.
 *
 * tinyexr trusts its input: bogus headers make it allocate without limit, divide by zero,
 * read past the buffer or abort on an assert (Debian keeps asserts on), and some files it
 * "decodes" with wrong pixels (subsampled channels, decreasing line order). So the file's
 * structure is walked here first — every header of every part, the chunk offset tables and
 * each chunk's own header — against the OpenEXR file layout, and tinyexr is called only on
 * files whose structure is sound and whose features it decodes correctly. What stays
 * unguarded is the inside of compressed chunk data. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "image_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyexr.h>

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

/* What we learn about one part from walking its header ourselves. */
typedef struct exr_part_info {
    bool has_channels, has_compression, has_dw, has_disp, has_line_order, has_tiles,
        has_chunk_count;
    int compression;
    int dw[4], disp[4];
    int line_order;
    int nchannels;
    uint64_t pixel_bytes; /* all channels of one pixel, as stored */
    bool subsampled;
    bool tiled;
    uint32_t tile_w, tile_h;
    int level_mode, rounding;
    int chunk_count;
    char type[16];
    uint64_t expected_chunks; /* chunk table entries of this part */
    uint64_t decode_bytes;    /* what tinyexr will allocate for its pixels */
    exr_chan *chans;          /* nchannels, in file order; names point into the file data */
    char name[64];            /* "name" attribute (multi-part files), "" when none */
    bool has_chroma;
    float chroma[8];          /* "chromaticities": red, green, blue, white x,y */
    bool needs_core;          /* tinyexr cannot decode it (compression or sampling) */
} exr_part_info;

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

static const char *compression_name(int c)
{
    if (c >= 0 && c < (int)(sizeof COMPRESSION_NAMES / sizeof COMPRESSION_NAMES[0]))
        return COMPRESSION_NAMES[c];
    return NULL;
}

/* Scanlines per chunk of each compression (OpenEXR file layout). */
static int lines_per_chunk(int compression)
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

/* Number of multiples of S in [A, B] (S > 0): samples of a channel with sampling S. */
static int64_t multiples(int64_t a, int64_t b, int64_t s)
{
    if (b < a)
        return 0;
    int64_t fb = b >= 0 ? b / s : -((-b + s - 1) / s);
    int64_t a1 = a - 1;
    int64_t fa = a1 >= 0 ? a1 / s : -((-a1 + s - 1) / s);
    return fb - fa;
}

/* Bytes of uncompressed pixel data for lines Y0..Y1 of a scanline part. */
static uint64_t scanline_raw_bytes(const exr_part_info *p, int64_t y0, int64_t y1)
{
    uint64_t raw = 0;
    for (int c = 0; c < p->nchannels; c++) {
        const exr_chan *ch = &p->chans[c];
        uint64_t nx = (uint64_t)multiples(p->dw[0], p->dw[2], ch->xs);
        uint64_t ny = (uint64_t)multiples(y0, y1, ch->ys);
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

/* NAME for a message: untrusted bytes, so only printable ASCII, at most 40 characters. */
static const char *printable(const char *name, char out[44])
{
    size_t i = 0;
    for (; name[i] && i < 40; i++)
        out[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    out[i] = '\0';
    return out;
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
        int type = rd_i32(v + i), xs = rd_i32(v + i + 8), ys = rd_i32(v + i + 12);
        i += 16;
        if (type < EXR_UINT || type > EXR_FLOAT) {
            snprintf(why, wl, "channel has unknown pixel type %d", type);
            return false;
        }
        if (xs < 1 || ys < 1) {
            snprintf(why, wl, "channel has invalid sampling %d,%d", xs, ys);
            return false;
        }
        if (xs != 1 || ys != 1)
            p->subsampled = true;
        p->pixel_bytes += type == EXR_HALF ? 2 : 4;
        if (p->nchannels + 1 > EXR_MAX_CHANNELS) {
            snprintf(why, wl, "too many channels");
            return false;
        }
        if (p->nchannels == cap) {
            cap = cap ? cap * 2 : 8;
            exr_chan *nc = realloc(p->chans, (size_t)cap * sizeof *nc);
            if (!nc) {
                snprintf(why, wl, "out of memory");
                return false;
            }
            p->chans = nc;
        }
        p->chans[p->nchannels++] = (exr_chan){cname, type, xs, ys};
    }
    /* tinyexr wants the terminating NUL strictly inside the attribute. */
    if (p->nchannels == 0) {
        snprintf(why, wl, "no usable channels (the channel list is empty)");
        return false;
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
        const char *name = (const char *)d + i;
        size_t nl = strnlen(name, size - i);
        if (nl == size - i || nl > 255) {
            snprintf(why, wl, "header is truncated or has a bad attribute name");
            return false;
        }
        i += nl + 1;
        const char *type = (const char *)d + i;
        size_t tl = strnlen(type, size - i);
        if (tl == size - i || tl > 255) {
            snprintf(why, wl, "header is truncated or has a bad attribute type");
            return false;
        }
        i += tl + 1;
        if (size - i < 4) {
            snprintf(why, wl, "header is truncated");
            return false;
        }
        int32_t alen = rd_i32(d + i);
        i += 4;
        char shown[44];
        if (alen < 0 || (size_t)alen > size - i) {
            snprintf(why, wl, "header is truncated (attribute '%s')", printable(name, shown));
            return false;
        }
        if (alen == 0 && strcmp(type, "string") != 0) {
            snprintf(why, wl, "attribute '%s' is empty", printable(name, shown));
            return false;
        }
        const uint8_t *v = d + i;
        size_t n = (size_t)alen;
        i += n;

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
            if (single_tiled || multipart) {
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
    }
    *pos = i;
    return true;
}

/* Checks one part's header for what tinyexr needs and does right. INDEX is for messages. */
static bool check_part(exr_part_info *p, int index, bool single_tiled, bool multipart,
                       char *why, size_t wl)
{
    char where[32] = "";
    if (multipart)
        snprintf(where, sizeof where, "part %d: ", index);
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
            snprintf(why, wl, "%sunknown part type '%s'", where, printable(p->type, shown));
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
    const char *cname = compression_name(p->compression);
    if (!cname) {
        snprintf(why, wl, "%sunknown compression type %d", where, p->compression);
        return false;
    }
    /* tinyexr has no PXR24/B44/DWA decoder and ignores sampling (garbling every channel). */
    p->needs_core = p->compression > 4 || p->subsampled;
    if (p->subsampled && p->tiled) {
        snprintf(why, wl, "%stiled part with subsampled channels (not allowed by OpenEXR)",
                 where);
        return false;
    }
    int64_t w = (int64_t)p->dw[2] - p->dw[0] + 1, h = (int64_t)p->dw[3] - p->dw[1] + 1;
    if (w <= 0 || h <= 0 || w > EXR_MAX_DIM || h > EXR_MAX_DIM ||
        (uint64_t)w * (uint64_t)h * 16 > EXR_MAX_BYTES) {
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
    if (p->tiled) {
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
    } else {
        int lpc = lines_per_chunk(p->compression);
        p->expected_chunks = ((uint64_t)h + (uint64_t)lpc - 1) / (uint64_t)lpc;
        p->decode_bytes = (uint64_t)w * (uint64_t)h * (uint64_t)p->nchannels * 4;
        if (p->decode_bytes > EXR_MAX_BYTES) {
            snprintf(why, wl, "%simage too large (%lld x %lld, %d channels)", where,
                     (long long)w, (long long)h, p->nchannels);
            return false;
        }
    }
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

/* Checks the chunk offset tables and every chunk's header, so tinyexr never reads outside
 * the file, never tries to "reconstruct" a damaged table, and never sees coordinates that
 * would place pixels outside its buffers. */
static bool check_chunks(const uint8_t *d, size_t size, size_t table_pos, exr_part_info *parts,
                         int nparts, bool multipart, char *why, size_t wl)
{
    uint64_t entries = 0;
    for (int k = 0; k < nparts; k++)
        entries += parts[k].expected_chunks;
    if (table_pos > size || entries > (size - table_pos) / 8) {
        snprintf(why, wl, "file is truncated (chunk offset table incomplete)");
        return false;
    }
    size_t data_start = table_pos + (size_t)entries * 8;
    size_t t = table_pos;
    for (int k = 0; k < nparts; k++) {
        exr_part_info *p = &parts[k];
        size_t pre = multipart ? 4 : 0;
        size_t hdr = pre + (p->tiled ? 20 : 8);
        int nlx = 1, nly = 1;
        if (p->tiled)
            level_counts(p, &nlx, &nly);
        for (uint64_t c = 0; c < p->expected_chunks; c++, t += 8) {
            uint64_t off = rd_u64(d + t);
            if (off < data_start || off > size || size - off < hdr) {
                snprintf(why, wl, "file is truncated or damaged (chunk %llu%s lies outside "
                                  "the file)",
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
            int32_t dsize;
            uint64_t raw; /* the chunk's pixels uncompressed */
            if (p->tiled) {
                int32_t tx = rd_i32(ch), ty = rd_i32(ch + 4), lx = rd_i32(ch + 8),
                        ly = rd_i32(ch + 12);
                dsize = rd_i32(ch + 16);
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
                uint32_t lw = level_size((uint32_t)((int64_t)p->dw[2] - p->dw[0] + 1), lx,
                                         p->rounding);
                uint32_t lh = level_size((uint32_t)((int64_t)p->dw[3] - p->dw[1] + 1), ly,
                                         p->rounding);
                uint64_t tw = lw - (uint64_t)tx * p->tile_w, th = lh - (uint64_t)ty * p->tile_h;
                if (tw > p->tile_w)
                    tw = p->tile_w;
                if (th > p->tile_h)
                    th = p->tile_h;
                raw = tw * th * p->pixel_bytes;
            } else {
                int64_t y = rd_i32(ch);
                dsize = rd_i32(ch + 4);
                int lpc = lines_per_chunk(p->compression);
                if (y < p->dw[1] || y > p->dw[3] || (y - p->dw[1]) % lpc != 0) {
                    snprintf(why, wl, "damaged file (chunk %llu has invalid scanline %lld)",
                             (unsigned long long)c, (long long)y);
                    return false;
                }
                int64_t lines = (int64_t)p->dw[3] + 1 - y;
                if (lines > lpc)
                    lines = lpc;
                raw = scanline_raw_bytes(p, y, y + lines - 1);
            }
            if (dsize <= 0 || (uint64_t)dsize > size - off - hdr) {
                snprintf(why, wl, "file is truncated or damaged (chunk %llu: %d data bytes, "
                                  "%llu left in the file)",
                         (unsigned long long)c, dsize,
                         (unsigned long long)(size - off - hdr));
                return false;
            }
            /* Compressed data never exceeds the raw size (writers store raw data when
             * compression does not help), and uncompressed data is exactly that size.
             * tinyexr leaks its buffers when a chunk fails to decode, so catch this here. */
            if ((uint64_t)dsize > raw || (p->compression == 0 && (uint64_t)dsize != raw)) {
                snprintf(why, wl, "damaged file (chunk %llu: %d data bytes for %llu bytes of "
                                  "pixels)",
                         (unsigned long long)c, dsize, (unsigned long long)raw);
                return false;
            }
        }
    }
    return true;
}

/* ---- channel selection: parts, layers, views ---- */

/* Layer of a channel name: everything before the last '.', "" for none. */
static size_t layer_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : 0;
}

static const char *suffix(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

static bool in_layer(const char *name, const char *layer)
{
    size_t ll = layer_len(name);
    return ll == strlen(layer) && strncmp(name, layer, ll) == 0;
}

/* Index of channel LAYER.SUF (or SUF when LAYER is ""), -1 when absent. */
static int find_in_layer(const exr_part_info *p, const char *layer, const char *suf)
{
    for (int c = 0; c < p->nchannels; c++)
        if (in_layer(p->chans[c].name, layer) && strcmp(suffix(p->chans[c].name), suf) == 0)
            return c;
    return -1;
}

static bool layer_has_colour(const exr_part_info *p, const char *layer)
{
    return find_in_layer(p, layer, "R") >= 0 || find_in_layer(p, layer, "G") >= 0 ||
           find_in_layer(p, layer, "B") >= 0 || find_in_layer(p, layer, "Y") >= 0;
}

/* Comma-separated layers of a part, in channel order, "(none)" for un-prefixed channels. */
static void list_layers(const exr_part_info *p, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int c = 0; c < p->nchannels; c++) {
        const char *name = p->chans[c].name;
        size_t ll = layer_len(name);
        bool seen = false;
        for (int k = 0; k < c && !seen; k++)
            seen = layer_len(p->chans[k].name) == ll && strncmp(p->chans[k].name, name, ll) == 0;
        if (seen)
            continue;
        char shown[44], tmp[44];
        snprintf(tmp, sizeof tmp, "%.*s", (int)(ll > 40 ? 40 : ll), name);
        int r = snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? "," : "",
                         ll ? printable(tmp, shown) : "(none)");
        if (r > 0)
            n += (size_t)r;
    }
    if (n >= len && len > 4)
        memcpy(out + len - 4, "...", 4);
}

/* "A,B,G,R (half)", grouped by type; subsampled channels carry "@x,y". */
static void describe_channels(const exr_part_info *p, char *out, size_t len)
{
    static const char *const type_names[] = {"uint", "half", "float"};
    size_t n = 0;
    out[0] = '\0';
    for (int t = 0; t < 3; t++) {
        bool any = false;
        for (int c = 0; c < p->nchannels; c++) {
            const exr_chan *ch = &p->chans[c];
            if (ch->type != t)
                continue;
            char shown[44], samp[32] = "";
            if (ch->xs != 1 || ch->ys != 1)
                snprintf(samp, sizeof samp, "@%d,%d", ch->xs, ch->ys);
            int r = snprintf(out + n, n < len ? len - n : 0, "%s%s%s",
                             any ? "," : (n ? "; " : ""), printable(ch->name, shown), samp);
            if (r > 0)
                n += (size_t)r;
            any = true;
        }
        if (any) {
            int r = snprintf(out + n, n < len ? len - n : 0, " (%s)", type_names[t]);
            if (r > 0)
                n += (size_t)r;
        }
    }
    if (n >= len && len > 4)
        memcpy(out + len - 4, "...", 4);
}

/* Picks the part asked for ("N" or a name; NULL = 0). */
static int pick_part(const exr_part_info *parts, int nparts, const char *want, char *why,
                     size_t wl)
{
    if (!want || !*want)
        return 0;
    bool numeric = true;
    for (const char *s = want; *s; s++)
        numeric = numeric && *s >= '0' && *s <= '9';
    if (numeric && strlen(want) < 9) {
        int k = atoi(want);
        if (k < nparts)
            return k;
    } else {
        for (int k = 0; k < nparts; k++)
            if (strcmp(parts[k].name, want) == 0)
                return k;
    }
    size_t n = (size_t)snprintf(why, wl, "no part '%.40s' (%d part%s:", want, nparts,
                                nparts == 1 ? "" : "s");
    for (int k = 0; k < nparts && n < wl; k++)
        n += (size_t)snprintf(why + n, wl - n, " %d%s%s%s", k, parts[k].name[0] ? " '" : "",
                              parts[k].name, parts[k].name[0] ? "'" : "");
    if (n < wl)
        snprintf(why + n, wl - n, ")");
    return -1;
}

/* Chooses which channels make R, G, B, A (exr_view) in part P for LAYER (NULL = default). */
static bool pick_view(const exr_part_info *p, const char *want, exr_view *v, char *why,
                      size_t wl)
{
    memset(v, 0, sizeof *v);
    for (int k = 0; k < VIEW_N; k++)
        v->idx[k] = -1;
    char layer[64] = "";
    char shown[44];
    if (want) {
        snprintf(layer, sizeof layer, "%s", want);
        size_t l = strlen(layer);
        if (l && layer[l - 1] == '.')
            layer[l - 1] = '\0';
        bool any = false;
        for (int c = 0; c < p->nchannels && !any; c++)
            any = in_layer(p->chans[c].name, layer);
        if (!any) {
            char layers[192];
            list_layers(p, layers, sizeof layers);
            snprintf(why, wl, "no layer '%s' (layers: %s)", printable(layer, shown), layers);
            return false;
        }
    } else if (!layer_has_colour(p, "")) {
        /* No un-prefixed R,G,B or Y: the first layer that has them, else the un-prefixed
         * channels, else the first layer. */
        bool found = false, plain = false;
        for (int c = 0; c < p->nchannels && !found; c++) {
            const char *name = p->chans[c].name;
            size_t ll = layer_len(name);
            if (!ll) {
                plain = true;
                continue;
            }
            char cand[64];
            snprintf(cand, sizeof cand, "%.*s", (int)(ll < 63 ? ll : 63), name);
            if (ll < 63 && layer_has_colour(p, cand)) {
                snprintf(layer, sizeof layer, "%s", cand);
                found = true;
            }
        }
        if (!found && !plain) {
            size_t ll = layer_len(p->chans[0].name);
            snprintf(layer, sizeof layer, "%.*s", (int)(ll < 63 ? ll : 63), p->chans[0].name);
        }
    }
    snprintf(v->layer, sizeof v->layer, "%s", layer);
    static const char *const sufs[VIEW_N] = {"R", "G", "B", "A", "Y", "RY", "BY"};
    for (int k = 0; k < VIEW_N; k++)
        v->idx[k] = find_in_layer(p, layer, sufs[k]);
    char pre[42] = "";   /* "%.40s." */
    if (layer[0])
        snprintf(pre, sizeof pre, "%.40s.", printable(layer, shown));
    if (v->idx[VIEW_R] >= 0 || v->idx[VIEW_G] >= 0 || v->idx[VIEW_B] >= 0) {
        v->mode = VIEW_RGB;
        v->idx[VIEW_Y] = v->idx[VIEW_RY] = v->idx[VIEW_BY] = -1;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sR,%sG,%sB", pre, pre, pre);
    } else if (v->idx[VIEW_Y] >= 0 && (v->idx[VIEW_RY] >= 0 || v->idx[VIEW_BY] >= 0)) {
        v->mode = VIEW_YC;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sY,%sRY,%sBY (luminance/chroma)", pre,
                 pre, pre);
    } else if (v->idx[VIEW_Y] >= 0) {
        v->mode = VIEW_GREY;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sY (R=G=B=Y)", pre);
    } else {
        /* Another channel set: one channel is grey, two or more fill R, G (and B). */
        int got[3], n = 0;
        v->fallback = true;
        for (int c = 0; c < p->nchannels && n < 3; c++)
            if (in_layer(p->chans[c].name, layer))
                got[n++] = c;
        v->idx[VIEW_A] = -1;
        char s0[44], s1[44], s2[44];
        if (n == 1) {
            v->mode = VIEW_GREY;
            v->idx[VIEW_Y] = got[0];
            snprintf(v->rgb_source, sizeof v->rgb_source, "%.40s as grey",
                     printable(p->chans[got[0]].name, s0));
        } else {
            v->mode = VIEW_RGB;
            for (int k = 0; k < n; k++)
                v->idx[k] = got[k];
            if (n == 2)
                snprintf(v->rgb_source, sizeof v->rgb_source, "%.24s,%.24s as R,G (B=0)",
                         printable(p->chans[got[0]].name, s0),
                         printable(p->chans[got[1]].name, s1));
            else
                snprintf(v->rgb_source, sizeof v->rgb_source, "%.16s,%.16s,%.16s as R,G,B",
                         printable(p->chans[got[0]].name, s0),
                         printable(p->chans[got[1]].name, s1),
                         printable(p->chans[got[2]].name, s2));
        }
    }
    for (int k = 0; k < VIEW_N; k++) {
        int c = v->idx[k];
        if (c < 0 || k == VIEW_RY || k == VIEW_BY)
            continue;
        if (p->chans[c].xs != 1 || p->chans[c].ys != 1) {
            snprintf(why, wl, "channel '%s' is subsampled (%d,%d); only the chroma channels "
                              "RY, BY of luminance/chroma images may be",
                     printable(p->chans[c].name, shown), p->chans[c].xs, p->chans[c].ys);
            return false;
        }
    }
    for (int k = VIEW_RY; k <= VIEW_BY; k++) {
        int c = v->idx[k];
        if (c >= 0 && !((p->chans[c].xs == 2 && p->chans[c].ys == 2) ||
                        (p->chans[c].xs == 1 && p->chans[c].ys == 1))) {
            snprintf(why, wl, "chroma channel '%s' has sampling %d,%d (only 2,2 and 1,1 are "
                              "supported)",
                     printable(p->chans[c].name, shown), p->chans[c].xs, p->chans[c].ys);
            return false;
        }
    }
    return true;
}

/* ---- tinyexr decoding into planes ---- */

/* Copies channel C of tinyexr's decoded part into a W x H float plane. */
static float *tiny_plane(const EXRHeader *h, EXRImage *im, int c, int w, int hgt, char *why,
                         size_t wl)
{
    bool is_uint = h->pixel_types[c] == TINYEXR_PIXELTYPE_UINT; /* HALF was asked as FLOAT */
    if (!h->tiled && !is_uint && im->images && im->images[c] && im->width == w &&
        im->height == hgt) {
        /* A float scanline channel is already the plane: take it over instead of copying
         * (an 8K channel is 133 MB). FreeEXRImage skips the NULL left behind. */
        float *own = (float *)(void *)im->images[c];
        im->images[c] = NULL;
        return own;
    }
    float *v = calloc((size_t)w * (size_t)hgt, sizeof *v);
    if (!v) {
        snprintf(why, wl, "out of memory (%d x %d)", w, hgt);
        return NULL;
    }
    if (h->tiled) {
        /* Level 0 only: with one-level and mipmap modes that is the first EXRImage; tiles
         * were checked to lie inside the data window. */
        for (int t = 0; t < im->num_tiles; t++) {
            const EXRTile *tile = &im->tiles[t];
            int x0 = tile->offset_x * h->tile_size_x, y0 = tile->offset_y * h->tile_size_y;
            int bw = tile->width, bh = tile->height;
            if (tile->level_x != 0 || tile->level_y != 0 || x0 < 0 || y0 < 0 || bw < 0 ||
                bh < 0 || x0 + bw > w || y0 + bh > hgt || !tile->images || !tile->images[c]) {
                snprintf(why, wl, "damaged tile %d", t);
                free(v);
                return NULL;
            }
            for (int y = 0; y < bh; y++)
                for (int x = 0; x < bw; x++) {
                    size_t i = (size_t)y * (size_t)h->tile_size_x + (size_t)x;
                    const unsigned char *pl = tile->images[c];
                    v[(size_t)(y0 + y) * (size_t)w + (size_t)(x0 + x)] =
                        is_uint ? (float)((const uint32_t *)(const void *)pl)[i]
                                : ((const float *)(const void *)pl)[i];
                }
        }
        return v;
    }
    if (!im->images || !im->images[c] || im->width != w || im->height != hgt) {
        snprintf(why, wl, "OpenEXR decoder returned no pixels");
        free(v);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)hgt;
    for (size_t i = 0; i < n; i++)
        v[i] = is_uint ? (float)((const uint32_t *)(const void *)im->images[c])[i]
                       : ((const float *)(const void *)im->images[c])[i];
    return v;
}

/* Decodes the channels of exr_plane list with tinyexr (every part is decoded; that is how
 * tinyexr finds the chunk tables). */
static bool tiny_decode(const uint8_t *data, size_t size, bool multipart, int nparts, int part,
                        exr_plane *planes, int nplanes, char *why, size_t wl)
{
    EXRVersion version;
    int ret = ParseEXRVersionFromMemory(&version, data, size);
    if (ret != TINYEXR_SUCCESS) {
        snprintf(why, wl, "not a readable OpenEXR file (tinyexr error %d)", ret);
        return false;
    }
    const char *terr = NULL;
    EXRHeader single;
    EXRHeader **headers = NULL;
    int nheaders = 0;
    EXRImage *images = NULL;
    bool single_loaded = false, ok = false;
    InitEXRHeader(&single);
    if (multipart) {
        ret = ParseEXRMultipartHeaderFromMemory(&headers, &nheaders, &version, data, size, &terr);
        if (ret != TINYEXR_SUCCESS || nheaders != nparts) {
            snprintf(why, wl, "cannot read the OpenEXR headers: %s",
                     terr ? terr : "inconsistent part count");
            goto done;
        }
    } else {
        ret = ParseEXRHeaderFromMemory(&single, &version, data, size, &terr);
        if (ret != TINYEXR_SUCCESS) {
            snprintf(why, wl, "cannot read the OpenEXR header: %s", terr ? terr : "unknown error");
            goto done;
        }
        nheaders = 1;
    }
    for (int k = 0; k < nheaders; k++) {
        EXRHeader *h = multipart ? headers[k] : &single;
        for (int c = 0; c < h->num_channels; c++)
            if (h->pixel_types[c] == TINYEXR_PIXELTYPE_HALF)
                h->requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;
        /* tinyexr stores decreasing-order scanlines bottom-up (a vertical flip) and flips
         * rows inside each tile. Each chunk carries its own coordinates, so with the order
         * set to increasing every row lands where it belongs: this is the flip, done right
         * for tiles too. */
        h->line_order = 0;
    }
    images = calloc((size_t)nheaders, sizeof *images);
    if (!images) {
        snprintf(why, wl, "out of memory");
        goto done;
    }
    for (int k = 0; k < nheaders; k++) {
        InitEXRImage(&images[k]);
        /* tinyexr sets num_channels only on success, yet frees a failed image with
         * FreeEXRImage, which walks num_channels: set it now so that cleanup frees the
         * channel buffers instead of leaking them (found by scripts/fuzz). */
        images[k].num_channels = (multipart ? headers[k] : &single)->num_channels;
    }
    if (multipart) {
        ret = LoadEXRMultipartImageFromMemory(images, (const EXRHeader **)headers,
                                              (unsigned)nheaders, data, size, &terr);
    } else {
        ret = LoadEXRImageFromMemory(&images[0], &single, data, size, &terr);
        /* On failure tinyexr has already freed (without clearing) what it allocated. */
        single_loaded = ret == TINYEXR_SUCCESS;
    }
    if (ret != TINYEXR_SUCCESS) {
        snprintf(why, wl, "cannot decode the OpenEXR pixels: %s", terr ? terr : "unknown error");
        goto done;
    }
    EXRHeader *h = multipart ? headers[part] : &single;
    int w = h->data_window.max_x - h->data_window.min_x + 1;
    int hgt = h->data_window.max_y - h->data_window.min_y + 1;
    for (int p = 0; p < nplanes; p++) {
        int c = 0;
        while (c < h->num_channels && strcmp(h->channels[c].name, planes[p].name) != 0)
            c++;
        if (c == h->num_channels) {
            snprintf(why, wl, "channel '%s' not found by tinyexr", planes[p].name);
            goto done;
        }
        planes[p].v = tiny_plane(h, &images[part], c, w, hgt, why, wl);
        if (!planes[p].v)
            goto done;
        planes[p].nx = w;
        planes[p].ny = hgt;
    }
    ok = true;
done:
    if (images) {
        if (multipart) {
            for (int k = 0; k < nheaders; k++) {
                /* A failed scanline decode returns before recording the channel count. */
                if (images[k].images && images[k].num_channels == 0)
                    images[k].num_channels = headers[k]->num_channels;
                FreeEXRImage(&images[k]);
            }
        } else if (single_loaded) {
            FreeEXRImage(&images[0]);
        }
        free(images);
    }
    if (headers) {
        for (int k = 0; k < nheaders; k++) {
            FreeEXRHeader(headers[k]);
            free(headers[k]);
        }
        free(headers);
    }
    FreeEXRHeader(&single);
    if (terr)
        FreeEXRErrorMessage(terr);
    if (!ok)
        for (int p = 0; p < nplanes; p++) {
            free(planes[p].v);
            planes[p].v = NULL;
        }
    return ok;
}

/* ---- assembling RGBA ---- */

static bool assemble(const exr_part_info *p, const exr_view *v, exr_plane *planes,
                     const int slot[VIEW_N], int w, int hgt, float *rgba, char *why, size_t wl)
{
    size_t n = (size_t)w * (size_t)hgt;
    const float *pl[VIEW_N];
    for (int k = 0; k < VIEW_N; k++)
        pl[k] = slot[k] >= 0 ? planes[slot[k]].v : NULL;
    if (v->mode == VIEW_YC) {
        float yw[3];
        image_yca_weights(p->has_chroma ? p->chroma : IMAGE_REC709_CHROMATICITIES, yw);
        if (!(yw[1] != 0) || !isfinite(yw[0]) || !isfinite(yw[1]) || !isfinite(yw[2])) {
            snprintf(why, wl, "invalid chromaticities attribute");
            return false;
        }
        /* Chroma at full resolution: keep the samples at even x and y, as the 2,2 grid. */
        float *dec[2] = {NULL, NULL};
        int cw = (int)multiples(p->dw[0], p->dw[2], 2), ch = (int)multiples(p->dw[1], p->dw[3], 2);
        const float *chroma[2] = {pl[VIEW_RY], pl[VIEW_BY]};
        for (int k = 0; k < 2; k++) {
            int s = slot[VIEW_RY + k];
            if (s < 0 || planes[s].nx == cw)
                continue;
            dec[k] = malloc(((size_t)cw * (size_t)ch + 1) * sizeof(float));
            if (!dec[k]) {
                free(dec[0]);
                snprintf(why, wl, "out of memory");
                return false;
            }
            int i = 0;
            for (int y = p->dw[1]; y <= p->dw[3]; y++)
                for (int x = p->dw[0]; x <= p->dw[2]; x++)
                    if (!(x & 1) && !(y & 1))
                        dec[k][i++] = chroma[k][(size_t)(y - p->dw[1]) * (size_t)w +
                                                (size_t)(x - p->dw[0])];
            chroma[k] = dec[k];
        }
        bool ok = image_yca_to_rgba(p->dw[0], p->dw[1], w, hgt, pl[VIEW_Y], chroma[0],
                                    chroma[1], cw, ch, pl[VIEW_A], yw, rgba);
        free(dec[0]);
        free(dec[1]);
        if (!ok)
            snprintf(why, wl, "out of memory");
        return ok;
    }
    for (size_t i = 0; i < n; i++) {
        float *d = rgba + i * 4;
        if (v->mode == VIEW_GREY) {
            d[0] = d[1] = d[2] = pl[VIEW_Y][i];
        } else {
            for (int c = 0; c < 3; c++)
                d[c] = pl[c] ? pl[c][i] : 0.0f;
        }
        d[3] = pl[VIEW_A] ? pl[VIEW_A][i] : 1.0f;
    }
    return true;
}

static void free_parts(exr_part_info *parts, int n)
{
    if (!parts)
        return;
    for (int k = 0; k < n; k++)
        free(parts[k].chans);
    free(parts);
}

bool image_load_exr(const char *path, const uint8_t *data, size_t size,
                         const image_load_options *opts, hdr_image *img, char *err,
                         size_t errlen)
{
    char why[HT_ERR_MAX];
    memset(img, 0, sizeof *img);
    if (!opts)
        opts = &image_load_defaults;

    /* --- our own structural walk, before any decoder sees anything --- */
    if (size < 8 || memcmp(data, "\x76\x2f\x31\x01", 4) != 0) {
        snprintf(err, errlen, "%s: not an OpenEXR file (truncated or bad magic number)", path);
        return false;
    }
    if (data[4] != 2) {
        snprintf(err, errlen, "%s: unsupported OpenEXR version %d", path, data[4]);
        return false;
    }
    uint8_t flags = data[5];
    bool single_tiled = flags & 0x02, deep = flags & 0x08, multipart = flags & 0x10;
    if ((flags & ~0x1e) || data[6] || data[7]) {
        snprintf(err, errlen, "%s: unknown OpenEXR version flags (damaged file?)", path);
        return false;
    }
    if (deep && !multipart) {
        snprintf(err, errlen, "%s: deep images are not supported", path);
        return false;
    }
    if (multipart)
        single_tiled = false;

    int cap = 4, nparts = 0;
    exr_part_info *parts = calloc((size_t)cap, sizeof *parts);
    if (!parts) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    size_t pos = 8;
    bool ok = true;
    uint64_t decode_total = 0;
    for (;;) {
        if (multipart) {
            if (pos >= size) {
                snprintf(why, sizeof why, "header is truncated");
                ok = false;
                break;
            }
            if (data[pos] == 0) { /* the empty header ends the list */
                pos++;
                break;
            }
        }
        if (nparts == EXR_MAX_PARTS) {
            snprintf(why, sizeof why, "too many parts");
            ok = false;
            break;
        }
        if (nparts == cap) {
            exr_part_info *np = realloc(parts, (size_t)cap * 2 * sizeof *parts);
            if (!np) {
                snprintf(why, sizeof why, "out of memory");
                ok = false;
                break;
            }
            parts = np;
            memset(parts + cap, 0, (size_t)cap * sizeof *parts);
            cap *= 2;
        }
        exr_part_info *p = &parts[nparts];
        bool parsed = parse_header(data, size, &pos, single_tiled, multipart, p, why, sizeof why);
        nparts++; /* counted even when it failed, so that its channels are freed */
        if (!parsed || !check_part(p, nparts - 1, single_tiled, multipart, why, sizeof why)) {
            ok = false;
            break;
        }
        decode_total += p->decode_bytes;
        if (decode_total > EXR_MAX_BYTES) {
            snprintf(why, sizeof why, "parts together are too large to decode");
            ok = false;
            break;
        }
        if (!multipart)
            break;
    }
    if (ok && nparts == 0) {
        snprintf(why, sizeof why, "multi-part file without parts");
        ok = false;
    }
    if (ok)
        ok = check_chunks(data, size, pos, parts, nparts, multipart, why, sizeof why);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        free_parts(parts, nparts);
        return false;
    }

    /* --- which part and channels --- */
    int part = pick_part(parts, nparts, opts->part, why, sizeof why);
    exr_view view;
    if (part < 0 || !pick_view(&parts[part], opts->layer, &view, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        free_parts(parts, nparts);
        return false;
    }
    exr_part_info *p = &parts[part];
    int w = p->dw[2] - p->dw[0] + 1, hgt = p->dw[3] - p->dw[1] + 1;
    if (!image_check_pixels(path, (uint64_t)w, (uint64_t)hgt, opts, err, errlen)) {
        free_parts(parts, nparts);
        return false;
    }

    /* --- decoder: tinyexr unless the headers say it cannot --- */
    bool core = false;
    uint64_t all_pixels = 0; /* tinyexr decodes every part of a file together */
    for (int k = 0; k < nparts; k++) {
        core = core || parts[k].needs_core;
        all_pixels += (uint64_t)((int64_t)parts[k].dw[2] - parts[k].dw[0] + 1) *
                      (uint64_t)((int64_t)parts[k].dw[3] - parts[k].dw[1] + 1);
    }
    if (!core && all_pixels > image_max_pixels(opts)) {
        if (image_have_openexr()) {
            core = true; /* decodes only the part asked for */
        } else {
            snprintf(err, errlen, "%s: the parts together have %llu pixels, more than the limit "
                                  "of %llu pixels (--max-pixels), and without the OpenEXR "
                                  "library they can only be decoded together",
                     path, (unsigned long long)all_pixels,
                     (unsigned long long)image_max_pixels(opts));
            free_parts(parts, nparts);
            return false;
        }
    }
    if (core && !image_have_openexr()) {
        const exr_part_info *q = p->needs_core ? p : parts;
        for (int k = 0; !p->needs_core && k < nparts; k++)
            if (parts[k].needs_core)
                q = &parts[k];
        char reason[96];
        if (q->compression > 4)
            snprintf(reason, sizeof reason, "%s compression", compression_name(q->compression));
        else
            snprintf(reason, sizeof reason, "subsampled channels (luminance/chroma)");
        snprintf(err, errlen, "%s: %s%s needs the OpenEXR library, and this hdrtone was built "
                              "without it (install libopenexr-dev and rebuild)",
                 path, reason, q == p ? "" : " in another part");
        free_parts(parts, nparts);
        return false;
    }
    exr_plane planes[VIEW_N];
    int slot[VIEW_N], nplanes = 0;
    for (int k = 0; k < VIEW_N; k++) {
        slot[k] = -1;
        if (view.idx[k] < 0)
            continue;
        slot[k] = nplanes;
        planes[nplanes++] = (exr_plane){p->chans[view.idx[k]].name, 0, 0, NULL};
    }
    bool dwa = p->compression == 8 || p->compression == 9;
    if (dwa && (part != 0 || view.layer[0] || view.fallback)) {
        snprintf(err, errlen, "%s: %s-compressed parts can only be read for part 0's un-prefixed "
                              "R,G,B or Y channels (the OpenEXR 3.1 C core has no DWA decoder)",
                 path, compression_name(p->compression));
        free_parts(parts, nparts);
        return false;
    }
    float *rgba = NULL;
    bool decoded;
    if (dwa) {
        nplanes = 0; /* the RGBA interface picks the channels itself, as our view does */
        rgba = malloc((size_t)w * (size_t)hgt * 4 * sizeof(float));
        decoded = rgba && image_openexr_rgba(path, p->dw, rgba, why, sizeof why);
        if (!rgba)
            snprintf(why, sizeof why, "out of memory (%d x %d)", w, hgt);
    } else {
        decoded = core ? image_openexr_decode(data, size, part, planes, nplanes, why, sizeof why)
                       : tiny_decode(data, size, multipart, nparts, part, planes, nplanes, why,
                                     sizeof why);
    }
    if (decoded) {
        for (int k = 0; k < nplanes && decoded; k++) {
            bool full = !(k == slot[VIEW_RY] || k == slot[VIEW_BY]);
            if (full && (planes[k].nx != w || planes[k].ny != hgt)) {
                snprintf(why, sizeof why, "decoder returned a %d x %d channel for a %d x %d "
                                          "image", planes[k].nx, planes[k].ny, w, hgt);
                decoded = false;
            }
        }
    }
    if (decoded && !dwa) {
        rgba = malloc((size_t)w * (size_t)hgt * 4 * sizeof(float));
        if (!rgba) {
            snprintf(why, sizeof why, "out of memory (%d x %d)", w, hgt);
            decoded = false;
        } else if (!assemble(p, &view, planes, slot, w, hgt, rgba, why, sizeof why)) {
            free(rgba);
            rgba = NULL;
            decoded = false;
        }
    }
    for (int k = 0; k < nplanes; k++)
        free(planes[k].v);
    if (!decoded) {
        free(rgba);
        snprintf(err, errlen, "%s: %s", path, why);
        free_parts(parts, nparts);
        return false;
    }

    hdr_part_info *info = calloc((size_t)nparts, sizeof *info);
    for (int k = 0; info && k < nparts; k++) {
        const exr_part_info *q = &parts[k];
        snprintf(info[k].name, sizeof info[k].name, "%s", q->name);
        snprintf(info[k].type, sizeof info[k].type, "%s", q->tiled ? "tiled" : "scanline");
        snprintf(info[k].compression, sizeof info[k].compression, "%s",
                 compression_name(q->compression));
        memcpy(info[k].data_window, q->dw, sizeof q->dw);
        describe_channels(q, info[k].channels, sizeof info[k].channels);
        list_layers(q, info[k].layers, sizeof info[k].layers);
    }

    bool all_half = true;
    for (int k = 0; k < VIEW_N; k++)
        if (view.idx[k] >= 0 && p->chans[view.idx[k]].type != EXR_HALF)
            all_half = false;
    if (view.mode == VIEW_YC) /* the reconstruction rounds every value to half */
        all_half = true;
    img->width = w;
    img->height = hgt;
    img->rgba = rgba;
    memcpy(img->data_window, p->dw, sizeof p->dw);
    memcpy(img->display_window, p->disp, sizeof p->disp);
    img->half_exact = all_half;
    snprintf(img->format, sizeof img->format, "OpenEXR");
    describe_channels(p, img->channels, sizeof img->channels);
    snprintf(img->compression, sizeof img->compression, "%s", compression_name(p->compression));
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s", view.rgb_source);
    img->part = part;
    img->part_count = nparts;
    snprintf(img->part_name, sizeof img->part_name, "%s", p->name);
    snprintf(img->layer, sizeof img->layer, "%s", view.layer);
    img->parts = info;
    img->exposure = 1.0;
    free_parts(parts, nparts);
    return true;
}
