/* OpenColorIO's display/view transforms behind a C interface (ocio_cxx.cpp, over OCIO 2.1's
 * C++ API): a config, its names, a processor from an input colour space to a display and view
 * (and a look), applied on the CPU, and the GLSL of it with its LUT textures for the GPU's
 * apply pass (src/gpu/ocio_gpu.c uploads them; nothing here uses GL). Every exception of the
 * library stays inside, as a reason in err. docs/colour.md, "OCIO views". */
#ifndef HT_OCIO_H
#define HT_OCIO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ocio_config ocio_config;

/* The config PATH; NULL or "": $OCIO when set, else the bundled one (ocio_bundled_path).
 * NULL with "FILE: reason" in err when it cannot be read or is not a valid config. */
ocio_config *ocio_config_load(const char *path, char *err, size_t errlen);
void ocio_config_free(ocio_config **c);

/* The bundled config: PREFIX/share/hdrtone/ocio/config.ocio beside the program when
 * installed, else the source tree's assets/ocio/config.ocio. */
const char *ocio_bundled_path(void);

/* The file C was read from. */
const char *ocio_config_path(const ocio_config *c);

/* The lists of a config: colour spaces (scene- and display-referred), displays, looks. */
enum { OCIO_SPACES = 0, OCIO_DISPLAYS = 1, OCIO_LOOKS = 2 };
int ocio_count(const ocio_config *c, int list);
/* Name I (0 <= I < ocio_count) of LIST; valid while C lives. */
const char *ocio_name(const ocio_config *c, int list, int i);

/* The views of DISPLAY (0 when there is no such display), and view I of them. */
int ocio_view_count(const ocio_config *c, const char *display);
const char *ocio_view_name(const ocio_config *c, const char *display, int i);

/* The default display, and DISPLAY's default view. */
const char *ocio_default_display(const ocio_config *c);
const char *ocio_default_view(const ocio_config *c, const char *display);

/* The canonical name of the colour space that DISPLAY's VIEW writes (NULL or "": the
 * defaults): the view's own, or the display's for a view of a view transform (OCIO's
 * <USE_DISPLAY_NAME>); NULL when C has no such display or view, or the colour space. */
const char *ocio_view_space(const ocio_config *c, const char *display, const char *view);

/* The canonical name of colour space NAME (a name or an alias, any case), or NULL. */
const char *ocio_space_find(const ocio_config *c, const char *name);

/* What is shown: INPUT's RGB through DISPLAY's VIEW, after LOOK (NULL or "": none). A NULL
 * or empty display or view: the config's default. */
typedef struct ocio_choice {
    const char *input, *display, *view, *look;
} ocio_choice;

typedef struct ocio_processor ocio_processor;

/* The processor of CH in C (C must outlive it). NULL with a reason naming what is unknown
 * ("display 'X' is not in FILE", ...) or what OCIO refused. */
ocio_processor *ocio_processor_make(const ocio_config *c, const ocio_choice *ch, char *err,
                                    size_t errlen);
void ocio_processor_free(ocio_processor **p);

/* N RGBA float pixels through P in place on the CPU (OCIO's CPU processor). */
void ocio_processor_apply(const ocio_processor *p, float *rgba, size_t n);

/* A LUT texture of the shader: SAMPLER is its GLSL sampler's name; DIMS 1 (width texels), 2
 * (width x height: a long 1D LUT folded into rows) or 3 (width^3); CHANNELS 1 (red) or 3
 * (RGB); DATA width * height * depth * channels floats, rows (then slices) in order. */
typedef struct ocio_texture {
    char sampler[64];
    int dims, width, height, depth, channels;
    bool linear;   /* linear filtering (else nearest) */
    float *data;
} ocio_texture;

/* P as GLSL 4.x: TEXT declares the samplers and helpers and defines
 * "vec4 FUNCTION(vec4 inPixel)" (FUNCTION as given, its resources prefixed with it). */
typedef struct ocio_shader {
    char *text;
    int ntex;
    ocio_texture *tex;
} ocio_shader;

/* The GPU shader of P into *S (ocio_shader_free frees it). False with the reason when OCIO
 * cannot make one, or it has dynamic properties (uniforms), which the apply pass does not set. */
bool ocio_processor_shader(const ocio_processor *p, const char *function, ocio_shader *s,
                           char *err, size_t errlen);
void ocio_shader_free(ocio_shader *s);

#endif
