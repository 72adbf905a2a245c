/* Bandwidth probes (benchmark): the least work that reads an image (probe_read.comp, a sum
 * per tile) and that reads it and writes RGBA8 (probe_copy.comp), the floors a pass that
 * reads, or reads and writes, is compared with. Needs a current GL 4.3 context. */
#ifndef HT_PROBE_H
#define HT_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"

typedef struct gpu_probe gpu_probe;

/* Builds the programs. NULL with the reason in err. */
gpu_probe *gpu_probe_create(char *err, size_t errlen);
/* Accepts NULL; sets *p to NULL. */
void gpu_probe_destroy(gpu_probe **p);

/* Dispatches a read of SAMPLES samples (1 .. SRC's count) of every pixel of SRC; no wait.
 * False (reason in err) when the program for SRC's sample count cannot be built. */
bool gpu_probe_read(gpu_probe *p, ht_source src, int samples, char *err, size_t errlen);
/* Dispatches a read of every sample of SRC and a write of an RGBA8 pixel per pixel; no
 * wait. False as gpu_probe_read. */
bool gpu_probe_copy(gpu_probe *p, ht_source src, char *err, size_t errlen);

#endif
