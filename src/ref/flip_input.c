#include "flip_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flip.h"
#include "image_ldr.h"

/* flip_srgb_to_linear of each of V's N values; an 8-bit value (k / 255, as image_ldr makes
 * it) from a table of the 256 results, the others (16-bit) computed. */
static void srgb_to_linear(float *v, size_t n)
{
    float table[256];
    for (int k = 0; k < 256; k++)
        table[k] = flip_srgb_to_linear(k / 255.0f);
    for (size_t i = 0; i < n; i++) {
        int k = (int)(v[i] * 255.0f + 0.5f);
        v[i] = k >= 0 && k < 256 && k / 255.0f == v[i] ? table[k] : flip_srgb_to_linear(v[i]);
    }
}

static bool load_ldr(const char *path, uint64_t max_pixels, flip_input *in, char *err,
                     size_t errlen)
{
    ldr_image img;
    if (!image_ldr_load(path, max_pixels, &img, err, errlen))
        return false;
    srgb_to_linear(img.rgb, (size_t)img.width * img.height * 3);
    in->width = img.width;
    in->height = img.height;
    in->rgb = img.rgb;   /* taken over */
    in->hdr = false;
    snprintf(in->format, sizeof in->format, "%s", img.format);
    return true;
}

static bool load_hdr(const char *path, const image_load_options *opts, flip_input *in,
                     char *err, size_t errlen)
{
    hdr_image img;
    if (!image_load(path, opts, &img, err, errlen))
        return false;
    size_t n = (size_t)img.width * img.height;
    in->rgb = malloc(n * 3 * sizeof *in->rgb);
    if (!in->rgb || !img.rgba) {
        free(in->rgb);
        in->rgb = NULL;
        image_free(&img);
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            float v = img.rgba[i * 4 + c];
            in->rgb[i * 3 + c] = isfinite(v) ? v : 0.0f;
        }
    in->width = img.width;
    in->height = img.height;
    in->hdr = true;
    snprintf(in->format, sizeof in->format, "%s", img.format);
    image_free(&img);
    return true;
}

bool flip_input_load(const char *path, const image_load_options *opts, flip_input *in,
                     char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    if (image_ldr_is_ldr(path))
        return load_ldr(path, opts ? opts->max_pixels : 0, in, err, errlen);
    return load_hdr(path, opts, in, err, errlen);
}

bool flip_input_check_pair(const flip_input *ref, const char *ref_path, const flip_input *test,
                           const char *test_path, char *err, size_t errlen)
{
    if (ref->hdr != test->hdr) {
        snprintf(err, errlen, "%s (%s) and %s (%s): one is HDR and the other LDR; compare "
                 "PNG/JPEG with PNG/JPEG and EXR/.hdr/PFM with EXR/.hdr/PFM",
                 ref_path, ref->format, test_path, test->format);
        return false;
    }
    if (ref->width != test->width || ref->height != test->height) {
        snprintf(err, errlen, "%s is %dx%d but %s is %dx%d: images of different sizes cannot "
                 "be compared", ref_path, ref->width, ref->height, test_path, test->width,
                 test->height);
        return false;
    }
    return true;
}

void flip_input_free(flip_input *in)
{
    free(in->rgb);
    memset(in, 0, sizeof *in);
}

bool flip_report_cpu(const flip_input *ref, const flip_input *test, const flip_params *p,
                     const flip_rect *rect, float *map, flip_report *r, char *err,
                     size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->hdr = ref->hdr;
    r->ppd = p->ppd > 0 ? p->ppd : flip_default_ppd();
    int w = ref->width, h = ref->height;
    bool ok;
    if (ref->hdr)
        ok = flip_exposures_for(ref->rgb, w, h, 3, p, &r->exposures, err, errlen) &&
             flip_hdr(ref->rgb, test->rgb, w, h, 3, p, &r->exposures, map, err, errlen);
    else
        ok = flip_ldr(ref->rgb, test->rgb, w, h, 3, p, map, err, errlen);
    return ok && flip_pool(map, w, h, rect, &r->flip, err, errlen) &&
           metrics_compute(ref->rgb, test->rgb, w, h, 3, rect, &r->metrics, err, errlen);
}
