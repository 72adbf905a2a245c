#include "compare_run.h"

#include <stdio.h>
#include <stdlib.h>

struct compare_run {
    int backend;
    flip_params params;
};

compare_run *compare_run_create(const ht_options *o, char *err, size_t errlen)
{
    compare_run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    run->backend = o->backend;
    run->params.ppd = (float)o->ppd;
    run->params.tonemapper = (flip_tonemapper)o->flip_tonemapper;
    return run;
}

bool compare_run_pair(compare_run *run, const flip_input *ref, const flip_input *test,
                      float *map, flip_report *r, char *err, size_t errlen)
{
    return flip_report_cpu(ref, test, &run->params, NULL, map, r, err, errlen);
}

void compare_run_destroy(compare_run **run)
{
    if (!run || !*run)
        return;
    free(*run);
    *run = NULL;
}
