/* The document's queries: what the open images are called, what a load asks for, the parts'
 * layers, the reference's entry, the enumerations the parts name. Reads only; calls nothing
 * above it. */
#include <stdio.h>
#include <string.h>

#include "tev_server.h"
#include "viewer_internal.h"

const char *viewer_base_name(const char *path) { return file_list_name(path); }

image_load_options viewer_load_options(const viewer *v, bool shown, char *part, size_t plen,
                                       char *layer, size_t llen)
{
    image_load_options lo = {0};
    const char *p = shown && v->doc.part_set ? v->doc.part_sel : v->doc.opt_part;
    const char *l = shown && v->doc.layer_set ? v->doc.layer_sel : v->doc.opt_layer;
    snprintf(part, plen, "%s", p ? p : "");
    snprintf(layer, llen, "%s", l ? l : "");
    lo.part = p ? part : NULL;
    lo.layer = l ? layer : NULL;
    lo.max_pixels = v->doc.max_pixels >= 1 ? (uint64_t)v->doc.max_pixels : 0;
    lo.colour = v->doc.opt_colour;
    return lo;
}

int viewer_layer_names(const viewer *v, char (*names)[64], int max)
{
    int n = 0;
    const char *s = v->doc.layers;
    while (*s && n < max) {
        size_t len = strcspn(s, ",");
        if (len < 64 && !(len >= 3 && strncmp(s + len - 3, "...", 3) == 0)) {
            snprintf(names[n], 64, "%.*s", (int)len, s);
            if (strcmp(names[n], "(none)") == 0)
                names[n][0] = '\0';
            n++;
        }
        s += len + (s[len] == ',');
    }
    return n;
}

const char *viewer_net_name(const viewer *v, const char *path)
{
    size_t n = strlen(VIEWER_NET_PREFIX);
    return v->net && strncmp(path, VIEWER_NET_PREFIX, n) == 0 ? path + n : NULL;
}

const ht_enum compare_modes[] = {
    {COMPARE_OFF, "off", "off"},
    {COMPARE_WIPE, "wipe", "wipe: current | reference"},
    {COMPARE_DIFF, "difference", "difference (signed)"},
    {COMPARE_ABS, "absolute", "absolute error"},
    {COMPARE_SQUARED, "squared", "squared error"},
    {COMPARE_RELATIVE, "relative", "relative squared error"},
    {COMPARE_FLIP, "flip", "LDR-FLIP (the pictures shown)"},
    {COMPARE_HDR_FLIP, "hdr-flip", "HDR-FLIP (the linear images)"},
    {0, NULL, NULL},
};

const char *viewer_ref_path(const viewer *v)
{
    return v->s.ref >= 0 && v->s.ref < v->doc.list.nfiles ? v->doc.list.files[v->s.ref] : "";
}

const ht_enum pin_value_modes[] = {
    {PIN_FILE, "file", "file's (linear)"},
    {PIN_WORKING, "working", "working space"},
    {PIN_DISPLAY, "display", "display bytes"},
    {0, NULL, NULL},
};

const char *viewer_tile_name(const viewer *v, int i)
{
    int e = v->rnd.tiles[i].entry;
    return e >= 0 && e < v->doc.list.nfiles ? viewer_base_name(v->doc.list.files[e]) : "";
}

const display_params *viewer_display_in(const viewer_render *r, const session *s)
{
    return s->disp.mode == HT_VIEW_TONEMAP ? NULL : &r->disp_res;
}

bool viewer_net_load(viewer *v, const char *name, hdr_image *img, char *err, size_t errlen)
{
    if (!v->net) {
        snprintf(err, errlen, "not listening");
        return false;
    }
    return tev_server_copy_image(v->net, name, img, err, errlen);
}
