#include "compare_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "compare_gpu.h"

struct compare_run {
    cmd_backend *backend;       /* the GPU's context, for --backend gpu */
    flip_params params;
    compare_gpu *gpu;
    const flip_input *uploaded_ref;   /* the reference in ref_img (uploaded once) */
    compare_gpu_image ref_img, test_img;
};

compare_run *compare_run_create(ht_options *o, char *err, size_t errlen)
{
    compare_run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    run->params.ppd = (float)o->ppd;
    run->params.tonemapper = (flip_tonemapper)o->flip_tonemapper;
    if (!(run->backend = backend_create(o, err, errlen)) ||
        (o->backend == HT_BACKEND_GPU && (!backend_gl_context(run->backend, err, errlen) ||
                                          !(run->gpu = compare_gpu_create(err, errlen))))) {
        compare_run_destroy(&run);
        return NULL;
    }
    return run;
}

static bool gpu_pair(compare_run *run, const flip_input *ref, const flip_input *test,
                     float *map, flip_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->hdr = ref->hdr;
    r->ppd = run->params.ppd > 0 ? run->params.ppd : flip_default_ppd();
    if (run->uploaded_ref != ref &&
        !compare_gpu_image_upload(&run->ref_img, ref->rgb, ref->width, ref->height, err, errlen))
        return false;
    run->uploaded_ref = ref;
    if (!compare_gpu_image_upload(&run->test_img, test->rgb, test->width, test->height, err,
                                  errlen))
        return false;
    compare_gpu_desc d = {.ref = run->ref_img, .test = run->test_img,
                          .source = ref->hdr ? FLIP_SRC_HDR : FLIP_SRC_LINEAR,
                          .mode = METRICS_MAP_FLIP, .flip = run->params};
    if (ref->hdr && !flip_exposures_for(ref->rgb, ref->width, ref->height, 3, &run->params,
                                        &d.exposures, err, errlen))
        return false;
    r->exposures = ref->hdr ? d.exposures : (flip_exposures){0};
    compare_gpu_numbers n;
    if (!compare_gpu_run(run->gpu, &d, err, errlen))
        return false;
    if (!compare_gpu_wait(run->gpu, &n) || !compare_gpu_read_map(run->gpu, map)) {
        snprintf(err, errlen, "compare: the GPU's results could not be read");
        return false;
    }
    r->flip = n.flip;
    r->metrics = n.metrics;
    return true;
}

bool compare_run_pair(compare_run *run, const flip_input *ref, const flip_input *test,
                      float *map, flip_report *r, char *err, size_t errlen)
{
    if (run->gpu)
        return gpu_pair(run, ref, test, map, r, err, errlen);
    return flip_report_cpu(ref, test, &run->params, NULL, map, r, err, errlen);
}

void compare_run_destroy(compare_run **run)
{
    if (!run || !*run)
        return;
    compare_gpu_image_free(&(*run)->ref_img);
    compare_gpu_image_free(&(*run)->test_img);
    compare_gpu_destroy(&(*run)->gpu);
    backend_destroy(&(*run)->backend);   /* the context last */
    free(*run);
    *run = NULL;
}
