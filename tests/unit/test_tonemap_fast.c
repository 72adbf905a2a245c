/* The fast CPU tone mapping (tonemap_fast.h) against the reference (tonemap_cpu.c): the
 * same analysis, field for field, and the same 8- and 16-bit output, byte for byte, on
 * synthetic scenes and sample files, with every sampling, mapping and encoding, on 1 to 5
 * threads; and the encoding tables against the reference's encoding at every threshold. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "human.h"
#include "testutil.h"
#include "tonemap_fast.h"

/* Fields of tonemap_result that differ, by name, for the message. */
static void explain(const char *label, const tonemap_result *a, const tonemap_result *b)
{
#define FIELD_(type, name, dims)                                                             \
    if (memcmp(&a->name, &b->name, sizeof a->name) != 0)                                    \
        fprintf(stderr, "%s: %s differs (reference %g, fast %g)\n", label, #name,           \
                (double)*(const ht_##type##_t *)&a->name, (double)*(const ht_##type##_t *)&b->name);
    HT_FRAME_FIELDS(FIELD_)
#undef FIELD_
}

/* Reference vs fast on IMG with P on THREADS threads: analysis, RGB8 and RGB16. */
static void check_same(const char *label, const hdr_image *img, const tonemap_params *p,
                       int threads)
{
    tonemap_result ref, fast;
    size_t n = (size_t)img->width * img->height * 3;
    uint8_t *a8 = malloc(n), *b8 = malloc(n);
    uint16_t *a16 = malloc(n * 2), *b16 = malloc(n * 2);
    if (!a8 || !b8 || !a16 || !b16) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    tonemap_cpu_analyze(img, p, &ref);
    memset(&fast, 0xA5, sizeof fast);   /* every field must be written */
    tonemap_fast_analyze(img, p, &fast, threads);
    bool same = memcmp(&ref, &fast, sizeof ref) == 0;
    CHECK(same, "%s (%d threads): the analysis differs from the reference", label, threads);
    if (!same)
        explain(label, &ref, &fast);
    tonemap_cpu_apply(img, p, &ref, a8);
    tonemap_fast_apply(img, p, &ref, b8, threads);
    size_t k8 = 0, k16 = 0;
    while (k8 < n && a8[k8] == b8[k8])
        k8++;
    CHECK(k8 == n, "%s (%d threads): RGB8 differs at value %zu (pixel %zu): %u vs %u", label,
          threads, k8, k8 / 3, k8 < n ? a8[k8] : 0, k8 < n ? b8[k8] : 0);
    tonemap_cpu_apply16(img, p, &ref, a16);
    tonemap_fast_apply16(img, p, &ref, b16, threads);
    while (k16 < n && a16[k16] == b16[k16])
        k16++;
    CHECK(k16 == n, "%s (%d threads): RGB16 differs at value %zu (pixel %zu): %u vs %u", label,
          threads, k16, k16 / 3, k16 < n ? a16[k16] : 0, k16 < n ? b16[k16] : 0);
    free(a8);
    free(b8);
    free(a16);
    free(b16);
}

/* The parameter sets the images are checked with. */
enum { N_VARIANTS = 14 };

static void variant(int v, tonemap_params *p, char *name, size_t size)
{
    tonemap_params_default(p);
    const char *what = "default";
    switch (v) {
    case 0: break;
    case 1: tonemap_apply_preset(p, HT_PRESET_PCOND); what = "pcond preset"; break;
    case 2: p->sampling = HT_SAMPLING_FOVEAL; what = "foveal"; break;
    case 3: p->point_samples = 1; p->sampling = HT_SAMPLING_FOVEAL; p->fov = 10;
            what = "foveal 10 deg + points"; break;
    case 4: p->force_linear = true; what = "linear"; break;
    case 5: p->transfer = HT_TRANSFER_GAMMA; p->gamma = 2.2; what = "gamma 2.2"; break;
    case 6: p->transfer = HT_TRANSFER_GAMMA; p->gamma = 0.45; p->bins = 37;
            what = "gamma 0.45, 37 bins"; break;
    case 7: p->ceiling = HT_CEILING_NONE; p->luminance = HT_LUMINANCE_RADIANCE;
            what = "ceiling none, radiance weights"; break;
    case 8: p->ceiling = HT_CEILING_HUMAN; p->bins = 1024; what = "human ceiling, 1024 bins"; break;
    case 9: p->lmin = 0.05; p->lmax = 500; p->scale = 3.5; what = "fixed range, scale 3.5"; break;
    case 10: tonemap_apply_preset(p, HT_PRESET_PCOND); p->transfer = HT_TRANSFER_GAMMA;
             p->gamma = 10; p->bins = 2; what = "pcond, gamma 10, 2 bins"; break;
    case 11: p->transfer = HT_TRANSFER_PQ; p->ldmax = 1000; p->drange = 1e4;
             what = "PQ, Ldmax 1000"; break;
    case 12: {
        image_colour rec709 = {0};
        char why[128];
        p->transfer = HT_TRANSFER_HLG;
        p->ldmax = 600;
        p->display_space = HT_DISPLAY_SPACE_REC2020;
        CHECK(tonemap_set_colour(p, &rec709, why, sizeof why), "colour: %s", why);
        what = "HLG, Ldmax 600, Rec. 2020";
        break;
    }
    default: p->drange = 1e6; p->ldmax = 80; what = "drange 1e6 (range fits)"; break;
    }
    snprintf(name, size, "%s", what);
}

static void check_image(const char *label, const hdr_image *img, int max_threads)
{
    for (int v = 0; v < N_VARIANTS; v++) {
        tonemap_params p;
        char name[64], full[256];
        variant(v, &p, name, sizeof name);
        snprintf(full, sizeof full, "%s, %s", label, name);
        for (int t = 1; t <= max_threads; t++)
            check_same(full, img, &p, t);
    }
}

static void synthetic_scenes(void)
{
    static const int sizes[][2] = {{1, 1}, {3, 5}, {257, 131}, {640, 480}};
    hdr_image img;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        char label[64];
        test_scene_seed = 17u + (unsigned)s;
        test_make_image(&img, sizes[s][0], sizes[s][1], test_scene_random);
        snprintf(label, sizeof label, "random %dx%d", sizes[s][0], sizes[s][1]);
        check_image(label, &img, sizes[s][0] * sizes[s][1] > 20000 ? 5 : 3);
        image_free(&img);
        test_lamp_x = sizes[s][0] * 0.3f;
        test_lamp_y = sizes[s][1] * 0.6f;
        test_make_image(&img, sizes[s][0], sizes[s][1], test_scene_lamp);
        snprintf(label, sizeof label, "lamp %dx%d", sizes[s][0], sizes[s][1]);
        check_image(label, &img, 2);
        image_free(&img);
    }
}

static void all_bad(int x, int y, float rgb[3])
{
    rgb[0] = (x + y) % 3 == 0 ? NAN : (x + y) % 3 == 1 ? -1.0f : INFINITY;
    rgb[1] = rgb[2] = 0.0f;
}

/* No valid pixel, and the human-vision options (the reference itself). */
static void special_cases(void)
{
    hdr_image img;
    test_make_image(&img, 33, 7, all_bad);
    check_image("no valid pixel", &img, 2);
    image_free(&img);
    tonemap_params p;
    tonemap_params_default(&p);
    human_params_all(&p);
    test_scene_seed = 5;
    test_make_image(&img, 64, 48, test_scene_random);
    check_same("pcond -h", &img, &p, 3);
    image_free(&img);
}

static void sample_files(void)
{
    static const char *files[] = {"Desk.exr", "Cannon.exr", "Garden.exr",
                                  "BrightRingsNanInf.exr", "ColorCodedLevels.exr",
                                  "venice_sunset_1k.hdr", "2by2.exr"};
    const char *shared = getenv("HT_SHARED");
    if (!shared) {
        printf("note: HT_SHARED unset, no sample files\n");
        return;
    }
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024], err[HT_ERR_MAX];
        snprintf(path, sizeof path, "%s/exr-samples/%s", shared, files[i]);
        hdr_image img;
        if (!image_load(path, NULL, &img, err, sizeof err)) {
            printf("note: %s\n", err);
            continue;
        }
        for (int v = 0; v < N_VARIANTS; v++) {
            tonemap_params p;
            char name[64], full[256];
            variant(v, &p, name, sizeof name);
            snprintf(full, sizeof full, "%s, %s", files[i], name);
            check_same(full, &img, &p, 1 + (int)((i + (size_t)v) % 4));
        }
        image_free(&img);
    }
}

