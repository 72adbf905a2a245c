/* tev's network protocol: packets as renderers (pbrt-v4 --display-server, tev's client
 * libraries) send them to an image viewer over TCP. Every packet is
 *     [uint32 total length, header included][uint8 type][payload]
 * little-endian; strings are NUL-terminated, booleans one byte, floats IEEE single. This file
 * parses bytes into a tev_packet (validating every field against limits), writes packets
 * back to bytes, and maps channel names to the R, G, B, A of a displayed image. No sockets. */
#ifndef HT_TEV_PROTO_H
#define HT_TEV_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEV_DEFAULT_HOST "127.0.0.1"
#define TEV_DEFAULT_PORT 14158

/* Bytes of [length][type] before the payload. */
#define TEV_HEADER_BYTES 5

/* Most channels a CreateImage or UpdateImage packet may name (tev has no limit; renderers
 * send a few dozen at most: colour plus AOVs). */
#define TEV_MAX_CHANNELS 128

/* Packet types as on the wire. 0, 3 and 5 are older layouts tev still accepts. */
typedef enum tev_packet_type {
    TEV_OPEN_IMAGE_V1 = 0,    /* grab focus, "PATH[:CHANNEL_SELECTOR]" in one string */
    TEV_RELOAD_IMAGE = 1,     /* grab focus, name */
    TEV_CLOSE_IMAGE = 2,      /* name */
    TEV_UPDATE_IMAGE_V1 = 3,  /* grab focus, name, one channel name, x y w h, w*h floats */
    TEV_CREATE_IMAGE = 4,     /* grab focus, name, w h, n, n channel names */
    TEV_UPDATE_IMAGE_V2 = 5,  /* as 3 with n channels, data planar (channel c at c*w*h) */
    TEV_UPDATE_IMAGE = 6,     /* as 5 plus int64 offset[n] and stride[n], in floats */
    TEV_OPEN_IMAGE = 7,       /* grab focus, path, channel selector */
    TEV_VECTOR_GRAPHICS = 8,  /* grab focus, name, append, n, n commands */
} tev_packet_type;

/* A string inside the parsed bytes: LEN bytes at P, no NUL among them (print with %.*s). */
typedef struct tev_str {
    const char *p;
    size_t len;
} tev_str;

/* A parsed packet. Strings and data point into the bytes given to tev_parse, which must
 * outlive it; nothing is allocated. Fields a type does not carry are zero. */
typedef struct tev_packet {
    tev_packet_type type;
    bool grab_focus;
    tev_str name;                 /* image name; the file path of OpenImage */
    tev_str selector;             /* OpenImage's channel selector ("" when none) */
    int32_t width, height;        /* CreateImage: image size; UpdateImage: tile size */
    int32_t x, y;                 /* UpdateImage: tile origin */
    int32_t channel_count;        /* CreateImage, UpdateImage: 1..TEV_MAX_CHANNELS */
    tev_str channels[TEV_MAX_CHANNELS];
    /* UpdateImage: pixel i (row-major in the tile) of channel c is float number
     * offsets[c] + i * strides[c] of the data (checked to lie inside it). Layouts 3 and 5
     * get the planar offsets c*w*h and stride 1. */
    int64_t offsets[TEV_MAX_CHANNELS];
    int64_t strides[TEV_MAX_CHANNELS];
    const uint8_t *data;          /* UpdateImage: little-endian floats, not aligned */
    size_t data_floats;           /* whole floats in the data section */
    bool append;                  /* VectorGraphics: add to the image's commands */
    int32_t command_count;        /* VectorGraphics, each validated */
    const uint8_t *commands;      /* VectorGraphics: the encoded commands ... */
    size_t commands_size;         /* ... and their bytes */
} tev_packet;

/* What a parser accepts. */
typedef struct tev_limits {
    uint64_t max_pixels;          /* largest CreateImage size and UpdateImage tile (w*h) */
    size_t max_packet;            /* largest length field; see tev_max_packet */
} tev_limits;

