/* export's linear output (export_linear.h). Not through batch.c's pipeline, whose frames are
 * 8 or 16 bits: the CPU reference runs here, input after input. */
#include "export_linear.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode.h"
#include "png_export.h"

/* One input IN into OUT; false with "reason" in err. */
static bool export_one(const ht_options *o, const char *in, const char *out, char *err,
                       size_t errlen)
{
    hdr_image img;
    image_load_options lo = options_load(o);
    if (!image_load(in, &lo, &img, err, errlen))
        return false;
    size_t n = (size_t)img.width * img.height * 3;
    tonemap_result *r = malloc(sizeof *r);
    float *px = malloc(n * sizeof *px);
    encode_buffer enc = {NULL, 0};
    bool ok = r && px;
    if (!ok) {
        snprintf(err, errlen, "%s: out of memory for %dx%d", in, img.width, img.height);
    } else {
        tonemap_cpu_analyze(&img, &o->tm, r);
        tonemap_cpu_apply_linear(&img, &o->tm, r, px);
        encode_image im = {px, img.width, img.height, 3, 32, 0.0};
        char why[256];
        ok = encode_image_exposure((encode_format)o->format, 0, &im,
                                   tonemap_exposure_pcond(r, &o->tm), &enc, why, sizeof why);
        if (!ok)
            snprintf(err, errlen, "%s: %s", out, why);
    }
    image_free(&img);
    free(px);
    free(r);
    char why[256];
    if (ok && strcmp(out, "-") == 0 &&
        !(ok = file_write_fd(STDOUT_FILENO, enc.data, enc.len, why, sizeof why)))
        snprintf(err, errlen, "%s: cannot write to standard output: %s", in, why);
    else if (ok)
        ok = file_write_atomic(out, enc.data, enc.len, err, errlen);
    free(enc.data);
    return ok;
}

int export_linear(const ht_options *o, const char **inputs, const char **outputs, int n)
{
    int status = 0;
    for (int i = 0; i < n; i++) {
        char err[HT_ERR_MAX];
        if (!export_one(o, inputs[i], outputs[i], err, sizeof err)) {
            fprintf(stderr, "hdrtone export: %s\n", err);
            status = 1;
        }
    }
    return status;
}
