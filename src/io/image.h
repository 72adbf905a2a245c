/* hdr_image: a decoded scene-referred image, and loading by content. */
#ifndef HT_IMAGE_H
#define HT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a loader may put an image's half floats instead of the pool (image_load_options.half_alloc):
 * the GPU layer's persistently mapped upload buffers, which the decoder then writes straight
 * into. Both functions are called from any thread. */
typedef struct image_allocator {
    void *(*get)(void *ctx, size_t bytes); /* a buffer of BYTES, or NULL (none free: the pool) */
    void (*put)(void *ctx, void *p);       /* gives back what get returned */
    void *ctx;
} image_allocator;

/* A load's progress (image_load_options.progress), for a viewer showing rows as they land:
 * rows(ctx, half, width, done, height) says that the first DONE of the HEIGHT rows of HALF
 * (WIDTH x HEIGHT x 4 half floats, the buffer the image will own) are final. Called on the
 * loading thread, DONE growing, the last call with DONE = HEIGHT (never for a load that
 * fails); only by the OpenEXR decoders straight to half floats: the C++ library's of colour
 * views (PIZ, DWA: it then decodes in bands of rows, each on all its threads) and
 * OpenEXRCore's of colour and grey views (the rest: it tells the whole chunks decoded from the
 * top about every sixteenth of the image); other loads never call it. */
typedef struct image_progress {
    void (*rows)(void *ctx, const uint16_t *half, int width, int done, int height);
    void *ctx;
} image_progress;

/* Where an image's colour space came from (stats' colorspace.source: colour_source_name). */
enum {
    IMAGE_COLOUR_DEFAULT = 0,         /* none said: the format's default (Rec. 709, D65) */
    IMAGE_COLOUR_CHROMATICITIES = 1,  /* OpenEXR chromaticities, Radiance PRIMARIES= / XYZE */
    IMAGE_COLOUR_ADOPTED_NEUTRAL = 2, /* chromaticities with OpenEXR's adoptedNeutral */
    IMAGE_COLOUR_ICC = 3,             /* an ICC profile (the pixels converted by it) */
    IMAGE_COLOUR_CICP = 4,            /* coding-independent code points (PNG cICP, ...) */
    IMAGE_COLOUR_OPTION = 5,          /* --colorspace */
};

/* The colour space of an image's R, G, B as its file declares it (colour.h turns it into
 * matrices). Zeroed = the default: Rec. 709 primaries, D65. */
typedef struct image_colour {
    double xy[4][2];          /* chromaticities x, y of R, G, B and the encoding's white */
    double adopted[2];        /* the white rendered neutral (OpenEXR adoptedNeutral; the white
                                 of a space that is white-balanced by convention, such as
                                 Radiance's); 0, 0 = none: absolute colorimetric */
    int source;               /* IMAGE_COLOUR_* */
    char name[32];            /* the named space (colour_spaces) it equals, "" = none */
} image_colour;

/* The primaries and white of C (R, G, B, white): the default's when C's are all zero. */
const double (*image_colour_xy(const image_colour *c))[2];

/* Whether C describes a usable space: every value finite, the white's y > 0, the primaries
 * not collinear, the white inside their triangle, an adoptedNeutral (if any) a chromaticity.
 * False with the reason in WHY ("the chromaticities ... are degenerate ..."). Every loader's
 * tags pass it (image_load refuses the file otherwise). */
bool image_colour_check(const image_colour *c, char *why, size_t wl);

/* The luminance weights of space C: the Y row of its RGB->XYZ; BT.709's own 0.2126, 0.7152,
 * 0.0722 for Rec. 709 (exr-samples/README.md's; also for degenerate tags, which image_load
 * refuses). */
void image_colour_weights(const image_colour *c, double w[3]);

/* The RGB->XYZ matrix (3x3 row-major, Y of RGB 1,1,1 = 1) of primaries and white XY (R, G,
 * B, white); false when degenerate (image_colour_check's reasons). */
bool image_rgb_to_xyz(const double xy[4][2], double m[9]);

