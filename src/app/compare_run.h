/* compare's backends: the CPU reference (flip_report_cpu) or the GPU (compare_gpu.h), chosen
 * by --backend; the same report either way. */
#ifndef HT_COMPARE_RUN_H
#define HT_COMPARE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "flip_input.h"
#include "options.h"

typedef struct compare_run compare_run;

/* A runner for O's backend (o->backend auto decided here, backend.h; the GPU's context made
 * here). NULL with the reason in err. */
compare_run *compare_run_create(ht_options *o, char *err, size_t errlen);

/* TEST against REF (a checked pair): FLIP's map into MAP (W*H floats) and the report *R of
 * the whole image. Waits for the GPU. False with the reason in err. */
bool compare_run_pair(compare_run *run, const flip_input *ref, const flip_input *test,
                      float *map, flip_report *r, char *err, size_t errlen);

/* Frees the runner; *run becomes NULL. Accepts NULL. */
void compare_run_destroy(compare_run **run);

#endif