/* The max_packet that fits an UpdateImage tile of MAX_PIXELS pixels with 4 float channels
 * plus room for names and headers, capped at the largest uint32 (the length field's type). */
size_t tev_max_packet(uint64_t max_pixels);

/* Checks the length field of a packet whose first AVAIL (>= 4) bytes are at BYTES: its total
 * length goes to *len. Returns false with a message when the length is shorter than the
 * header or longer than lim->max_packet, so a stream can be refused before it is buffered. */
bool tev_check_length(const uint8_t *bytes, size_t avail, const tev_limits *lim,
                      uint32_t *len, char *err, size_t errlen);

/* Parses one whole packet: SIZE bytes at BYTES, which must equal its length field. Every
 * field is checked (lengths, terminated strings, sizes and their products against LIM,
 * offsets and strides inside the data, known types); on failure returns false with one line
 * naming the packet type and the field, and *out is zeroed. Never reads outside BYTES. */
bool tev_parse(const uint8_t *bytes, size_t size, const tev_limits *lim, tev_packet *out,
               char *err, size_t errlen);

/* Float PIXEL (row-major in the tile) of channel C of a parsed UpdateImage. */
float tev_sample(const tev_packet *p, int c, size_t pixel);

/* Writes P as bytes: a malloc'd buffer in *bytes, its size in *size (the caller frees it).
 * UpdateImage writes p->data_floats floats from p->data, offsets and strides as given (in
 * layouts 3 and 5 they are implied); VectorGraphics writes p->commands as given; OpenImage V1
 * joins name and selector with ':'. Returns false with a message when P cannot be encoded
 * (too many channels, a packet over 4 GiB, no memory). */
bool tev_serialize(const tev_packet *p, uint8_t **bytes, size_t *size, char *err,
                   size_t errlen);

/* One VectorGraphics command. */
typedef struct tev_vg_command {
    int type;                     /* tev's command number (0..25) */
    int float_count;              /* 0..8 */
    float values[8];
    tev_str text;                 /* Text and FontFace commands; empty otherwise */
} tev_vg_command;

/* Decodes the command at byte POS of a parsed VectorGraphics packet into *cmd and returns
 * the position of the next one (p->commands_size after the last). */
size_t tev_vg_command_at(const tev_packet *p, size_t pos, tev_vg_command *cmd);

/* Name of a packet type, "type 42" style for unknown ones (static or BUF storage). */
const char *tev_type_name(int type, char *buf, size_t len);

/* Which of N channel names make R, G, B and A, as the EXR loader picks a layer: LAYER ""
 * = the un-prefixed channels (R, G, B, A, Y), "diffuse" = diffuse.R, diffuse.G...; NULL =
 * the un-prefixed layer when it has R, G, B or Y, else the first layer that has them, else
 * the un-prefixed channels, else the first layer. Y alone is grey (R=G=B=Y); a layer without
 * R, G, B or Y shows its first channel as grey or its first two or three as R, G(, B).
 * Channels absent from the map are -1 (colour then reads 0 and alpha 1). */
typedef struct tev_channel_map {
    int rgba[4];                  /* channel index of R, G, B, A, or -1 */
    bool grey;                    /* one channel fills R, G and B (rgba[0] = its index) */
    char layer[64];               /* the layer chosen ("" = un-prefixed) */
    char source[128];             /* how R,G,B were formed, e.g. "diffuse.R,diffuse.G,..." */
} tev_channel_map;

/* Fills *map for NAMES[0..N-1] (each LENS[i] bytes, or NUL-terminated when LENS is NULL).
 * Returns false with a message when LAYER names no channel or N is 0. */
bool tev_channel_map_make(const char *const *names, const size_t *lens, int n,
                          const char *layer, tev_channel_map *map, char *err, size_t errlen);

/* Copies S into BUF (LEN bytes) for a message: at most MAX characters, control and
 * non-ASCII bytes as '?', "..." when cut. Returns BUF. */
const char *tev_printable(tev_str s, size_t max, char *buf, size_t len);

#endif
