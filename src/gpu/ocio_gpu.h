/* The OCIO view on the GPU (--view ocio): the apply pass's program built with OCIO's GLSL
 * (apply.comp with HT_OCIO, the generated function ht_ocio) and the LUT textures it samples.
 * One owner of those GL objects (pass_apply holds one): made when the choice (config, input,
 * display, view, look) changes, kept while it stays, deleted together. */
#ifndef HT_OCIO_GPU_H
#define HT_OCIO_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "display.h"

typedef struct ocio_gpu ocio_gpu;

/* An empty one (no GL objects yet); NULL when out of memory. */
ocio_gpu *ocio_gpu_create(void);

/* Makes current the program of D's choice (D->ocio_input set by ocio_view_input, with the
 * matrix it gives as the tone-mapping parameters' colour; NULL: linear Rec. 709) for a source
 * of SAMPLES, with its textures bound above the pass's own units. Builds the program and
 * uploads the textures only when the choice differs from the last one; a choice that failed
 * fails again with the same reason, without retrying, until it changes. 0 with the reason. */
unsigned ocio_gpu_use(ocio_gpu *g, const display_params *d, int samples, char *err,
                      size_t errlen);

/* Deletes the program and the textures (a context current) and frees *G; NULL after. */
void ocio_gpu_destroy(ocio_gpu **g);

#endif