/* 3x3 row-major helpers: OUT = the inverse of M (false, OUT unset, when singular); OUT = M V;
 * the XYZ of a white of chromaticity XY with Y = 1. */
bool image_mat3_inverse(const double m[9], double out[9]);
void image_mat3_vec(const double m[9], const double v[3], double out[3]);
void image_white_xyz(const double xy[2], double out[3]);

/* One metadata entry of a file (stats --json's "metadata", the viewer's Metadata panel). */
typedef struct image_meta {
    char *key;                /* "exr:owner", "Exif:ExposureTime", "icc:description", ...; owned */
    char *value;              /* as text, folded (image_meta_add); owned */
} image_meta;

/* Values longer than this are folded: their first bytes, " ... (N bytes)". */
#define IMAGE_META_FOLD 240

/* What decoding a file costs a core, by its codec (measured on one core, a 4K frame:
 * uncompressed EXR 2 ns a pixel, DWAA 5; PIZ 11, ZIP 19): how batch export shares the cores
 * among the decodes (batch.c, decode_regime). COSTLY, the zero, unless the reader knows its
 * codec measured cheap. */
typedef enum { IMAGE_DECODE_COSTLY = 0, IMAGE_DECODE_CHEAP } image_decode_cost;

typedef struct hdr_image {
    int width, height;        /* of the data window (the pixels held) */
    float *rgba;              /* width*height*4 floats, row-major, top row first; owned (may be
                                 NULL after image_add_half dropped it) */
    uint16_t *half;           /* the same pixels as IEEE half floats (image_add_half), for the
                                 GPU, or NULL; owned */
    int data_window[4];       /* x0, y0, x1, y1, inclusive, absolute pixel coordinates */
    int display_window[4];    /* x0, y0, x1, y1, inclusive */
    bool half_exact;          /* every value is exactly representable as a half float
                                 (EXR half channels): the GPU may store it as RGBA16F */
    char format[16];          /* "OpenEXR", "Radiance" */
    char channels[128];       /* as in the file, e.g. "A,B,G,R (half)" */
    char compression[32];     /* e.g. "PIZ", "RLE" */
    image_decode_cost decode_cost; /* of that compression (set by the EXR reader) */
    char rgb_source[192];     /* how R,G,B were formed, e.g. "R,G,B", "Y (R=G=B=Y)" */
    /* Parts and layers (OpenEXR; a single part 0 for other formats). */
    int part;                 /* index of the part held */
    int part_count;           /* parts in the file */
    char part_name[64];       /* the held part's "name" attribute, "" when none */
    char layer[64];           /* layer held: channel-name prefix without its dot, "" = none */
    struct hdr_part_info *parts; /* part_count entries describing every part, owned; may be
                                    NULL (then only the fields above describe the file) */
    double exposure;          /* Radiance EXPOSURE product already divided out (1 = none) */
    double white_luminance;   /* OpenEXR "whiteLuminance" of the part: cd/m^2 of RGB 1,1,1
                                 (0 = absent); units.h turns it into the image's units */
    const image_allocator *half_alloc; /* where half came from, NULL = the pool */
    image_colour colour;      /* what R, G, B mean (all zero: Rec. 709, D65, by default) */
    image_meta *meta;         /* meta_count entries in the file's order, owned; may be NULL */
    int meta_count;
    uint8_t *icc;             /* the embedded ICC profile's bytes, icc_size long (the pixels
                                 were converted through it where it ruled: colour.source
                                 IMAGE_COLOUR_ICC); owned; NULL = none */
    size_t icc_size;
    char decoder[16];         /* what decoded the pixels: "OpenEXR" (the C++ library, straight
                                 to half), "OpenEXRCore" (straight to half for a half view,
                                 else to floats), "OpenEXR RGBA", "tinyexr", "" (no EXR) */
} hdr_image;

/* One part of a (multi-part) file, for listings. */
typedef struct hdr_part_info {
    char name[64];            /* "name" attribute, "" when none */
    char type[16];            /* "scanline", "tiled" */
    char compression[16];
    int data_window[4];
    char channels[256];       /* all channels, grouped by type: "A,B,G,R (half)" */
    char layers[192];         /* comma-separated layers: "(none)" for un-prefixed channels,
                                 then prefixes such as "forward", "disparityL" */
} hdr_part_info;

