/* OpenEXR structure validation: the loader's security boundary (exr_validate.c).
 *
 * No decoder sees a byte of an OpenEXR file before exr_validate has walked it: every header of
 * every part, the chunk offset tables and each chunk's own header, against the OpenEXR file
 * layout and against what tinyexr needs (tinyexr trusts its input). It needs no decoder, so
 * tests/fuzz/fuzz_exr_header.c fuzzes it alone. Not part of the public interface. */
#ifndef HT_EXR_VALIDATE_H
#define HT_EXR_VALIDATE_H

#include "image_internal.h"

enum { EXR_UINT = 0, EXR_HALF = 1, EXR_FLOAT = 2 };

/* Compression ids of the OpenEXR file layout that the loader treats apart. */
enum { EXR_NO_COMPRESSION = 0, EXR_PIZ = 4, EXR_DWAA = 8, EXR_DWAB = 9 };

typedef struct exr_chan {
    const char *name;  /* points into the file data (NUL-terminated, checked) */
    int type;          /* EXR_UINT, EXR_HALF, EXR_FLOAT */
    int xs, ys;        /* sampling */
} exr_chan;

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
    bool has_adopted;
    float adopted[2];         /* "adoptedNeutral" x,y: the white rendered neutral */
    float white_luminance;    /* "whiteLuminance" (cd/m^2 of RGB 1,1,1); 0 when absent */
    bool needs_core;          /* tinyexr cannot decode it (compression or sampling) */
    size_t header_pos;        /* where its header's first attribute starts in the file */
} exr_part_info;

/* A validated file: its parts, in file order. */
typedef struct exr_file {
    exr_part_info *parts; /* nparts entries, owned */
    int nparts;
    bool multipart;
} exr_file;

/* Validates the OpenEXR file DATA (SIZE bytes). On success fills *F (the part descriptions
 * point into DATA, which must outlive them; free with exr_file_free) and returns true: every
 * chunk then lies inside the file, claims a size that fits its pixels and carries coordinates
 * inside its part, and every part has only features that tinyexr decodes correctly or that
 * needs_core marks for OpenEXRCore (what stays unchecked is the inside of compressed chunk
 * data). On failure returns false, leaves *F empty and writes the reason, without a path, to
 * WHY (WL bytes). Never aborts, whatever the bytes. */
bool exr_validate(const uint8_t *data, size_t size, exr_file *f, char *why, size_t wl);

/* Frees what exr_validate filled and empties *F. Accepts an empty or already freed file. */
void exr_file_free(exr_file *f);

/* Scanlines per chunk of a scanline part of compression id C (OpenEXR file layout). */
int exr_lines_per_chunk(int c);
/* "PIZ" for compression id 4; NULL for an unknown id. */
const char *exr_compression_name(int c);

/* NAME (untrusted bytes) for a message: printable ASCII only, at most 40 characters, in OUT. */
const char *exr_printable(const char *name, char out[44]);

#endif