/* The code of V as the reference computes it (tonemap_cpu_apply's rounding). */
static unsigned ref_code(const tonemap_params *p, unsigned levels, double v)
{
    return (unsigned)(tonemap_encode_unit(p, v) * levels + 0.5);
}

/* Every threshold is where the reference's code steps up, and the doubles around it and
 * random values get the reference's code. */
static void encode_tables(void)
{
    /* transfer, gamma or Ldmax */
    static const struct { int transfer; double param; } encs[] = {
        {HT_TRANSFER_SRGB, 0}, {HT_TRANSFER_GAMMA, 2.2}, {HT_TRANSFER_GAMMA, 1.0},
        {HT_TRANSFER_GAMMA, 0.1}, {HT_TRANSFER_GAMMA, 10.0},
    };   /* not PQ and HLG: pow's last bits make them step back by a code here and there
            (3 ulps above a threshold), so the fast path computes their codes directly */
    for (size_t g = 0; g < sizeof encs / sizeof encs[0]; g++) {
        for (unsigned levels = 255; levels <= 65535; levels = levels * 257) {
            tonemap_params p;
            tonemap_params_default(&p);
            p.transfer = encs[g].transfer;
            p.gamma = encs[g].transfer == HT_TRANSFER_GAMMA ? encs[g].param : p.gamma;
            tonemap_encode_table t;
            CHECK(tonemap_encode_table_init(&t, &p, levels, 3), "table: out of memory");
            int bad = 0;
            for (unsigned k = 1; k <= levels && bad < 5; k++) {
                double v = t.thresh[k];
                for (int step = -3; step <= 3; step++) {
                    double u = v;
                    for (int s = 0; s < (step < 0 ? -step : step); s++)
                        u = nextafter(u, step < 0 ? -1.0 : 2.0);
                    unsigned want = ref_code(&p, levels, u);
                    if (tonemap_encode_table_code(&t, u) != want || (step < 0 && want >= k) ||
                        (step == 0 && want < k)) {
                        CHECK(false, "encoding %zu, %u levels: code %u, %d ulps from its "
                              "threshold %.17g: %u, reference %u", g, levels, k, step, v,
                              tonemap_encode_table_code(&t, u), want);
                        bad++;
                    }
                }
            }
            unsigned seed = 99;
            double specials[] = {0.0, -0.0, -1.0, 1.0, 2.0, NAN, INFINITY, -INFINITY,
                                 DBL_MIN, 1e-300, nextafter(1.0, 0.0)};
            for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
                CHECK_EQ(tonemap_encode_table_code(&t, specials[i]),
                         ref_code(&p, levels, specials[i]));
            for (int i = 0; i < 200000 && bad < 5; i++) {
                double v = pow(10.0, -12.0 * test_rand(&seed)) * 1.2;
                if (tonemap_encode_table_code(&t, v) != ref_code(&p, levels, v)) {
                    CHECK(false, "encoding %zu, %u levels: %.17g", g, levels, v);
                    bad++;
                }
            }
            tonemap_encode_table_free(&t);
        }
    }
}

int main(void)
{
    encode_tables();
    special_cases();
    synthetic_scenes();
    sample_files();
    return test_finish("test_tonemap_fast");
}
