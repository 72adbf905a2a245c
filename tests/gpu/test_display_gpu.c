/* The apply pass's display modes (apply_display.glsl, pipeline_set_display) against the CPU
 * reference (display_cpu_apply): false colour of luminance ramps (linear and logarithmic;
 * smooth, bands, contour lines), the exposure view, and the channel view (sequential, signed
 * diverging, grey, luminance). Colours within 1 of 255; with bands and contour lines the
 * GPU's float arithmetic may put a pixel whose position lies within 1e-5 of a step on the
 * other side: at most 0.5 % of pixels, and none elsewhere. The exposure view against its
 * formula too, and switching the mode re-uploads nothing. With PQ and HLG (export --hdr) the
 * modes' 16-bit codes (their white at BT.2408's 203 cd/m^2) within one code of the CPU's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "gpu_shared.h"
#include "pipeline.h"
#include "transfer.h"
#include "testutil.h"

static pipeline *g_pipe;
static tonemap_params g_tm;

/* GPU (mode D) against CPU on IMG; LABEL names it. */
static void compare(const char *label, const hdr_image *img, const display_params *d,
                    uint8_t *cpu_out)
{
    size_t n = (size_t)img->width * img->height;
    uint8_t *gpu = malloc(n * 3), *cpu = malloc(n * 3);
    char err[512];
    pipeline_set_display(g_pipe, d);
    CHECK(pipeline_tonemap_image(g_pipe, img, &g_tm, NULL, gpu, err, sizeof err), "%s", err);
    display_cpu_apply(img, &g_tm, d, cpu);
    size_t off = 0, far = 0;
    for (size_t k = 0; k < n; k++) {
        int worst = 0;
        for (int c = 0; c < 3; c++)
            worst = abs(gpu[3 * k + c] - cpu[3 * k + c]) > worst ? abs(gpu[3 * k + c] - cpu[3 * k + c])
                                                               : worst;
        off += worst > 1;
        far += worst > 1 && d->fc_style == HT_FC_SMOOTH;
    }
    bool edges = d->mode == HT_VIEW_FALSECOLOR && d->fc_style != HT_FC_SMOOTH;
    CHECK(edges ? off * 200 <= n : off == 0, "%s: %zu of %zu pixels differ by more than 1", label,
          off, n);
    if (cpu_out)
        memcpy(cpu_out, cpu, n * 3);
    free(gpu);
    free(cpu);
}

/* A W x H image: luminance ramps along x (LOG: geometric from 1e-4 to 10), tinted rows,
 * alpha and a signed ramp along y. */
static void scene(hdr_image *img, int w, int h, bool log_steps)
{
    memset(img, 0, sizeof *img);
    img->width = w;
    img->height = h;
    img->rgba = malloc((size_t)w * h * 4 * sizeof(float));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double t = (double)x / (w - 1), v = log_steps ? 1e-4 * pow(1e5, t) : 12 * t;
            float *p = img->rgba + 4 * ((size_t)y * w + x);
            p[0] = (float)(v * (1 + 0.1 * (y % 3)));
            p[1] = (float)v;
            p[2] = (float)(v * (y % 2 ? 0.5 : 1));
            p[3] = (float)((double)y / (h - 1) * 2 - 1);   /* signed: -1..1 */
        }
}

static void falsecolor_cases(void)
{
    int styles[] = {HT_FC_SMOOTH, HT_FC_BANDS, HT_FC_CONTOURS};
    for (int lg = 0; lg < 2; lg++) {
        hdr_image img;
        scene(&img, 301, 40, lg);
        for (int s = 0; s < 3; s++) {
            display_params d;
            display_params_default(&d);
            d.mode = HT_VIEW_FALSECOLOR;
            d.fc_style = styles[s];
            d.fc_decades = lg ? 4 : 0;
            d.units_scale = 179;
            d.fc_max = 0;   /* automatic */
            display_resolve(&d, &img);
            CHECK(d.fc_max > 179 * 8 && d.fc_max < 179 * 14, "automatic scale %g", d.fc_max);
            char label[64];
            snprintf(label, sizeof label, "falsecolor %s %s", lg ? "log" : "linear",
                     ht_enum_name(display_fc_styles, styles[s]));
            compare(label, &img, &d, NULL);
        }
        image_free(&img);
    }
}

