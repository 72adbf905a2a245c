/* Saving a session (docs/viewer.md, Sessions; viewer_session.c reads one): the open images
 * as absolute paths, the shown one, the reference, the settings as the command line's options,
 * the view, the comparison and the pins, as versioned JSON written through a temporary file.
 * Reads the state only. */
#define _DEFAULT_SOURCE   /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "viewer_internal.h"

/* The settings the viewer holds, as options. */
static void write_settings(FILE *f, const viewer *v)
{
    const display_params *d = &v->s.disp;
    const tonemap_params *t = &v->s.tm;
    fprintf(f, "  \"settings\": [\"--view\", \"%s\", \"--exposure\", \"%.17g\", "
               "\"--offset\", \"%.17g\", \"--ldmax\", \"%.17g\", \"--drange\", \"%.17g\", "
               "\"--msaa\", \"%d\", \"--fc-log\", \"%d\", \"--fc-steps\", \"%d\", "
               "\"--fc-style\", \"%s\", \"--channel\", \"%s\", \"--channel-palette\", \"%s\", "
               "\"--layout\", \"%s\"",
            ht_enum_name(display_modes, d->mode), d->exposure, d->offset, t->ldmax, t->drange,
            v->s.msaa, d->fc_decades, d->fc_steps, ht_enum_name(display_fc_styles, d->fc_style),
            ht_enum_name(display_channels, d->channel),
            ht_enum_name(display_channel_palettes, d->ch_palette),
            ht_enum_name(ht_layouts, v->s.layout));
    if (d->fc_max > 0)
        fprintf(f, ", \"--fc-max\", \"%.17g\"", d->fc_max);
    if (t->lmin > 0 && t->lmax > 0)   /* both 0: automatic */
        fprintf(f, ", \"--lmin\", \"%.17g\", \"--lmax\", \"%.17g\"", t->lmin, t->lmax);
    fprintf(f,
            ", \"--ceiling\", \"%s\", \"--sampling\", \"%s\", \"--point-samples\", \"%s\", "
            "\"--luminance\", \"%s\", \"--bins\", \"%d\"",
            ht_enum_name(tonemap_ceilings, t->ceiling),
            ht_enum_name(tonemap_samplings, t->sampling), t->point_samples ? "on" : "off",
            ht_enum_name(tonemap_luminances, t->luminance), t->bins);
    if (t->fov > 0)
        fprintf(f, ", \"--fov\", \"%.17g\"", t->fov);
    const char *ocio[][2] = {{"--ocio", d->ocio_config}, {"--ocio-display", d->ocio_display},
                             {"--ocio-view", d->ocio_view}, {"--ocio-look", d->ocio_look}};
    for (int i = 0; i < 4; i++)
        if (ocio[i][1]) {
            fprintf(f, ", \"%s\", ", ocio[i][0]);
            commands_json_str(f, ocio[i][1]);
        }
    fputs("],\n", f);
}

/* A string member, or null. */
static void write_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, "  \"%s\": ", key);
    if (s)
        commands_json_str(f, s);
    else
        fputs("null", f);
    fputs(",\n", f);
}

/* What the settings' options do not hold: the human-vision switches (they can only be turned
 * on as options), the OCIO input space, the region, the shown part and layer (of a file that
 * has more than one). */
static void write_state(FILE *f, const viewer *v)
{
    const tonemap_params *t = &v->s.tm;
    fprintf(f, "  \"human\": {\"veil\": %s, \"acuity\": %s, \"color_loss\": %s},\n",
            t->veil ? "true" : "false", t->acuity ? "true" : "false",
            t->color_loss ? "true" : "false");
    write_str(f, "ocio_input", v->s.disp.ocio_input);
    if (v->doc.region_valid) {
        int r[4];
        viewer_region_rect(v, r);
        fprintf(f, "  \"region\": [%d, %d, %d, %d],\n", r[0], r[1], r[2], r[3]);
    } else {
        fputs("  \"region\": null,\n", f);
    }
    char names[VIEWER_MAX_LAYERS][64];
    bool layers = v->doc.have_image && viewer_layer_names(v, names, VIEWER_MAX_LAYERS) > 1;
    if (v->doc.have_image && v->doc.part_count > 1)
        fprintf(f, "  \"part\": %d,\n", v->doc.img.part);
    else
        fputs("  \"part\": null,\n", f);
    write_str(f, "layer", layers ? v->doc.img.layer : NULL);
}

static void write_path(FILE *f, const char *path)
{
    char abs[PATH_MAX];
    commands_json_str(f, realpath(path, abs) ? abs : path);
}

static void write_session(FILE *f, const viewer *v)
{
    fprintf(f, "{\n  \"version\": %d,\n  \"files\": [", SESSION_VERSION);
    for (int i = 0, n = 0; i < v->doc.list.nfiles; i++) {
        if (viewer_net_name(v, v->doc.list.files[i]))
            continue;   /* a network image is no file to open again */
        fputs(n++ ? ", " : "", f);
        write_path(f, v->doc.list.files[i]);
    }
    fputs("],\n  \"current\": ", f);
    if (v->doc.list.cur >= 0 && v->doc.list.cur < v->doc.list.nfiles)
        write_path(f, v->doc.list.files[v->doc.list.cur]);
    else
        fputs("null", f);
    fputs(",\n  \"reference\": ", f);
    if (viewer_ref_path(v)[0])
        write_path(f, viewer_ref_path(v));
    else
        fputs("null", f);
    fputs(",\n", f);
    write_settings(f, v);
    write_state(f, v);
    fprintf(f, "  \"view\": {\"zoom\": %.17g, \"cx\": %.17g, \"cy\": %.17g, \"fitted\": %s},\n",
            v->s.view.zoom, v->s.view.cx, v->s.view.cy, v->s.fitted ? "true" : "false");
    fprintf(f, "  \"compare\": \"%s\",\n  \"wipe\": %.17g,\n  \"wipe_horizontal\": %s,\n",
            ht_enum_name(compare_modes, v->s.compare), v->s.wipe,
            v->s.wipe_horizontal ? "true" : "false");
    fputs("  \"pins\": [", f);
    for (int i = 0; i < v->s.npins; i++)
        fprintf(f, "%s[%d, %d]", i ? ", " : "", v->s.pins[i][0], v->s.pins[i][1]);
    fprintf(f, "],\n  \"pin_values\": \"%s\"\n}\n",
            ht_enum_name(pin_value_modes, v->s.pin_values));
}

bool viewer_session_save(viewer *v, const char *path, char *err, size_t errlen)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return false;
    }
    write_session(f, v);
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}
