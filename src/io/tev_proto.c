/* tev's packets: parsing with validation, writing, channel-name mapping. */
#include "tev_proto.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Floats of each VectorGraphics command type (tev's VgCommand::bytes() / 4); -1 = unknown. */
static const int8_t VG_FLOATS[] = {
    0, 0, 4, 0, 4, 0, 0, 0, 1, 0,   /* save restore fillColor fill strokeColor stroke
                                       beginPath closePath pathWinding debugDump */
    2, 2, 5, 6, 6, 3, 4, 4, 4, 5,   /* moveTo lineTo arcTo arc bezierTo circle ellipse
                                       quadTo rect roundedRect */
    8, 2, 1, 0, 2, 2,               /* roundedRectVarying text textAlign fontFace fontSize
                                       strokeWidth */
};
#define VG_TYPES ((int)sizeof VG_FLOATS)
#define VG_TEXT 21
#define VG_FONT_FACE 23

size_t tev_max_packet(uint64_t max_pixels)
{
    const uint64_t headroom = (uint64_t)1 << 20;
    uint64_t n = max_pixels > (UINT32_MAX - headroom) / 16 ? UINT32_MAX
                                                           : max_pixels * 16 + headroom;
    return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

const char *tev_type_name(int type, char *buf, size_t len)
{
    static const char *const names[] = {
        "OpenImage (0)", "ReloadImage", "CloseImage", "UpdateImage (3)", "CreateImage",
        "UpdateImage (5)", "UpdateImage", "OpenImage", "VectorGraphics",
    };
    if (type >= 0 && type < (int)(sizeof names / sizeof names[0]))
        return names[type];
    snprintf(buf, len, "packet of unknown type %d", type);
    return buf;
}

const char *tev_printable(tev_str s, size_t max, char *buf, size_t len)
{
    if (len < 4) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    bool cut = s.len > max || s.len > len - 1;
    size_t keep = cut ? (max < len - 4 ? max : len - 4) : s.len;
    for (size_t i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)s.p[i];
        buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    memcpy(buf + keep, cut ? "..." : "", cut ? 4 : 1);
    return buf;
}

/* ---- reading ---- */

typedef struct reader {
    const uint8_t *b;
    size_t size, pos;
    const char *what;             /* packet type, for messages */
    char *err;
    size_t errlen;
    bool failed;
} reader;

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Takes N bytes for FIELD; NULL (and the reader failed) when fewer are left. */
static const uint8_t *take(reader *r, size_t n, const char *field)
{
    if (r->failed)
        return NULL;
    if (r->size - r->pos < n) {
        snprintf(r->err, r->errlen,
                 "%s: packet ends at byte %zu inside %s (%zu bytes needed, %zu left)", r->what,
                 r->size, field, n, r->size - r->pos);
        r->failed = true;
        return NULL;
    }
    const uint8_t *p = r->b + r->pos;
    r->pos += n;
    return p;
}

static bool rd_bool(reader *r, const char *field)
{
    const uint8_t *p = take(r, 1, field);
    return p && *p != 0;
}

static int32_t rd_i32(reader *r, const char *field)
{
    const uint8_t *p = take(r, 4, field);
    return p ? (int32_t)le32(p) : 0;
}

static int64_t rd_i64(reader *r, const char *field)
{
    const uint8_t *p = take(r, 8, field);
    return p ? (int64_t)((uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32) : 0;
}

static tev_str rd_str(reader *r, const char *field)
{
    tev_str s = {"", 0};
    if (r->failed)
        return s;
    const uint8_t *start = r->b + r->pos;
    const uint8_t *nul = memchr(start, 0, r->size - r->pos);
    if (!nul) {
        snprintf(r->err, r->errlen, "%s: %s is not NUL-terminated before the packet ends "
                 "(byte %zu)", r->what, field, r->size);
        r->failed = true;
        return s;
    }
    s.p = (const char *)start;
    s.len = (size_t)(nul - start);
    r->pos += s.len + 1;
    return s;
}

/* A count field in 1..MAX (or 0..MAX when ZERO_OK). */
static int32_t rd_count(reader *r, const char *field, int32_t max, bool zero_ok)
{
    int32_t n = rd_i32(r, field);
    if (!r->failed && (n < (zero_ok ? 0 : 1) || n > max)) {
        snprintf(r->err, r->errlen, "%s: %s %" PRId32 " is outside %d..%" PRId32, r->what,
                 field, n, zero_ok ? 0 : 1, max);
        r->failed = true;
    }
    return n;
}

/* W x H (1.. each, product at most LIM->max_pixels), for a tile at X, Y when TILE. */
static void check_size(reader *r, const tev_packet *p, const tev_limits *lim, bool tile)
{
    if (r->failed)
        return;
    const char *what = tile ? "tile" : "image";
    if (p->width < 1 || p->height < 1) {
        snprintf(r->err, r->errlen, "%s: %s size %" PRId32 " x %" PRId32 " is not positive",
                 r->what, what, p->width, p->height);
        r->failed = true;
    } else if ((uint64_t)p->width * (uint64_t)p->height > lim->max_pixels) {
        snprintf(r->err, r->errlen, "%s: %s of %" PRId32 " x %" PRId32 " pixels exceeds the "
                 "limit of %" PRIu64 " pixels", r->what, what, p->width, p->height,
                 lim->max_pixels);
        r->failed = true;
    } else if (tile && (p->x < 0 || p->y < 0 || (int64_t)p->x + p->width > INT32_MAX ||
                        (int64_t)p->y + p->height > INT32_MAX)) {
        snprintf(r->err, r->errlen, "%s: tile origin %" PRId32 ", %" PRId32 " is negative or "
                 "the tile ends past 2^31", r->what, p->x, p->y);
        r->failed = true;
    }
}

static void rd_channel_names(reader *r, tev_packet *p)
{
    for (int32_t c = 0; c < p->channel_count && !r->failed; c++)
        p->channels[c] = rd_str(r, "a channel name");
}

/* Checks that channel C's floats offsets[c] + i * strides[c], i < w*h, lie in the data. */
static void check_channel_span(reader *r, const tev_packet *p, int c)
{
    int64_t off = p->offsets[c], stride = p->strides[c];
    int64_t last_i = (int64_t)p->width * p->height - 1;
    int64_t avail = (int64_t)p->data_floats;
    char name[48];
    tev_printable(p->channels[c], 40, name, sizeof name);
    bool overflow = stride == INT64_MIN ||
                    (last_i > 0 && (stride < 0 ? -stride : stride) > INT64_MAX / last_i);
    int64_t last = 0;
    if (!overflow) {
        int64_t step = stride * last_i;
        overflow = (step > 0 && off > INT64_MAX - step) || (step < 0 && off < INT64_MIN - step);
        last = overflow ? 0 : off + step;
    }
    if (overflow) {
        snprintf(r->err, r->errlen, "%s: channel %d ('%s'): offset %" PRId64 " + %" PRId64
                 " x stride %" PRId64 " overflows", r->what, c, name, off, last_i, stride);
        r->failed = true;
    } else if (off < 0 || off >= avail || last < 0 || last >= avail) {
        snprintf(r->err, r->errlen, "%s: channel %d ('%s') reads floats %" PRId64 " to %"
                 PRId64 " (offset %" PRId64 ", stride %" PRId64 "), outside the %" PRId64
                 " floats of data", r->what, c, name, off, last, off, stride, avail);
        r->failed = true;
    }
}

static void parse_update(reader *r, tev_packet *p, const tev_limits *lim)
{
    p->grab_focus = rd_bool(r, "the grab-focus flag");
    p->name = rd_str(r, "the image name");
    p->channel_count = p->type == TEV_UPDATE_IMAGE_V1
                           ? 1 : rd_count(r, "channel count", TEV_MAX_CHANNELS, false);
    rd_channel_names(r, p);
    p->x = rd_i32(r, "the tile x");
    p->y = rd_i32(r, "the tile y");
    p->width = rd_i32(r, "the tile width");
    p->height = rd_i32(r, "the tile height");
    check_size(r, p, lim, true);
    if (r->failed)
        return;
    int64_t pixels = (int64_t)p->width * p->height;
    for (int32_t c = 0; c < p->channel_count; c++) {
        if (p->type == TEV_UPDATE_IMAGE)
            continue;
        p->offsets[c] = c * pixels;
        p->strides[c] = 1;
    }
    if (p->type == TEV_UPDATE_IMAGE) {
        for (int32_t c = 0; c < p->channel_count; c++)
            p->offsets[c] = rd_i64(r, "the channel offsets");
        for (int32_t c = 0; c < p->channel_count; c++)
            p->strides[c] = rd_i64(r, "the channel strides");
    }
    if (r->failed)
        return;
    p->data = r->b + r->pos;
    p->data_floats = (r->size - r->pos) / 4;
    for (int32_t c = 0; c < p->channel_count && !r->failed; c++)
        check_channel_span(r, p, c);
}

/* Reads the command at R's position (validating it) into *cmd when CMD is not NULL. */
static void rd_vg_command(reader *r, tev_vg_command *cmd)
{
    const uint8_t *t = take(r, 1, "a vector-graphics command type");
    if (!t)
        return;
    int type = (int8_t)*t;
    if (type < 0 || type >= VG_TYPES) {
        snprintf(r->err, r->errlen, "%s: unknown vector-graphics command type %d at byte %zu",
                 r->what, type, r->pos - 1);
        r->failed = true;
        return;
    }
    const uint8_t *v = take(r, (size_t)VG_FLOATS[type] * 4, "a vector-graphics command");
    tev_str text = {"", 0};
    if (type == VG_TEXT || type == VG_FONT_FACE)
        text = rd_str(r, "a vector-graphics string");
    if (r->failed || !cmd)
        return;
    cmd->type = type;
    cmd->float_count = VG_FLOATS[type];
    for (int k = 0; k < cmd->float_count; k++) {
        uint32_t u = le32(v + 4 * k);
        memcpy(&cmd->values[k], &u, 4);
    }
    cmd->text = text;
}

static void parse_vector_graphics(reader *r, tev_packet *p)
{
    p->grab_focus = rd_bool(r, "the grab-focus flag");
    p->name = rd_str(r, "the image name");
    p->append = rd_bool(r, "the append flag");
    p->command_count = rd_count(r, "command count", INT32_MAX, true);
    size_t start = r->pos;
    for (int32_t k = 0; k < p->command_count && !r->failed; k++)
        rd_vg_command(r, NULL);
    if (!r->failed) {
        p->commands = r->b + start;
        p->commands_size = r->pos - start;
    }
}

/* OpenImage V1 carries "PATH:SELECTOR"; a colon right after a drive letter ("C:/...") is part
 * of the path, as tev reads it. */
static void split_v1_path(tev_packet *p)
{
    const char *s = p->name.p;
    size_t n = p->name.len, colon = n;
    for (size_t i = n; i-- > 0;)
        if (s[i] == ':') {
            colon = i;
            break;
        }
    if (colon == n || (colon == 1 && n >= 3 && (s[2] == '\\' || s[2] == '/')))
        return;
    p->selector.p = s + colon + 1;
    p->selector.len = n - colon - 1;
    p->name.len = colon;
}

bool tev_check_length(const uint8_t *bytes, size_t avail, const tev_limits *lim,
                      uint32_t *len, char *err, size_t errlen)
{
    if (avail < 4) {
        snprintf(err, errlen, "packet of %zu bytes has no length field", avail);
        return false;
    }
    *len = le32(bytes);
    if (*len < TEV_HEADER_BYTES) {
        snprintf(err, errlen, "packet length field %" PRIu32 " is shorter than the %d-byte "
                 "header", *len, TEV_HEADER_BYTES);
        return false;
    }
    if (*len > lim->max_packet) {
        snprintf(err, errlen, "packet length field %" PRIu32 " exceeds the limit of %zu bytes",
                 *len, lim->max_packet);
        return false;
    }
    return true;
}

bool tev_parse(const uint8_t *bytes, size_t size, const tev_limits *lim, tev_packet *out,
               char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint32_t len;
    if (!tev_check_length(bytes, size, lim, &len, err, errlen))
        return false;
    if (len != size) {
        snprintf(err, errlen, "packet length field %" PRIu32 " does not match the %zu bytes "
                 "received", len, size);
        return false;
    }
    char tbuf[48];
    reader r = {bytes, size, TEV_HEADER_BYTES, tev_type_name(bytes[4], tbuf, sizeof tbuf),
                err, errlen, false};
    tev_packet *p = out;
    p->type = (tev_packet_type)bytes[4];
    p->name = p->selector = (tev_str){"", 0};
    switch (bytes[4]) {
    case TEV_OPEN_IMAGE_V1:
    case TEV_OPEN_IMAGE:
        p->grab_focus = rd_bool(&r, "the grab-focus flag");
        p->name = rd_str(&r, "the image path");
        if (p->type == TEV_OPEN_IMAGE)
            p->selector = rd_str(&r, "the channel selector");
        else if (!r.failed)
            split_v1_path(p);
        break;
    case TEV_RELOAD_IMAGE:
        p->grab_focus = rd_bool(&r, "the grab-focus flag");
        /* fall through */
    case TEV_CLOSE_IMAGE:
        p->name = rd_str(&r, "the image name");
        break;
    case TEV_CREATE_IMAGE:
        p->grab_focus = rd_bool(&r, "the grab-focus flag");
        p->name = rd_str(&r, "the image name");
        p->width = rd_i32(&r, "the image width");
        p->height = rd_i32(&r, "the image height");
        check_size(&r, p, lim, false);
        p->channel_count = rd_count(&r, "channel count", TEV_MAX_CHANNELS, false);
        rd_channel_names(&r, p);
        break;
    case TEV_UPDATE_IMAGE_V1:
    case TEV_UPDATE_IMAGE_V2:
    case TEV_UPDATE_IMAGE:
        parse_update(&r, p, lim);
        break;
    case TEV_VECTOR_GRAPHICS:
        parse_vector_graphics(&r, p);
        break;
    default:
        snprintf(err, errlen, "%s (%zu bytes)", r.what, size);
        r.failed = true;
    }
    if (r.failed)
        memset(out, 0, sizeof *out);
    return !r.failed;
}

float tev_sample(const tev_packet *p, int c, size_t pixel)
{
    size_t i = (size_t)(p->offsets[c] + (int64_t)pixel * p->strides[c]);
    uint32_t u = le32(p->data + 4 * i);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

size_t tev_vg_command_at(const tev_packet *p, size_t pos, tev_vg_command *cmd)
{
    char err[8];
    reader r = {p->commands, p->commands_size, pos, "", err, sizeof err, false};
    memset(cmd, 0, sizeof *cmd);
    cmd->text = (tev_str){"", 0};
    rd_vg_command(&r, cmd);
    return r.failed ? p->commands_size : r.pos;
}

/* ---- writing ---- */

typedef struct writer {
    uint8_t *b;
    size_t size, cap;
    bool failed;
} writer;

static void put(writer *w, const void *src, size_t n)
{
    if (w->failed)
        return;
    if (n > UINT32_MAX - w->size) {
        w->failed = true;
        return;
    }
    if (w->size + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->size + n)
            cap *= 2;
        uint8_t *b = realloc(w->b, cap);
        if (!b) {
            w->failed = true;
            return;
        }
        w->b = b;
        w->cap = cap;
    }
    if (n)
        memcpy(w->b + w->size, src, n);
    w->size += n;
}

static void put_u8(writer *w, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(w, &b, 1);
}

static void put_u32(writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

static void put_u64(writer *w, uint64_t v)
{
    put_u32(w, (uint32_t)v);
    put_u32(w, (uint32_t)(v >> 32));
}

static void put_str(writer *w, tev_str s)
{
    put(w, s.p, s.len);
    put_u8(w, 0);
}

static void put_update(writer *w, const tev_packet *p)
{
    put_u8(w, p->grab_focus);
    put_str(w, p->name);
    if (p->type != TEV_UPDATE_IMAGE_V1)
        put_u32(w, (uint32_t)p->channel_count);
    for (int32_t c = 0; c < p->channel_count; c++)
        put_str(w, p->channels[c]);
    put_u32(w, (uint32_t)p->x);
    put_u32(w, (uint32_t)p->y);
    put_u32(w, (uint32_t)p->width);
    put_u32(w, (uint32_t)p->height);
    if (p->type == TEV_UPDATE_IMAGE) {
        for (int32_t c = 0; c < p->channel_count; c++)
            put_u64(w, (uint64_t)p->offsets[c]);
        for (int32_t c = 0; c < p->channel_count; c++)
            put_u64(w, (uint64_t)p->strides[c]);
    }
    if (p->data_floats > UINT32_MAX / 4)
        w->failed = true;
    else
        put(w, p->data, p->data_floats * 4);
}

bool tev_serialize(const tev_packet *p, uint8_t **bytes, size_t *size, char *err,
                   size_t errlen)
{
    *bytes = NULL;
    *size = 0;
    char tbuf[48];
    if (p->channel_count < 0 || p->channel_count > TEV_MAX_CHANNELS ||
        (p->type == TEV_UPDATE_IMAGE_V1 && p->channel_count != 1)) {
        snprintf(err, errlen, "%s: cannot encode %" PRId32 " channels",
                 tev_type_name(p->type, tbuf, sizeof tbuf), p->channel_count);
        return false;
    }
    writer w = {NULL, 0, 0, false};
    put_u32(&w, 0);
    put_u8(&w, (unsigned)p->type);
    switch (p->type) {
    case TEV_OPEN_IMAGE_V1:
    case TEV_OPEN_IMAGE:
        put_u8(&w, p->grab_focus);
        if (p->type == TEV_OPEN_IMAGE) {
            put_str(&w, p->name);
            put_str(&w, p->selector);
        } else {
            /* A path with a colon needs the separator even before an empty selector. */
            put(&w, p->name.p, p->name.len);
            if (p->selector.len || (p->name.len && memchr(p->name.p, ':', p->name.len)))
                put(&w, ":", 1);
            put_str(&w, p->selector);
        }
        break;
    case TEV_RELOAD_IMAGE:
        put_u8(&w, p->grab_focus);
        /* fall through */
    case TEV_CLOSE_IMAGE:
        put_str(&w, p->name);
        break;
    case TEV_CREATE_IMAGE:
        put_u8(&w, p->grab_focus);
        put_str(&w, p->name);
        put_u32(&w, (uint32_t)p->width);
        put_u32(&w, (uint32_t)p->height);
        put_u32(&w, (uint32_t)p->channel_count);
        for (int32_t c = 0; c < p->channel_count; c++)
            put_str(&w, p->channels[c]);
        break;
    case TEV_UPDATE_IMAGE_V1:
    case TEV_UPDATE_IMAGE_V2:
    case TEV_UPDATE_IMAGE:
        put_update(&w, p);
        break;
    case TEV_VECTOR_GRAPHICS:
        put_u8(&w, p->grab_focus);
        put_str(&w, p->name);
        put_u8(&w, p->append);
        put_u32(&w, (uint32_t)p->command_count);
        put(&w, p->commands, p->commands_size);
        break;
    default:
        snprintf(err, errlen, "cannot encode a %s", tev_type_name(p->type, tbuf, sizeof tbuf));
        free(w.b);
        return false;
    }
    if (w.failed) {
        snprintf(err, errlen, "%s: out of memory or over 4 GiB",
                 tev_type_name(p->type, tbuf, sizeof tbuf));
        free(w.b);
        return false;
    }
    uint32_t n = (uint32_t)w.size;
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    memcpy(w.b, len, 4);
    *bytes = w.b;
    *size = w.size;
    return true;
}

/* ---- channel names to R, G, B, A ---- */

typedef struct name_list {
    const char *const *names;
    const size_t *lens;
    int n;
} name_list;

static size_t name_len(const name_list *l, int i)
{
    return l->lens ? l->lens[i] : strlen(l->names[i]);
}

/* Bytes before the last '.' of channel I (its layer), 0 for none. */
static size_t layer_len_of(const name_list *l, int i)
{
    size_t n = name_len(l, i);
    for (size_t k = n; k-- > 0;)
        if (l->names[i][k] == '.')
            return k;
    return 0;
}

static bool in_layer_of(const name_list *l, int i, const char *layer)
{
    size_t ll = layer_len_of(l, i);
    return ll == strlen(layer) && memcmp(l->names[i], layer, ll) == 0;
}

/* Channel LAYER.SUF (SUF alone for layer ""), -1 when absent. */
static int find_channel(const name_list *l, const char *layer, const char *suf)
{
    for (int i = 0; i < l->n; i++) {
        size_t ll = layer_len_of(l, i), start = ll ? ll + 1 : 0;
        size_t sl = name_len(l, i) - start;
        if (in_layer_of(l, i, layer) && sl == strlen(suf) &&
            memcmp(l->names[i] + start, suf, sl) == 0)
            return i;
    }
    return -1;
}

static bool has_colour(const name_list *l, const char *layer)
{
    return find_channel(l, layer, "R") >= 0 || find_channel(l, layer, "G") >= 0 ||
           find_channel(l, layer, "B") >= 0 || find_channel(l, layer, "Y") >= 0;
}

/* The default layer: see tev_channel_map_make. */
static void default_layer(const name_list *l, char layer[64])
{
    layer[0] = '\0';
    if (has_colour(l, ""))
        return;
    bool plain = false;
    for (int i = 0; i < l->n; i++) {
        size_t ll = layer_len_of(l, i);
        plain = plain || !ll;
        if (ll && ll < 64) {
            memcpy(layer, l->names[i], ll);
            layer[ll] = '\0';
            if (has_colour(l, layer))
                return;
        }
    }
    size_t ll = plain ? 0 : layer_len_of(l, 0);
    ll = ll < 64 ? ll : 0;
    memcpy(layer, l->names[0], ll);
    layer[ll] = '\0';
}

/* Fills map->source for the fallback (no R, G, B or Y): up to three channels of the layer. */
static void map_fallback(const name_list *l, tev_channel_map *m)
{
    int got[3], n = 0;
    for (int i = 0; i < l->n && n < 3; i++)
        if (in_layer_of(l, i, m->layer))
            got[n++] = i;
    char s[3][24];
    for (int k = 0; k < n; k++)
        tev_printable((tev_str){l->names[got[k]], name_len(l, got[k])}, 16, s[k], sizeof s[k]);
    m->rgba[3] = -1;
    if (n == 1) {
        m->grey = true;
        m->rgba[0] = got[0];
        snprintf(m->source, sizeof m->source, "%s as grey", s[0]);
        return;
    }
    for (int k = 0; k < n; k++)
        m->rgba[k] = got[k];
    if (n == 2)
        snprintf(m->source, sizeof m->source, "%s,%s as R,G (B=0)", s[0], s[1]);
    else
        snprintf(m->source, sizeof m->source, "%s,%s,%s as R,G,B", s[0], s[1], s[2]);
}

bool tev_channel_map_make(const char *const *names, const size_t *lens, int n,
                          const char *layer, tev_channel_map *map, char *err, size_t errlen)
{
    memset(map, 0, sizeof *map);
    for (int k = 0; k < 4; k++)
        map->rgba[k] = -1;
    name_list l = {names, lens, n};
    if (n <= 0) {
        snprintf(err, errlen, "no channels");
        return false;
    }
    if (layer) {
        snprintf(map->layer, sizeof map->layer, "%s", layer);
        size_t ll = strlen(map->layer);
        if (ll && map->layer[ll - 1] == '.')
            map->layer[ll - 1] = '\0';
        bool any = false;
        for (int i = 0; i < n && !any; i++)
            any = in_layer_of(&l, i, map->layer);
        if (!any) {
            char shown[48];
            snprintf(err, errlen, "no layer '%s'",
                     tev_printable((tev_str){map->layer, strlen(map->layer)}, 40, shown,
                                   sizeof shown));
            return false;
        }
    } else {
        default_layer(&l, map->layer);
    }
    char pre[48] = "";
    if (map->layer[0]) {
        tev_printable((tev_str){map->layer, strlen(map->layer)}, 36, pre, sizeof pre - 1);
        strcat(pre, ".");
    }
    static const char *const sufs[4] = {"R", "G", "B", "A"};
    for (int k = 0; k < 4; k++)
        map->rgba[k] = find_channel(&l, map->layer, sufs[k]);
    int y = find_channel(&l, map->layer, "Y");
    if (map->rgba[0] >= 0 || map->rgba[1] >= 0 || map->rgba[2] >= 0) {
        snprintf(map->source, sizeof map->source, "%.37sR,%.37sG,%.37sB", pre, pre, pre);
    } else if (y >= 0) {
        map->grey = true;
        map->rgba[0] = y;
        snprintf(map->source, sizeof map->source, "%sY (R=G=B=Y)", pre);
    } else {
        map_fallback(&l, map);
    }
    return true;
}
