/* stats --hdr (stats_hdr.h). */
#include "stats_hdr.h"

#include <stdlib.h>

#include "colour.h"
#include "tonemap_fast.h"
#include "transfer.h"

typedef struct hdr_meta {
    double cll, fall;      /* cd/m^2 */
    double xy[4][2];       /* the display's R, G, B, white */
    double ldmax, ldmin;
    char x265[256];        /* x265's parameters of them (x265_params) */
} hdr_meta;

/* x265's master-display and max-cll (G, B, R order in 0.00002, luminance in 0.0001 cd/m^2). */
static void x265_params(const hdr_meta *m, char *buf, size_t len)
{
    const int order[3] = {1, 2, 0};
    int n = snprintf(buf, len, "master-display=");
    for (int i = 0; i < 3; i++)
        n += snprintf(buf + n, len - (size_t)n, "%c(%ld,%ld)", "GBR"[i],
                      lround(m->xy[order[i]][0] / 0.00002), lround(m->xy[order[i]][1] / 0.00002));
    snprintf(buf + n, len - (size_t)n, "WP(%ld,%ld)L(%ld,%ld):max-cll=%ld,%ld",
             lround(m->xy[3][0] / 0.00002), lround(m->xy[3][1] / 0.00002),
             lround(m->ldmax * 1e4), lround(m->ldmin * 1e4), lround(m->cll), lround(m->fall));
}

/* The light levels of the 16-bit output (the CPU's codes, which the GPU's equal within one:
 * test_hdr_gpu), the display's values and x265's parameters; false when --hdr is not asked
 * for or out of memory. */
static bool measure(const ht_options *o, const hdr_image *img, hdr_meta *m)
{
    if (o->hdr == HT_TRANSFER_SRGB)
        return false;
    size_t n = (size_t)img->width * img->height;
    uint16_t *px = malloc(n * 3 * sizeof *px);
    tonemap_result *r = malloc(sizeof *r);
    double lum[3];
    colour_display_lum(o->tm.display_space, lum);
    bool ok = px && r;
    if (ok) {
        tonemap_fast_analyze(img, &o->tm, r, o->jobs);
        tonemap_fast_apply16(img, &o->tm, r, px, o->jobs);
        ok = transfer_light_levels(px, n, o->tm.transfer, o->tm.ldmax, lum, &m->cll, &m->fall);
    }
    free(px);
    free(r);
    colour_display_xy(o->tm.display_space, m->xy);
    m->ldmax = o->tm.ldmax;
    m->ldmin = o->tm.ldmax / o->tm.drange;
    x265_params(m, m->x265, sizeof m->x265);
    return ok;
}

void stats_hdr_json(FILE *f, const ht_options *o, const hdr_image *img)
{
    hdr_meta m;
    if (!measure(o, img, &m))
        return;
    fprintf(f, ", \"hdr\": {\"transfer\": \"%s\", \"max_cll\": %.6g, \"max_fall\": %.6g, "
               "\"mastering\": {\"primaries\": [[%.4f, %.4f], [%.4f, %.4f], [%.4f, %.4f]], "
               "\"white\": [%.4f, %.4f], \"max_luminance\": %.6g, \"min_luminance\": %.6g}, "
               "\"x265\": \"%s\"}",
            ht_enum_name(tonemap_hdr_transfers, o->hdr), m.cll, m.fall, m.xy[0][0], m.xy[0][1],
            m.xy[1][0], m.xy[1][1], m.xy[2][0], m.xy[2][1], m.xy[3][0], m.xy[3][1], m.ldmax,
            m.ldmin, m.x265);
}

void stats_hdr_text(FILE *f, const ht_options *o, const hdr_image *img)
{
    hdr_meta m;
    if (!measure(o, img, &m))
        return;
    fprintf(f, "hdr           %s: MaxCLL %.6g, MaxFALL %.6g cd/m^2; mastering display "
               "%s, %g..%g cd/m^2\nx265          %s\n",
            ht_enum_name(tonemap_hdr_transfers, o->hdr), m.cll, m.fall,
            ht_enum_name(colour_display_spaces, o->tm.display_space), m.ldmin, m.ldmax, m.x265);
}