/* What to load from a file with several images in it, and how much to accept. */
typedef struct image_load_options {
    const char *part;         /* "N" (index) or a part name; NULL = part 0 */
    const char *layer;        /* channel-name prefix ("diffuse" for diffuse.R); "" = the
                                 un-prefixed channels; NULL = default (un-prefixed R,G,B or Y
                                 when present, else the first layer with R,G,B or Y) */
    uint64_t max_pixels;      /* refuse larger images before allocating; 0 = default */
    bool rgbe_mid;            /* Radiance .hdr: each mantissa at the middle of its step,
                                 (m + 0.5) 2^(e-136), as Radiance's own programs decode;
                                 false: m 2^(e-136), as Ward's rgbe.c and stb_image */
    int threads;              /* threads decoding the one file: 0 = one per online CPU, 1 = the
                                 calling thread alone; at most HT_MAX_LOAD_THREADS are used.
                                 The pixels are the same whatever the count. */
    bool half_only;           /* a half_exact image comes back as img->half alone (rgba NULL),
                                 decoded straight to half floats where its decoder can: what
                                 the GPU uploads; image_add_floats derives the floats */
    const image_allocator *half_alloc; /* with half_only: where to decode the half floats
                                 (NULL, or when it has none: the pool); must outlive the image */
    int decoder;              /* image_decoder: the OpenEXR decoder wanted (tests, bench
                                 --decode); one that cannot read the file is not used */
    image_colour colour;      /* with source IMAGE_COLOUR_OPTION: the image's colour space
                                 instead of the file's (--colorspace); else unused */
    bool sdr_base;            /* an Ultra HDR JPEG: its SDR base alone, not the HDR rendition
                                 (--sdr-base) */
    const image_progress *progress; /* NULL, or told of the rows decoded (image_progress) */
} image_load_options;

/* OpenEXR decoders. AUTO picks by measurement (BENCHMARKS.md, "Decoding straight to half
 * floats"): the C++ library for half views, tinyexr or OpenEXRCore for the rest. */
typedef enum image_decoder {
    IMAGE_DECODER_AUTO,
    IMAGE_DECODER_TINYEXR,   /* one thread; no PXR24, B44, DWA or subsampled channels */
    IMAGE_DECODER_CORE,      /* OpenEXRCore, chunks on several threads; no DWA */
    IMAGE_DECODER_OPENEXR,   /* the C++ library, straight to half; half R,G,B / Y views only */
    IMAGE_DECODER_COUNT
} image_decoder;

/* Most threads one image_load uses (image_load_options.threads). */
#define HT_MAX_LOAD_THREADS 64

/* Default for image_load_options.max_pixels: 2^28 pixels = 4 GiB of RGBA floats. */
#define HT_DEFAULT_MAX_PIXELS ((uint64_t)1 << 28)

/* Largest error message any loader writes. */
#define HT_ERR_MAX 512

/* Loads PATH by its content (magic bytes), not its extension, with OPTS (NULL = every default).
 * On success fills *img (the caller frees it with image_free) and returns true. On failure
 * returns false, leaves *img empty and writes one line "PATH: reason" to err (errlen bytes).
 * Never aborts on bad input. */
bool image_load(const char *path, const image_load_options *opts, hdr_image *img, char *err,
                size_t errlen);

/* The same for a file already in memory (DATA, SIZE bytes; PATH only names it in messages):
 * what image_load does after reading the file. The fuzzer's entry point. */
bool image_load_memory(const char *path, const uint8_t *data, size_t size,
                       const image_load_options *opts, hdr_image *img, char *err, size_t errlen);

/* N floats as IEEE half, rounded to nearest even (exact for a half_exact image's values). */
void image_rgba_to_half(const float *v, size_t n, uint16_t *out);

/* An IEEE half float as a float (exact). */
float image_half_to_float(uint16_t h);

/* Pixel K (row-major index) of IMG as R, G, B, A: its floats, or its half floats when the
 * floats were dropped (image_add_half); zeros when it holds neither. */
