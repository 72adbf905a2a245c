/* GL programs built from the GLSL embedded at build time (shaders/), each prefixed with the
 * preamble generated from gpu_shared.h. */
#ifndef HT_SHADERS_H
#define HT_SHADERS_H

#include <stddef.h>

typedef struct ht_embedded_shader {
    const char *name;   /* file name in shaders/, e.g. "histogram.comp" */
    const char *source;
} ht_embedded_shader;

/* Generated table, terminated by {NULL, NULL}. */
extern const ht_embedded_shader ht_embedded_shaders[];

/* Source of an embedded shader, or NULL. */
const char *shaders_source(const char *name);

/* The "#version 430 core" line plus the #defines and struct declarations of gpu_shared.h. */
const char *shaders_preamble(void);

/* Compiles and links a compute program from the embedded NAME with extra DEFINES (lines of
 * "#define ...", may be NULL). Returns the program, or 0 with the compiler log in err. The
 * caller owns the program (glDeleteProgram). */
unsigned shaders_compute(const char *name, const char *defines, char *err, size_t errlen);

/* Same for a vertex + fragment program. */
unsigned shaders_graphics(const char *vert, const char *frag, const char *defines, char *err,
                          size_t errlen);

#endif