static void exposure_case(void)
{
    hdr_image img;
    scene(&img, 97, 11, false);
    img.rgba[0] = NAN;
    display_params d;
    display_params_default(&d);
    d.mode = HT_VIEW_EXPOSURE;
    d.exposure = -2.5;
    d.offset = 0.01;
    uint8_t *cpu = malloc((size_t)97 * 11 * 3);
    unsigned long gen = pipeline_image_generation(g_pipe);
    compare("exposure", &img, &d, cpu);
    /* The formula: value * 2^EV + offset, clipped, sRGB; a NaN value black. */
    for (int k = 1; k < 97 * 11; k++)
        for (int c = 0; c < 3; c++) {
            double v = img.rgba[4 * k + c] * pow(2, -2.5) + 0.01;
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            double e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
            CHECK(abs(cpu[3 * k + c] - (int)floor(e * 255 + 0.5)) <= 0, "exposure pixel %d", k);
        }
    CHECK_EQ(cpu[0], 0);
    /* Another mode on the uploaded image: no upload. */
    char err[512];
    uint8_t *out = malloc((size_t)97 * 11 * 3);
    d.mode = HT_VIEW_CHANNEL;
    display_resolve(&d, &img);
    pipeline_set_display(g_pipe, &d);
    CHECK(pipeline_tonemap_uploaded(g_pipe, &g_tm, NULL, out, err, sizeof err), "%s", err);
    CHECK_EQ(pipeline_image_generation(g_pipe), gen + 1);
    free(out);
    free(cpu);
    image_free(&img);
}

static void channel_cases(void)
{
    hdr_image img;
    scene(&img, 64, 33, true);
    int channels[] = {HT_CHANNEL_R, HT_CHANNEL_A, HT_CHANNEL_Y, HT_CHANNEL_B};
    int palettes[] = {HT_CH_PALETTE_AUTO, HT_CH_PALETTE_AUTO, HT_CH_PALETTE_GREY,
                      HT_CH_PALETTE_DIVERGING};
    for (int i = 0; i < 4; i++) {
        display_params d;
        display_params_default(&d);
        d.mode = HT_VIEW_CHANNEL;
        d.channel = channels[i];
        d.ch_palette = palettes[i];
        display_resolve(&d, &img);
        if (channels[i] == HT_CHANNEL_A)
            CHECK(d.ch_palette == HT_CH_PALETTE_DIVERGING && d.ch_min == -1 && d.ch_max == 1,
                  "signed alpha: palette %d, %g..%g", d.ch_palette, d.ch_min, d.ch_max);
        compare(ht_enum_name(display_channels, channels[i]), &img, &d, NULL);
    }
    image_free(&img);
}

/* The modes for an HDR display (TRANSFER PQ or HLG, Ldmax 1000, white at 203 cd/m^2): the
 * GPU's 16-bit codes against display_cpu_apply16's. */
static void hdr_cases(int transfer)
{
    hdr_image img;
    scene(&img, 120, 24, true);
    tonemap_params tm = g_tm;
    tm.transfer = transfer;
    tm.ldmax = 1000;
    int modes[] = {HT_VIEW_FALSECOLOR, HT_VIEW_CHANNEL, HT_VIEW_CHANNEL, HT_VIEW_EXPOSURE};
    int palettes[] = {0, HT_CH_PALETTE_GREY, HT_CH_PALETTE_DIVERGING, 0};
    size_t n = (size_t)img.width * img.height;
    uint16_t *gpu = malloc(n * 3 * 2), *cpu = malloc(n * 3 * 2);
    char err[512];
    CHECK(pipeline_upload(g_pipe, &img, err, sizeof err), "%s", err);
    for (int i = 0; i < 4; i++) {
        display_params d;
        display_params_default(&d);
        d.mode = modes[i];
        d.ch_palette = palettes[i];
        d.channel = HT_CHANNEL_G;
        d.fc_decades = 4;
        d.fc_max = 10;
        d.white = HT_HDR_REF_WHITE / tm.ldmax;
        display_resolve(&d, &img);
        pipeline_set_display(g_pipe, &d);
        CHECK(pipeline_tonemap_uploaded16(g_pipe, &tm, NULL, gpu, err, sizeof err), "%s", err);
        display_cpu_apply16(&img, &tm, &d, cpu);
        int worst = 0, top = 0;
        for (size_t k = 0; k < n * 3; k++) {
            worst = abs(gpu[k] - cpu[k]) > worst ? abs(gpu[k] - cpu[k]) : worst;
            top = cpu[k] > top ? cpu[k] : top;
        }
        CHECK(worst <= 1, "%s, transfer %d: the GPU %d codes from the CPU",
              ht_enum_name(display_modes, d.mode), transfer, worst);
        /* The grey channel's white: 203 cd/m^2 (PQ's code of it, in the CPU's rounding). */
        if (transfer == HT_TRANSFER_PQ && palettes[i] == HT_CH_PALETTE_GREY)
            CHECK_EQ(top, (int)(transfer_pq_encode(HT_HDR_REF_WHITE / HT_PQ_PEAK) * 65535 + 0.5));
    }
    pipeline_set_display(g_pipe, NULL);
    free(gpu);
    free(cpu);
    image_free(&img);
}

int main(void)
{
    test_require_gl();
    char err[512];
    g_pipe = pipeline_create(err, sizeof err);
    if (!g_pipe) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    tonemap_params_default(&g_tm);
    falsecolor_cases();
    exposure_case();
    channel_cases();
    hdr_cases(HT_TRANSFER_PQ);
    hdr_cases(HT_TRANSFER_HLG);
    pipeline_destroy(&g_pipe);
    return test_finish("test_display_gpu");
}
