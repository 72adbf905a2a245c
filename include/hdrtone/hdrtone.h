/* libhdrtone: Ward '97 histogram-adjustment tone mapping on OpenGL 4.3 compute shaders, for
 * renderers (tone-map your HDR render target every frame, in your GL context) and for tools
 * (load an image file and tone-map it headless, as `hdrtone export` does).
 *
 * Every function's name begins with hdrtone_. A function that can fail returns a
 * hdrtone_status; the reason in words is then hdrtone_last_error()'s. The library never
 * prints. Functions that take a hdrtone need its GL context current on the calling thread. */
#ifndef HDRTONE_H
#define HDRTONE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call did: HDRTONE_OK, or why it did nothing. */
typedef enum hdrtone_status {
    HDRTONE_OK = 0,
    HDRTONE_INVALID_ARGUMENT,   /* a NULL, a size or a texture the call cannot take */
    HDRTONE_GL_ERROR,           /* no OpenGL 4.3 core context, a shader that does not build */
    HDRTONE_IO_ERROR,           /* a file that cannot be read, decoded or written */
    HDRTONE_OUT_OF_MEMORY,
    HDRTONE_NOT_READY,          /* hdrtone_read_analysis: the GPU has finished no frame yet */
} hdrtone_status;

/* The reason of the calling thread's latest failed call, one line ("" before any failure).
 * Valid until that thread's next failing call. */
const char *hdrtone_last_error(void);

/* The name of STATUS ("ok", "invalid argument", ...). */
const char *hdrtone_status_name(hdrtone_status status);

/* The response's shape above the histogram's own (pcond's -s). */
typedef enum hdrtone_ceiling {
    HDRTONE_CEILING_DEFAULT = 0,   /* linear */
    HDRTONE_CEILING_LINEAR,        /* never more contrast than a linear mapping */
    HDRTONE_CEILING_NONE,          /* plain histogram equalisation */
    HDRTONE_CEILING_HUMAN,         /* never more than human contrast sensitivity */
} hdrtone_ceiling;

/* The display's encoding of the output. */
typedef enum hdrtone_transfer {
    HDRTONE_TRANSFER_DEFAULT = 0,  /* sRGB */
    HDRTONE_TRANSFER_SRGB,
    HDRTONE_TRANSFER_GAMMA,        /* a plain power 1/gamma */
} hdrtone_transfer;

/* The luminance weights of R, G, B. */
typedef enum hdrtone_luminance {
    HDRTONE_LUMINANCE_DEFAULT = 0, /* Rec. 709 */
    HDRTONE_LUMINANCE_REC709,
    HDRTONE_LUMINANCE_RADIANCE,    /* Radiance's primaries, as pcond */
} hdrtone_luminance;

/* How to tone-map. Every field's zero means its default, so a zeroed struct is the defaults
 * of `hdrtone export` with no options. Luminances are in cd/m^2. */
typedef struct hdrtone_settings {
    double ldmax;            /* the display's maximum luminance; 0: 100 */
    double drange;           /* the display's dynamic range Ldmax/Ldmin; 0: 100 */
    int bins;                /* histogram bins, 2..HDRTONE_MAX_BINS; 0: 100 */
    hdrtone_ceiling ceiling;
    hdrtone_transfer transfer;
    double gamma;            /* for HDRTONE_TRANSFER_GAMMA; 0: 2.2 */
    double lmin, lmax;       /* the world luminance range; both 0: measured every frame */
    double scale;            /* cd/m^2 per unit of the image's values; 0: 1 */
    hdrtone_luminance luminance;
    int force_linear;        /* nonzero: a linear mapping whatever the range (pcond -l) */
} hdrtone_settings;

/* A GL function by name, e.g. glfwGetProcAddress or eglGetProcAddress. */
typedef void (*hdrtone_gl_proc)(void);
typedef hdrtone_gl_proc (*hdrtone_gl_loader)(const char *name);

/* What hdrtone_create makes; zero: the defaults. */
typedef struct hdrtone_desc {
    hdrtone_settings settings;
    hdrtone_gl_loader gl_loader;   /* NULL: eglGetProcAddress (an EGL context, or any context
                                      under GLVND, Linux's usual libGL) */
} hdrtone_desc;

typedef struct hdrtone hdrtone;

/* Makes a tone mapper in the calling thread's current GL 4.3 core context, into *out (NULL on
 * failure). DESC may be NULL (the defaults). The library loads its own GL function pointers
 * through desc->gl_loader and never changes the caller's. */
hdrtone_status hdrtone_create(const hdrtone_desc *desc, hdrtone **out);

/* Replaces the settings from the next hdrtone_run or hdrtone_tonemap_image on; NULL: the
 * defaults. HDRTONE_INVALID_ARGUMENT (settings unchanged) for bins outside 2..HDRTONE_MAX_BINS,
 * an enum value out of range, or a negative, non-finite, or lmin > lmax luminance. */
hdrtone_status hdrtone_set_settings(hdrtone *t, const hdrtone_settings *settings);

