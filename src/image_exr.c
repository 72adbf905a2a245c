/* OpenEXR through tinyexr (Debian 1.0.1), from memory.
 *
 * tinyexr trusts its input: bogus headers make it allocate without limit, divide by zero,
 * read past the buffer or abort on an assert (Debian keeps asserts on), and some files it
 * "decodes" with wrong pixels (subsampled channels, decreasing line order). So the file's
 * structure is walked here first — every header of every part, the chunk offset tables and
 * each chunk's own header — against the OpenEXR file layout, and tinyexr is called only on
 * files whose structure is sound and whose features it decodes correctly. What stays
 * unguarded is the inside of compressed chunk data. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "image.h"

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

enum { EXR_UINT = 0, EXR_HALF = 1, EXR_FLOAT = 2 };
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

/* Scanlines per chunk for the compressions tinyexr reads. */
static int lines_per_chunk(int compression)
{
    switch (compression) {
    case 3: return 16; /* ZIP */
    case 4: return 32; /* PIZ */
    default: return 1; /* NONE, RLE, ZIPS */
    }
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
        if (++p->nchannels > EXR_MAX_CHANNELS) {
            snprintf(why, wl, "too many channels");
            return false;
        }
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
    memset(p, 0, sizeof *p);
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
    if (p->compression > 4) {
        snprintf(why, wl, "%s%s compression is not supported yet", where, cname);
        return false;
    }
    if (p->subsampled) {
        snprintf(why, wl, "%sluminance/chroma with subsampled chroma is not supported yet "
                          "(channels with x/y sampling other than 1)", where);
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
                raw = (uint64_t)((int64_t)p->dw[2] - p->dw[0] + 1) * (uint64_t)lines *
                      p->pixel_bytes;
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

/* Looks up an un-prefixed channel by exact name in part 0. */
static int find_channel(const EXRHeader *h, const char *name)
{
    for (int c = 0; c < h->num_channels; c++)
        if (strcmp(h->channels[c].name, name) == 0)
            return c;
    return -1;
}

static float channel_value(const EXRHeader *h, const unsigned char *plane, int c, size_t i)
{
    /* HALF was requested as FLOAT; UINT stays 32-bit unsigned. */
    if (h->pixel_types[c] == TINYEXR_PIXELTYPE_UINT)
        return (float)((const uint32_t *)(const void *)plane)[i];
    return ((const float *)(const void *)plane)[i];
}

/* Copies the used channels of a W-wide block of ROWS rows (STRIDE values per row) into rgba
 * at (x0, y0). */
static void copy_block(const EXRHeader *h, unsigned char **planes, const int idx[5], int stride,
                       int bw, int bh, float *rgba, int width, int x0, int y0)
{
    for (int y = 0; y < bh; y++) {
        float *dst = rgba + ((size_t)(y0 + y) * (size_t)width + (size_t)x0) * 4;
        for (int x = 0; x < bw; x++, dst += 4) {
            size_t i = (size_t)y * (size_t)stride + (size_t)x;
            if (idx[0] < 0 && idx[1] < 0 && idx[2] < 0) { /* Y only */
                float v = channel_value(h, planes[idx[4]], idx[4], i);
                dst[0] = dst[1] = dst[2] = v;
            } else {
                for (int c = 0; c < 3; c++)
                    dst[c] = idx[c] >= 0 ? channel_value(h, planes[idx[c]], idx[c], i) : 0.0f;
            }
            dst[3] = idx[3] >= 0 ? channel_value(h, planes[idx[3]], idx[3], i) : 1.0f;
        }
    }
}

static void describe_channels(const EXRHeader *h, char *out, size_t len)
{
    static const char *const type_names[] = {"uint", "half", "float"};
    size_t n = 0;
    out[0] = '\0';
    /* Grouped by type, as the manifest writes them: "A,B,G,R (half)". */
    for (int t = 0; t < 3; t++) {
        bool any = false;
        for (int c = 0; c < h->num_channels; c++) {
            if (h->pixel_types[c] != t)
                continue;
            int r = snprintf(out + n, n < len ? len - n : 0, "%s%s",
                             any ? "," : (n ? "; " : ""), h->channels[c].name);
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

bool image_load_exr(const char *path, const uint8_t *data, size_t size, hdr_image *img,
                    char *err, size_t errlen)
{
    char why[256];
    memset(img, 0, sizeof *img);

    /* --- our own structural walk, before tinyexr sees anything --- */
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
    exr_part_info *parts = malloc((size_t)cap * sizeof *parts);
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
            cap *= 2;
            exr_part_info *np = realloc(parts, (size_t)cap * sizeof *parts);
            if (!np) {
                snprintf(why, sizeof why, "out of memory");
                ok = false;
                break;
            }
            parts = np;
        }
        exr_part_info *p = &parts[nparts];
        if (!parse_header(data, size, &pos, single_tiled, multipart, p, why, sizeof why) ||
            !check_part(p, nparts, single_tiled, multipart, why, sizeof why)) {
            ok = false;
            break;
        }
        nparts++;
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
    free(parts);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }

    /* --- tinyexr --- */
    EXRVersion version;
    int ret = ParseEXRVersionFromMemory(&version, data, size);
    if (ret != TINYEXR_SUCCESS) {
        snprintf(err, errlen, "%s: not a readable OpenEXR file (tinyexr error %d)", path, ret);
        return false;
    }
    const char *terr = NULL;
    EXRHeader single;
    EXRHeader **headers = NULL;
    int nheaders = 0;
    EXRImage *images = NULL;
    bool single_loaded = false;
    ok = false;
    InitEXRHeader(&single);
    if (multipart) {
        ret = ParseEXRMultipartHeaderFromMemory(&headers, &nheaders, &version, data, size, &terr);
        if (ret != TINYEXR_SUCCESS || nheaders != nparts) {
            snprintf(err, errlen, "%s: cannot read the OpenEXR headers: %s", path,
                     terr ? terr : "inconsistent part count");
            goto done;
        }
    } else {
        ret = ParseEXRHeaderFromMemory(&single, &version, data, size, &terr);
        if (ret != TINYEXR_SUCCESS) {
            snprintf(err, errlen, "%s: cannot read the OpenEXR header: %s", path,
                     terr ? terr : "unknown error");
            goto done;
        }
        headers = NULL;
        nheaders = 1;
    }
    EXRHeader *h0 = multipart ? headers[0] : &single;
    int nh = multipart ? nheaders : 1;
    /* half_exact needs the file's types, which loading overwrites with the requested ones. */
    bool all_half = true;
    int idx[5] = {find_channel(h0, "R"), find_channel(h0, "G"), find_channel(h0, "B"),
                  find_channel(h0, "A"), find_channel(h0, "Y")};
    if (idx[0] < 0 && idx[1] < 0 && idx[2] < 0 && idx[4] < 0) {
        snprintf(err, errlen, "%s: no usable channels (no R, G, B or Y in part 0)", path);
        goto done;
    }
    bool y_only = idx[0] < 0 && idx[1] < 0 && idx[2] < 0;
    for (int k = 0; k < 5; k++) {
        if (idx[k] < 0 || (k == 4 && !y_only))
            continue;
        if (h0->pixel_types[idx[k]] != TINYEXR_PIXELTYPE_HALF)
            all_half = false;
    }
    char channels[sizeof img->channels];
    describe_channels(h0, channels, sizeof channels);
    for (int k = 0; k < nh; k++) {
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

    if (multipart) {
        images = calloc((size_t)nheaders, sizeof *images);
        if (!images) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto done;
        }
        for (int k = 0; k < nheaders; k++)
            InitEXRImage(&images[k]);
        /* tinyexr finds the chunk tables after all headers, so every part is decoded. */
        ret = LoadEXRMultipartImageFromMemory(images, (const EXRHeader **)headers,
                                              (unsigned)nheaders, data, size, &terr);
    } else {
        images = calloc(1, sizeof *images);
        if (!images) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto done;
        }
        InitEXRImage(&images[0]);
        ret = LoadEXRImageFromMemory(&images[0], &single, data, size, &terr);
        /* On failure tinyexr has already freed (without clearing) what it allocated. */
        single_loaded = ret == TINYEXR_SUCCESS;
    }
    if (ret != TINYEXR_SUCCESS) {
        snprintf(err, errlen, "%s: cannot decode the OpenEXR pixels: %s", path,
                 terr ? terr : "unknown error");
        goto done;
    }

    EXRImage *im = &images[0];
    int w = h0->data_window.max_x - h0->data_window.min_x + 1;
    int hgt = h0->data_window.max_y - h0->data_window.min_y + 1;
    float *rgba = malloc((size_t)w * (size_t)hgt * 4 * sizeof(float));
    if (!rgba) {
        snprintf(err, errlen, "%s: out of memory (%d x %d)", path, w, hgt);
        goto done;
    }
    if (h0->tiled) {
        /* Level 0 only: with one-level and mipmap modes that is the first EXRImage; tiles
         * were checked to lie inside the data window. */
        memset(rgba, 0, (size_t)w * (size_t)hgt * 4 * sizeof(float));
        for (int t = 0; t < im->num_tiles; t++) {
            const EXRTile *tile = &im->tiles[t];
            int x0 = tile->offset_x * h0->tile_size_x, y0 = tile->offset_y * h0->tile_size_y;
            int bw = tile->width, bh = tile->height;
            if (tile->level_x != 0 || tile->level_y != 0 || x0 < 0 || y0 < 0 || bw < 0 ||
                bh < 0 || x0 + bw > w || y0 + bh > hgt || !tile->images) {
                free(rgba);
                snprintf(err, errlen, "%s: damaged tile %d", path, t);
                goto done;
            }
            copy_block(h0, tile->images, idx, h0->tile_size_x, bw, bh, rgba, w, x0, y0);
        }
    } else {
        if (!im->images || im->width != w || im->height != hgt) {
            free(rgba);
            snprintf(err, errlen, "%s: OpenEXR decoder returned no pixels", path);
            goto done;
        }
        copy_block(h0, im->images, idx, w, w, hgt, rgba, w, 0, 0);
    }

    img->width = w;
    img->height = hgt;
    img->rgba = rgba;
    img->data_window[0] = h0->data_window.min_x;
    img->data_window[1] = h0->data_window.min_y;
    img->data_window[2] = h0->data_window.max_x;
    img->data_window[3] = h0->data_window.max_y;
    img->display_window[0] = h0->display_window.min_x;
    img->display_window[1] = h0->display_window.min_y;
    img->display_window[2] = h0->display_window.max_x;
    img->display_window[3] = h0->display_window.max_y;
    img->half_exact = all_half;
    snprintf(img->format, sizeof img->format, "OpenEXR");
    snprintf(img->channels, sizeof img->channels, "%s", channels);
    snprintf(img->compression, sizeof img->compression, "%s",
             compression_name(h0->compression_type));
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s", y_only ? "Y (R=G=B=Y)" : "R,G,B");
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
    return ok;
}
