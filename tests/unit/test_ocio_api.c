/* The C interface over OCIO (src/ref/ocio.h) that the viewer's Display section and the GPU
 * pass use: the bundled config's lists and defaults, names found through aliases, processors
 * refused with the name they lack, the CPU processor against the sRGB curve's formula, the
 * GPU shader's text and LUT textures (the PQ display's curve), ocio_view_input's choice of
 * input space and matrix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ocio.h"
#include "ocio_view.h"
#include "testutil.h"

/* Whether LIST of C holds NAME. */
static bool listed(const ocio_config *c, int list, const char *name)
{
    for (int i = 0; i < ocio_count(c, list); i++)
        if (strcmp(ocio_name(c, list, i), name) == 0)
            return true;
    return false;
}

static void lists(const ocio_config *c)
{
    static const char *spaces[] = {"ACEScg", "ACES2065-1", "Linear Rec.709 (sRGB)",
                                   "Linear Rec.2020", "Linear P3-D65", "CIE-XYZ-D65",
                                   "sRGB - Texture", "Raw"};
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
        CHECK(listed(c, OCIO_SPACES, spaces[i]), "no colour space %s", spaces[i]);
    CHECK_EQ(ocio_count(c, OCIO_DISPLAYS), 4);
    CHECK_EQ(ocio_count(c, OCIO_LOOKS), 0);
    CHECK(strcmp(ocio_default_display(c), "sRGB - Display") == 0, "default display %s",
          ocio_default_display(c));
    CHECK(strcmp(ocio_default_view(c, "sRGB - Display"), "ACES 1.0 - SDR Video") == 0,
          "sRGB's default view %s", ocio_default_view(c, "sRGB - Display"));
    CHECK(strcmp(ocio_default_view(c, "Rec.2100-PQ - Display"),
                 "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)") == 0, "PQ's default view");
    CHECK_EQ(ocio_view_count(c, "Display P3 - Display"), 4);
    CHECK_EQ(ocio_view_count(c, "no such display"), 0);
    CHECK(strcmp(ocio_view_name(c, "Display P3 - Display", 3), "Raw") == 0, "last view");
    const char *s = ocio_space_find(c, "lin_ap1");
    CHECK(s && strcmp(s, "ACEScg") == 0, "alias lin_ap1: %s", s ? s : "none");
    CHECK(ocio_space_find(c, "nope") == NULL, "an unknown space found");
}

/* A processor of C for CH is refused with WANT in the reason. */
static void refused(const ocio_config *c, ocio_choice ch, const char *want)
{
    char err[512] = "";
    ocio_processor *p = ocio_processor_make(c, &ch, err, sizeof err);
    CHECK(!p && strstr(err, want), "not refused naming '%s': %s", want, err);
    ocio_processor_free(&p);
}

static void processors(const ocio_config *c)
{
    refused(c, (ocio_choice){"nope", NULL, NULL, NULL}, "'nope'");
    refused(c, (ocio_choice){"ACEScg", "No Display", NULL, NULL}, "'No Display'");
    refused(c, (ocio_choice){"ACEScg", NULL, "No View", NULL}, "'No View'");
    refused(c, (ocio_choice){"ACEScg", NULL, NULL, "No Look"}, "'No Look'");
    char err[512];
    /* Un-tone-mapped on sRGB: Rec. 709 through the sRGB curve (IEC 61966-2-1). */
    ocio_choice ch = {"Linear Rec.709 (sRGB)", "sRGB - Display", "Un-tone-mapped", NULL};
    ocio_processor *p = ocio_processor_make(c, &ch, err, sizeof err);
    CHECK(p, "%s", err);
    if (!p)
        return;
    float px[8] = {0.18f, 0.0005f, 1.0f, 1.0f, 0.5f, 0.5f, 0.5f, 1.0f};
    ocio_processor_apply(p, px, 2);
    const double in[6] = {0.18, 0.0005, 1.0, 0.5, 0.5, 0.5};
    const float *out[6] = {&px[0], &px[1], &px[2], &px[4], &px[5], &px[6]};
    for (int i = 0; i < 6; i++) {
        double v = in[i], want = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
        CHECK_NEAR(*out[i], want, 2e-4);
    }
    ocio_processor_free(&p);
}

