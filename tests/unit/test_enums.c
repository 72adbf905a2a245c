/* The enumeration tables (ht_enum.h), the presets as data, tonemap_params_equal and the
 * shared constants the shader preamble carries. No GPU needed. */
#include <string.h>

#include "options.h"
#include "shaders.h"
#include "testutil.h"
#include "tonemap.h"

/* Distinct values and names, every name found back, ht_enum_next visiting every value once. */
static void check_table(const char *what, const ht_enum *t)
{
    int n = 0;
    for (const ht_enum *e = t; e->name; e++, n++) {
        CHECK(e->label && e->label[0], "%s: %s has no label", what, e->name);
        for (const ht_enum *f = t; f != e; f++)
            CHECK(f->value != e->value && strcmp(f->name, e->name) != 0, "%s: %s and %s clash",
                  what, f->name, e->name);
        int v = -1;
        CHECK(ht_enum_find(t, e->name, &v) && v == e->value, "%s: %s not found", what, e->name);
        CHECK(ht_enum_has(t, e->value), "%s: %d not listed", what, e->value);
        CHECK(strcmp(ht_enum_name(t, e->value), e->name) == 0, "%s: name of %d", what, e->value);
        CHECK(strcmp(ht_enum_label(t, e->value), e->label) == 0, "%s: label of %d", what, e->value);
    }
    CHECK(n >= 2, "%s: %d entries", what, n);
    int v = t[0].value, steps = 0;
    do {
        v = ht_enum_next(t, v);
        steps++;
    } while (v != t[0].value && steps <= n);
    CHECK(steps == n, "%s: ht_enum_next comes back after %d steps, not %d", what, steps, n);
    int dummy;
    CHECK(!ht_enum_find(t, "no-such-name", &dummy), "%s: found a name it lacks", what);
    CHECK(strcmp(ht_enum_name(t, -12345), "?") == 0, "%s: name of an unknown value", what);
}

static void check_tables(void)
{
    check_table("ceilings", tonemap_ceilings);
    check_table("transfers", tonemap_transfers);
    check_table("samplings", tonemap_samplings);
    check_table("luminances", tonemap_luminances);
    check_table("presets", tonemap_presets);
    check_table("mappings", tonemap_mappings);
    check_table("backends", options_backends);
    check_table("grey kernels", options_grey_kernels);
    check_table("curve formats", options_curve_formats);

    char buf[64];
    ht_enum_list(tonemap_ceilings, "|", buf, sizeof buf);
    CHECK(strcmp(buf, "none|linear|human") == 0, "ceiling list '%s'", buf);
    ht_enum_list(tonemap_ceilings, "|", buf, 7);
    CHECK(strcmp(buf, "none|l") == 0, "truncated list '%s'", buf);
    /* The viewer's C key: linear -> human -> none -> linear. */
    CHECK(ht_enum_next(tonemap_ceilings, HT_CEILING_LINEAR) == HT_CEILING_HUMAN &&
              ht_enum_next(tonemap_ceilings, HT_CEILING_HUMAN) == HT_CEILING_NONE &&
              ht_enum_next(tonemap_ceilings, HT_CEILING_NONE) == HT_CEILING_LINEAR,
          "ceiling cycle");
    CHECK(strcmp(tonemap_mapping_name(999), tonemap_mapping_name(HT_MAP_NONE)) == 0 &&
              strcmp(tonemap_mapping_pcond_name(999), "none") == 0,
          "an unknown mapping reads as none");
}

static void check_presets(void)
{
    tonemap_params d, p;
    tonemap_params_default(&d);
    CHECK(d.bins == 100 && d.ldmax == 100 && d.drange == 100 && d.ceiling == HT_CEILING_LINEAR &&
              d.transfer == HT_TRANSFER_SRGB && d.gamma == 2.2 && d.scale == 1 &&
              d.sampling == HT_SAMPLING_PIXELS && d.fov == 40 && !d.point_samples &&
              d.luminance == HT_LUMINANCE_FILE && !d.force_linear && !d.pcond && d.lmin == 0 &&
              d.lmax == 0,
          "the defaults of docs/operator.md");
    /* pcond: its fields, the range automatic; what it does not decide stays. */
    p = d;
    p.lmin = 1;
    p.lmax = 10;
    p.ceiling = HT_CEILING_HUMAN;
    p.scale = 3;
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    CHECK(p.pcond && p.sampling == HT_SAMPLING_FOVEAL && p.point_samples == 1 &&
              p.luminance == HT_LUMINANCE_RADIANCE && p.fov == 40 && p.bins == 100 &&
              p.lmin == 0 && p.lmax == 0 && p.ceiling == HT_CEILING_HUMAN && p.scale == 3,
          "the pcond preset");
    /* Back to the default preset: the defaults again, but for what no preset decides. */
    p.lmin = 1;
    p.lmax = 10;
    tonemap_apply_preset(&p, HT_PRESET_DEFAULT);
    tonemap_params want = d;
    want.lmin = 1;
    want.lmax = 10;
    want.ceiling = HT_CEILING_HUMAN;
    want.scale = 3;
    CHECK(tonemap_params_equal(&p, &want), "pcond then default");
}

static void check_equal(void)
{
    tonemap_params a, b;
    tonemap_params_default(&a);
    /* Different padding bytes do not count. */
    memset(&b, 0xA5, sizeof b);
    b = a;
    CHECK(tonemap_params_equal(&a, &b), "a copy is equal");
#define DIFFER_(type, name)                                                       \
    b = a;                                                                        \
    ((unsigned char *)&b.name)[0] ^= 1;   /* any type: its first byte's lowest bit */ \
    CHECK(!tonemap_params_equal(&a, &b) && !tonemap_params_equal(&b, &a),         \
          "a different " #name " is not equal");
    TONEMAP_PARAMS_FIELDS(DIFFER_)
#undef DIFFER_
}

/* Every shader sees the shared constants as #defines (the preamble from gpu_shared.h). */
static void check_preamble(void)
{
    const char *pre = shaders_preamble();
    char line[96];
#define HAS_(name, value)                                                         \
    snprintf(line, sizeof line, "#define %s %d\n", #name, (int)(value));          \
    CHECK(strstr(pre, line) != NULL, "the preamble lacks %s", #name);
    HT_PIXEL_CLASSES(HAS_)
    HT_BINDINGS(HAS_)
    HT_STATS_BINDINGS(HAS_)
#undef HAS_
}

int main(void)
{
    check_tables();
    check_presets();
    check_equal();
    check_preamble();
    return test_finish("test_enums");
}