void image_get_pixel(const hdr_image *img, size_t k, float rgba[4]);

/* Gives a half_exact IMG its pixels as half floats too (img->half: what the GPU stores, made
 * here on the caller's thread, not by the driver on the GL thread); with DROP_FLOATS frees
 * img->rgba then. False (nothing changed) when IMG is not half_exact, has no floats or has
 * its half floats already, or out of memory. */
bool image_add_half(hdr_image *img, bool drop_floats);

/* N half floats as floats (exact). */
void image_half_to_rgba(const uint16_t *h, size_t n, float *out);

/* Gives an image that has only half floats (image_load_options.half_only) its floats too,
 * converted from them (exact): what the CPU paths and statistics read. True when IMG has its
 * floats afterwards; false when out of memory or IMG has no pixels. */
bool image_add_floats(hdr_image *img);

/* The floor `bench --decode` measures decoding against: OpenEXR's C++ library alone decoding
 * part 0's R, G, B (Y when there is no R) of the OpenEXR file DATA (SIZE bytes) as half floats
 * into OUT (the data window, W x H x 4 halves; the other slots left as they were) on the
 * calling thread. No validation: only
 * for bytes image_load_memory accepted. False with the reason in WHY (also without the
 * library). */
bool image_exr_floor(const uint8_t *data, size_t size, uint16_t *out, char *why, size_t wl);
/* image_exr_floor with the library's own threads: THREADS chunks at once (1: the calling
 * thread alone; at most HT_MAX_LOAD_THREADS). */
bool image_exr_floor_threads(const uint8_t *data, size_t size, int threads, uint16_t *out,
                             char *why, size_t wl);

/* The floor `bench --decode` measures the other formats against: the format's library alone
 * (OpenImageIO as oiiotool reads, libjxl as djxl decodes: every channel as floats, no
 * conversion of hdrtone's) decoding DATA (SIZE bytes, a file image_load_memory accepted) on
 * all threads into OUT (NFLOATS floats: at least width x height x 4). False with the reason in
 * WHY; false for OpenEXR, Radiance and PFM (image_exr_floor is OpenEXR's). */
bool image_library_floor(const uint8_t *data, size_t size, float *out, size_t nfloats,
                         char *why, size_t wl);

/* A buffer of BYTES from the pool of reused ones (image_pool.c): frames of a stream have one
 * size, and a large buffer given back keeps its pages mapped for the next (a fresh one faults
 * each 4 KiB page in on first touch). A fresh malloc'd one when none fits; NULL when out of
 * memory. It may be handed to free(); image_pool_put gives it back for reuse instead. */
void *image_pool_get(size_t bytes);

/* Gives P (BYTES long, malloc'd; NULL is ignored) to the pool, which keeps a few of the large
 * ones for image_pool_get and frees the rest. Thread-safe, as image_pool_get. */
void image_pool_put(void *p, size_t bytes);

/* Frees the pool's free buffers of BYTES: those another allocator now provides (the GPU's
 * upload buffers), which would only sit there. */
void image_pool_drop(size_t bytes);

/* Appends KEY: VALUE (copied; VALUE folded past IMAGE_META_FOLD bytes, control characters as
 * spaces) to IMG's metadata. False when out of memory (the entry is then left out). */
bool image_meta_add(hdr_image *img, const char *key, const char *value);

/* Frees the pixels and zeroes *img. Accepts an empty or already freed image. */
void image_free(hdr_image *img);

/* Statistics as defined in exr-samples/README.md (Y = 0.2126R + 0.7152G + 0.0722B in double,
 * over the data window), Y by the file's own primaries (image_colour_weights). */
typedef struct image_stats {
    uint64_t total, finite, positive;   /* pixels: all; R,G,B finite; finite and Y > 0 */
    uint64_t nan, inf, negative;        /* R, G, B values counted one by one */
    double y_min, y_max, y_mean;        /* over finite pixels with Y > 0 (0 when none) */
    double y_log_average;               /* exp(mean ln Y) over the same pixels */
} image_stats;

void image_compute_stats(const hdr_image *img, image_stats *st);

#endif