/* One frame, queued on the GPU (nothing waits for it): analyses SRC_TEXTURE (the caller's
 * WIDTH x HEIGHT RGBA16F or RGBA32F texture: a GL_TEXTURE_2D when SAMPLES is 1, a
 * GL_TEXTURE_2D_MULTISAMPLE of SAMPLES samples when it is more) and tone-maps it into
 * DST_TEXTURE (the caller's RGBA8 GL_TEXTURE_2D of at least WIDTH x HEIGHT, level 0; alpha
 * 1). A multisampled source has every sample tone-mapped before the samples are averaged,
 * so the antialiasing of edges between very bright and dark surfaces survives (resolving
 * first averages radiances, which the response then maps as if they were a surface of their
 * own). Afterwards the caller's current program, the texture bindings of texture unit 0 and
 * the active texture unit are as they were; image unit 0, the shader storage and copy buffer
 * bindings are not. HDRTONE_INVALID_ARGUMENT (nothing queued) when a texture is not what it
 * should be. */
hdrtone_status hdrtone_run(hdrtone *t, unsigned src_texture, int width, int height, int samples,
                           unsigned dst_texture);

#define HDRTONE_MAX_BINS 1024

/* What the analysis of one frame found. */
typedef enum hdrtone_mapping {
    HDRTONE_MAPPING_NONE = 0,        /* no pixel with positive finite luminance: all black */
    HDRTONE_MAPPING_HISTOGRAM,       /* histogram adjustment */
    HDRTONE_MAPPING_LINEAR_FITS,     /* linear: the scene's range fits the display's */
    HDRTONE_MAPPING_LINEAR_GAVE_UP,  /* linear: the ceiling found no compression needed */
    HDRTONE_MAPPING_EQUALIZE,        /* histogram equalisation (HDRTONE_CEILING_NONE) */
    HDRTONE_MAPPING_LINEAR_FORCED,   /* linear: force_linear */
} hdrtone_mapping;

typedef struct hdrtone_analysis {
    uint64_t frame;              /* the hdrtone_run it analysed: 1 for the first */
    uint32_t pixels;             /* samples analysed (sample 0 of each pixel) */
    uint32_t valid;              /* of those, finite with luminance > 0 */
    float lw_min, lw_max;        /* the valid samples' luminance range, cd/m^2 */
    float range_min, range_max;  /* the histogram's range, cd/m^2 */
    float log_average;           /* exp(mean ln luminance) of the histogram's samples */
    hdrtone_mapping mapping;
    const char *mapping_name;    /* "histogram", "linear (forced)", ... (static) */
    int bins;
    uint32_t histogram[HDRTONE_MAX_BINS];  /* [0, bins): samples per bin, bin i from
                                              range_min * (range_max / range_min)^(i / bins) */
    float curve[HDRTONE_MAX_BINS + 1];     /* [0, bins]: the display luminance (cd/m^2) the
                                              response gives each bin edge */
} hdrtone_analysis;

/* The analysis of the newest frame the GPU has finished (usually the previous hdrtone_run's),
 * without waiting for the GPU: HDRTONE_NOT_READY while none has finished. */
hdrtone_status hdrtone_read_analysis(hdrtone *t, hdrtone_analysis *analysis);

/* Deletes T's GL objects (its context must be current) and frees it. Accepts NULL. */
void hdrtone_destroy(hdrtone *t);

/* Headless use: an OpenGL 4.3 core context with no window or display (EGL's device platform,
 * then Mesa's surfaceless), made current on the calling thread, into *out. */
typedef struct hdrtone_egl hdrtone_egl;
hdrtone_status hdrtone_egl_create(hdrtone_egl **out);
/* Releases the context. Accepts NULL. */
void hdrtone_egl_destroy(hdrtone_egl *egl);

/* A scene-referred image: WIDTH x HEIGHT linear RGBA floats, row by row, top row first. */
typedef struct hdrtone_image {
    int width, height;
    const float *rgba;
    void *loaded_;   /* the library's (NULL for an image the caller filled in) */
} hdrtone_image;

/* Loads an OpenEXR, Radiance .hdr or PFM file by its content into *img (zeroed on failure);
 * free it with hdrtone_image_free. */
hdrtone_status hdrtone_image_load(const char *path, hdrtone_image *img);
/* Frees a loaded image and zeroes *img. Accepts NULL and a zeroed image. */
void hdrtone_image_free(hdrtone_image *img);

/* Tone-maps IMG (loaded, or filled in by the caller) with T's settings into RGB: width *
 * height * 3 bytes, top row first, the bytes `hdrtone export` writes for the same file and
 * settings. Waits for the GPU. Restores what hdrtone_run restores; the pixel store alignments
 * and row lengths are not. */
hdrtone_status hdrtone_tonemap_image(hdrtone *t, const hdrtone_image *img, uint8_t *rgb);

/* Writes RGB (width * height * 3 bytes, top row first, encoded as SETTINGS' transfer says;
 * NULL: sRGB) to PATH as an 8-bit PNG with the encoder of `hdrtone export`, byte for byte
 * the file it writes. The bytes go to a temporary file beside PATH, renamed over it once
 * complete; a SIGINT, SIGTERM or SIGHUP that the program does not handle itself removes the
 * temporary file before it ends the program. Needs no context. */
hdrtone_status hdrtone_write_png(const char *path, const uint8_t *rgb, int width, int height,
                                 const hdrtone_settings *settings);

#ifdef __cplusplus
}
#endif

#endif