static void shaders(const ocio_config *c)
{
    char err[512];
    ocio_choice ch = {"ACEScg", "Rec.2100-PQ - Display", NULL, NULL};
    ocio_processor *p = ocio_processor_make(c, &ch, err, sizeof err);
    CHECK(p, "%s", err);
    ocio_shader s;
    if (!p || !ocio_processor_shader(p, "ht_test", &s, err, sizeof err)) {
        CHECK(false, "no shader: %s", p ? err : "no processor");
        ocio_processor_free(&p);
        return;
    }
    CHECK(strstr(s.text, "vec4 ht_test(vec4 inPixel)"), "no function in the text");
    CHECK_EQ(s.ntex, 1);   /* the PQ curve, a 1D LUT folded into rows */
    for (int i = 0; i < s.ntex; i++) {
        const ocio_texture *t = &s.tex[i];
        CHECK(strstr(s.text, t->sampler), "sampler %s not in the text", t->sampler);
        CHECK(t->dims == 2 && t->width > 1 && t->height > 1 && t->channels == 1 && t->data,
              "texture %d: dims %d, %d x %d, %d channels", i, t->dims, t->width, t->height,
              t->channels);
        CHECK(t->data && isfinite(t->data[0]) && isfinite(t->data[t->width * t->height - 1]),
              "texture %d: values", i);
    }
    ocio_shader_free(&s);
    ocio_processor_free(&p);
}

/* ocio_view_input: a named space by its OCIO name (no matrix), another converted to Rec. 709,
 * --colorspace's config space as it is. */
static void inputs(void)
{
    display_params d;
    display_params_default(&d);
    image_colour c;
    colour_xform x;
    const char *in;
    char err[256];
    colour_from_space(&c, colour_space_find("acescg"), IMAGE_COLOUR_OPTION);
    CHECK(ocio_view_input(&d, &c, HT_WHITE_ABSOLUTE, &in, &x, err, sizeof err), "%s", err);
    CHECK(strcmp(in, "ACEScg") == 0 && colour_xform_is_identity(&x), "acescg: %s", in);
    colour_from_space(&c, colour_space_find("radiance"), IMAGE_COLOUR_OPTION);
    CHECK(ocio_view_input(&d, &c, HT_WHITE_ABSOLUTE, &in, &x, err, sizeof err), "%s", err);
    CHECK(strcmp(in, "Linear Rec.709 (sRGB)") == 0 && !colour_xform_is_identity(&x),
          "radiance: %s", in);
    d.ocio_input = "sRGB - Texture";
    CHECK(ocio_view_input(&d, &c, HT_WHITE_ABSOLUTE, &in, &x, err, sizeof err), "%s", err);
    CHECK(strcmp(in, "sRGB - Texture") == 0 && colour_xform_is_identity(&x), "option: %s", in);
}

int main(void)
{
    char err[512];
    ocio_config *c = ocio_config_load(ocio_bundled_path(), err, sizeof err);
    CHECK(c, "the bundled config: %s", err);
    if (c) {
        CHECK(strcmp(ocio_config_path(c), ocio_bundled_path()) == 0, "path %s",
              ocio_config_path(c));
        lists(c);
        processors(c);
        shaders(c);
    }
    ocio_config_free(&c);
    inputs();
    ocio_config *bad = ocio_config_load("/nonexistent/config.ocio", err, sizeof err);
    CHECK(!bad && strstr(err, "/nonexistent/config.ocio"), "a missing config: %s", err);
    ocio_config_free(&bad);
    return test_finish("test_ocio_api");
}
