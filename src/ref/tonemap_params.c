/* tonemap_params as data: the defaults, the presets and the tables of its enumerations. */
#include "tonemap.h"

#include <limits.h>
#include <string.h>

#include "settings.h"

const ht_enum tonemap_ceilings[] = {
    {HT_CEILING_NONE, "none", "none"},
    {HT_CEILING_LINEAR, "linear", "linear"},
    {HT_CEILING_HUMAN, "human", "human"},
    {0, NULL, NULL},
};

const ht_enum tonemap_transfers[] = {
    {HT_TRANSFER_SRGB, "srgb", "sRGB"},
    {HT_TRANSFER_GAMMA, "gamma", "gamma"},
    {0, NULL, NULL},
};

const ht_enum tonemap_hdr_transfers[] = {
    {HT_TRANSFER_SRGB, "none", "SDR"},
    {HT_TRANSFER_PQ, "pq", "PQ (SMPTE ST 2084)"},
    {HT_TRANSFER_HLG, "hlg", "HLG (BT.2100)"},
    {0, NULL, NULL},
};

const ht_enum tonemap_samplings[] = {
    {HT_SAMPLING_PIXELS, "pixels", "every pixel"},
    {HT_SAMPLING_FOVEAL, "foveal", "foveal"},
    {0, NULL, NULL},
};

const ht_enum tonemap_luminances[] = {
    {HT_LUMINANCE_FILE, "file", "the file's primaries"},
    {HT_LUMINANCE_RADIANCE, "radiance", "Radiance"},
    {HT_LUMINANCE_REC709, "rec709", "Rec. 709"},
    {0, NULL, NULL},
};

const ht_enum tonemap_presets[] = {
    {HT_PRESET_DEFAULT, "default", "default"},
    {HT_PRESET_PCOND, "pcond", "pcond"},
    {0, NULL, NULL},
};

/* Names as pcond-reference's params.tsv has them. */
const ht_enum tonemap_mappings[] = {
    {HT_MAP_NONE, "none", "none (no pixel with positive finite luminance)"},
    {HT_MAP_HISTOGRAM, "histogram", "histogram"},
    {HT_MAP_LINEAR_FITS, "linear(range<=display)", "linear (scene range fits the display)"},
    {HT_MAP_LINEAR_GAVE_UP, "linear(no_compression_needed)",
     "linear (ceiling loop gave up: no compression needed)"},
    {HT_MAP_EQUALIZE, "equalize", "histogram equalisation (no ceiling)"},
    {HT_MAP_LINEAR_FORCED, "linear(-l)", "linear (forced)"},
    {0, NULL, NULL},
};

/* A value the table does not list counts as HT_MAP_NONE. */
static int known_mapping(unsigned mapping)
{
    return mapping <= INT_MAX && ht_enum_has(tonemap_mappings, (int)mapping) ? (int)mapping
                                                                             : HT_MAP_NONE;
}

const char *tonemap_mapping_name(unsigned mapping)
{
    return ht_enum_label(tonemap_mappings, known_mapping(mapping));
}

const char *tonemap_mapping_pcond_name(unsigned mapping)
{
    return ht_enum_name(tonemap_mappings, known_mapping(mapping));
}

/* X(field): the fields a preset decides. */
#define PRESET_FIELDS(X) \
    X(bins)              \
    X(ldmax)             \
    X(drange)            \
    X(sampling)          \
    X(fov)               \
    X(point_samples)     \
    X(luminance)         \
    X(pcond)

static const struct preset_values {
    int preset;
    bool automatic_range;   /* lmin = lmax = 0 (pcond always measures its range) */
    tonemap_params p;       /* only the PRESET_FIELDS count */
} PRESETS[] = {
    /* bins, ldmax, drange and fov: the settings table's defaults (tonemap_apply_preset) */
    {HT_PRESET_DEFAULT, false,
     {.sampling = HT_SAMPLING_PIXELS, .point_samples = 0, .luminance = HT_LUMINANCE_FILE,
      .pcond = false}},
    {HT_PRESET_PCOND, true,
     {.bins = 100, .ldmax = 100.0, .drange = 100.0, .sampling = HT_SAMPLING_FOVEAL, .fov = 40.0,
      .point_samples = 1, .luminance = HT_LUMINANCE_RADIANCE, .pcond = true}},
};

void tonemap_apply_preset(tonemap_params *p, int preset)
{
    for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++) {
        const struct preset_values *v = &PRESETS[i];
        if (v->preset != preset)
            continue;
#define COPY_(field) p->field = v->p.field;
        PRESET_FIELDS(COPY_)
#undef COPY_
        if (v->automatic_range)
            p->lmin = p->lmax = 0.0;
    }
    if (preset == HT_PRESET_DEFAULT) {
        p->bins = (int)ht_settings[HT_SET_BINS].def;
        p->ldmax = ht_settings[HT_SET_LDMAX].def;
        p->drange = ht_settings[HT_SET_DRANGE].def;
        p->fov = ht_settings[HT_SET_FOV].def;
    }
}

void tonemap_params_default(tonemap_params *p)
{
    memset(p, 0, sizeof *p);
    p->ceiling = HT_CEILING_LINEAR;
    p->transfer = HT_TRANSFER_SRGB;
    p->gamma = 2.2;
    p->scale = 1.0;
    colour_xform_identity(&p->colour);
    tonemap_apply_preset(p, HT_PRESET_DEFAULT);
}

bool tonemap_params_equal(const tonemap_params *a, const tonemap_params *b)
{
#define EQUAL_(type, name) &&memcmp(&a->name, &b->name, sizeof a->name) == 0
    return true TONEMAP_PARAMS_FIELDS(EQUAL_);
#undef EQUAL_
}

bool tonemap_set_colour(tonemap_params *p, const image_colour *c, char *why, size_t wl)
{
    return colour_xform_make(c, p->display_space, p->white, &p->colour, why, wl);
}
