/* hdrtone bench --open FILE: the wait for the first picture of one file (BENCHMARKS.md,
 * "Opening one file"). */
#ifndef HT_BENCH_OPEN_H
#define HT_BENCH_OPEN_H

#include "backend.h"
#include "options.h"

/* Times FILES[0] from its open to its first tone-mapped frame done on the GPU of BE's
 * headless context (decoded on all cores straight into the upload buffers, uploaded, the
 * pipeline run, glFinish; the context made before, as a viewer makes its window while the
 * file decodes), beside the floor measured in the same run: OpenEXR's own decode on all
 * cores into a reused buffer plus the upload of such a buffer; and, in a load of its own with
 * the progress hook set (image_progress), start to the first rows told (first_rows_ms, -1
 * when none: the first rows a viewer could show). Medians of O's --runs (at most
 * OPEN_MAX_RUNS) after one warm-up; stdout, JSON with o->json (keys file, open_ms,
 * decode_ms, floor_ms, ratio, first_rows_ms, ...). Returns 0, 1 when the file fails or there is no GPU, 2
 * for a usage error. */
int bench_open(cmd_backend *be, const ht_options *o, char **files, int n);

#endif
