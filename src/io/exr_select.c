/* OpenEXR part and layer choice (contract in exr_select.h). A layer is a channel-name prefix:
 * "diffuse" for diffuse.R; the un-prefixed channels are the layer "". */
#include "exr_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layer of a channel name: everything before the last '.', "" for none. */
static size_t layer_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : 0;
}

static const char *suffix(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

static bool in_layer(const char *name, const char *layer)
{
    size_t ll = layer_len(name);
    return ll == strlen(layer) && strncmp(name, layer, ll) == 0;
}

/* Index of channel LAYER.SUF (or SUF when LAYER is ""), -1 when absent. */
static int find_in_layer(const exr_part_info *p, const char *layer, const char *suf)
{
    for (int c = 0; c < p->nchannels; c++)
        if (in_layer(p->chans[c].name, layer) && strcmp(suffix(p->chans[c].name), suf) == 0)
            return c;
    return -1;
}

static bool layer_has_colour(const exr_part_info *p, const char *layer)
{
    return find_in_layer(p, layer, "R") >= 0 || find_in_layer(p, layer, "G") >= 0 ||
           find_in_layer(p, layer, "B") >= 0 || find_in_layer(p, layer, "Y") >= 0;
}

/* Comma-separated layers of a part, in channel order, "(none)" for un-prefixed channels. */
static void list_layers(const exr_part_info *p, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int c = 0; c < p->nchannels; c++) {
        const char *name = p->chans[c].name;
        size_t ll = layer_len(name);
        bool seen = false;
        for (int k = 0; k < c && !seen; k++)
            seen = layer_len(p->chans[k].name) == ll && strncmp(p->chans[k].name, name, ll) == 0;
        if (seen)
            continue;
        char shown[44], tmp[44];
        snprintf(tmp, sizeof tmp, "%.*s", (int)(ll > 40 ? 40 : ll), name);
        int r = snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? "," : "",
                         ll ? exr_printable(tmp, shown) : "(none)");
        if (r > 0)
            n += (size_t)r;
    }
    if (n >= len && len > 4)
        memcpy(out + len - 4, "...", 4);
}

void exr_describe_channels(const exr_part_info *p, char *out, size_t len)
{
    static const char *const type_names[] = {"uint", "half", "float"};
    size_t n = 0;
    out[0] = '\0';
    for (int t = 0; t < 3; t++) {
        bool any = false;
        for (int c = 0; c < p->nchannels; c++) {
            const exr_chan *ch = &p->chans[c];
            if (ch->type != t)
                continue;
            char shown[44], samp[32] = "";
            if (ch->xs != 1 || ch->ys != 1)
                snprintf(samp, sizeof samp, "@%d,%d", ch->xs, ch->ys);
            int r = snprintf(out + n, n < len ? len - n : 0, "%s%s%s",
                             any ? "," : (n ? "; " : ""), exr_printable(ch->name, shown), samp);
            if (r > 0)
                n += (size_t)r;
            any = true;
        }
        if (any) {
            int r = snprintf(out + n, n < len ? len - n : 0, " (%s)", type_names[t]);
            if (r > 0)
                n += (size_t)r;
        }
    }
    if (n >= len && len > 4)
        memcpy(out + len - 4, "...", 4);
}

int exr_pick_part(const exr_file *f, const char *want, char *why, size_t wl)
{
    const exr_part_info *parts = f->parts;
    int nparts = f->nparts;
    if (!want || !*want)
        return 0;
    bool numeric = true;
    for (const char *s = want; *s; s++)
        numeric = numeric && *s >= '0' && *s <= '9';
    if (numeric && strlen(want) < 9) {
        int k = atoi(want);
        if (k < nparts)
            return k;
    } else {
        for (int k = 0; k < nparts; k++)
            if (strcmp(parts[k].name, want) == 0)
                return k;
    }
    size_t n = (size_t)snprintf(why, wl, "no part '%.40s' (%d part%s:", want, nparts,
                                nparts == 1 ? "" : "s");
    for (int k = 0; k < nparts && n < wl; k++)
        n += (size_t)snprintf(why + n, wl - n, " %d%s%s%s", k, parts[k].name[0] ? " '" : "",
                              parts[k].name, parts[k].name[0] ? "'" : "");
    if (n < wl)
        snprintf(why + n, wl - n, ")");
    return -1;
}

/* The layer shown when none is asked for: "" when the un-prefixed channels have R,G,B or Y,
 * else the first layer that has them, else the un-prefixed channels, else the first layer. */
static void default_layer(const exr_part_info *p, char layer[64])
{
    layer[0] = '\0';
    if (layer_has_colour(p, ""))
        return;
    bool found = false, plain = false;
    for (int c = 0; c < p->nchannels && !found; c++) {
        const char *name = p->chans[c].name;
        size_t ll = layer_len(name);
        if (!ll) {
            plain = true;
            continue;
        }
        char cand[64];
        snprintf(cand, sizeof cand, "%.*s", (int)(ll < 63 ? ll : 63), name);
        if (ll < 63 && layer_has_colour(p, cand)) {
            snprintf(layer, 64, "%s", cand);
            found = true;
        }
    }
    if (!found && !plain) {
        size_t ll = layer_len(p->chans[0].name);
        snprintf(layer, 64, "%.*s", (int)(ll < 63 ? ll : 63), p->chans[0].name);
    }
}

/* The layer WANT names (a trailing '.' dropped), when the part has it. */
static bool wanted_layer(const exr_part_info *p, const char *want, char layer[64], char *why,
                         size_t wl)
{
    snprintf(layer, 64, "%s", want);
    size_t l = strlen(layer);
    if (l && layer[l - 1] == '.')
        layer[l - 1] = '\0';
    bool any = false;
    for (int c = 0; c < p->nchannels && !any; c++)
        any = in_layer(p->chans[c].name, layer);
    if (!any) {
        char layers[192], shown[44];
        list_layers(p, layers, sizeof layers);
        snprintf(why, wl, "no layer '%s' (layers: %s)", exr_printable(layer, shown), layers);
        return false;
    }
    return true;
}

/* A layer without R,G,B or Y: one channel is grey, two or more fill R, G (and B). */
static void fallback_view(const exr_part_info *p, const char *layer, exr_view *v)
{
    int got[3], n = 0;
    v->fallback = true;
    for (int c = 0; c < p->nchannels && n < 3; c++)
        if (in_layer(p->chans[c].name, layer))
            got[n++] = c;
    v->idx[VIEW_A] = -1;
    char s0[44], s1[44], s2[44];
    if (n == 1) {
        v->mode = VIEW_GREY;
        v->idx[VIEW_Y] = got[0];
        snprintf(v->rgb_source, sizeof v->rgb_source, "%.40s as grey",
                 exr_printable(p->chans[got[0]].name, s0));
    } else {
        v->mode = VIEW_RGB;
        for (int k = 0; k < n; k++)
            v->idx[k] = got[k];
        if (n == 2)
            snprintf(v->rgb_source, sizeof v->rgb_source, "%.24s,%.24s as R,G (B=0)",
                     exr_printable(p->chans[got[0]].name, s0),
                     exr_printable(p->chans[got[1]].name, s1));
        else
            snprintf(v->rgb_source, sizeof v->rgb_source, "%.16s,%.16s,%.16s as R,G,B",
                     exr_printable(p->chans[got[0]].name, s0),
                     exr_printable(p->chans[got[1]].name, s1),
                     exr_printable(p->chans[got[2]].name, s2));
    }
}

/* Only the chroma channels of luminance/chroma images may be subsampled, and only by 2,2. */
static bool check_view_sampling(const exr_part_info *p, const exr_view *v, char *why,
                                size_t wl)
{
    char shown[44];
    for (int k = 0; k < VIEW_N; k++) {
        int c = v->idx[k];
        if (c < 0 || k == VIEW_RY || k == VIEW_BY)
            continue;
        if (p->chans[c].xs != 1 || p->chans[c].ys != 1) {
            snprintf(why, wl, "channel '%s' is subsampled (%d,%d); only the chroma channels "
                              "RY, BY of luminance/chroma images may be",
                     exr_printable(p->chans[c].name, shown), p->chans[c].xs, p->chans[c].ys);
            return false;
        }
    }
    for (int k = VIEW_RY; k <= VIEW_BY; k++) {
        int c = v->idx[k];
        if (c >= 0 && !((p->chans[c].xs == 2 && p->chans[c].ys == 2) ||
                        (p->chans[c].xs == 1 && p->chans[c].ys == 1))) {
            snprintf(why, wl, "chroma channel '%s' has sampling %d,%d (only 2,2 and 1,1 are "
                              "supported)",
                     exr_printable(p->chans[c].name, shown), p->chans[c].xs, p->chans[c].ys);
            return false;
        }
    }
    return true;
}

bool exr_pick_view(const exr_part_info *p, const char *want, exr_view *v, char *why, size_t wl)
{
    memset(v, 0, sizeof *v);
    for (int k = 0; k < VIEW_N; k++)
        v->idx[k] = -1;
    char layer[64] = "";
    char shown[44];
    if (!want)
        default_layer(p, layer);
    else if (!wanted_layer(p, want, layer, why, wl))
        return false;
    snprintf(v->layer, sizeof v->layer, "%s", layer);
    static const char *const sufs[VIEW_N] = {"R", "G", "B", "A", "Y", "RY", "BY"};
    for (int k = 0; k < VIEW_N; k++)
        v->idx[k] = find_in_layer(p, layer, sufs[k]);
    char pre[42] = "";   /* "%.40s." */
    if (layer[0])
        snprintf(pre, sizeof pre, "%.40s.", exr_printable(layer, shown));
    if (v->idx[VIEW_R] >= 0 || v->idx[VIEW_G] >= 0 || v->idx[VIEW_B] >= 0) {
        v->mode = VIEW_RGB;
        v->idx[VIEW_Y] = v->idx[VIEW_RY] = v->idx[VIEW_BY] = -1;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sR,%sG,%sB", pre, pre, pre);
    } else if (v->idx[VIEW_Y] >= 0 && (v->idx[VIEW_RY] >= 0 || v->idx[VIEW_BY] >= 0)) {
        v->mode = VIEW_YC;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sY,%sRY,%sBY (luminance/chroma)", pre,
                 pre, pre);
    } else if (v->idx[VIEW_Y] >= 0) {
        v->mode = VIEW_GREY;
        snprintf(v->rgb_source, sizeof v->rgb_source, "%sY (R=G=B=Y)", pre);
    } else {
        fallback_view(p, layer, v);
    }
    return check_view_sampling(p, v, why, wl);
}

hdr_part_info *exr_describe_parts(const exr_file *f)
{
    hdr_part_info *info = calloc((size_t)f->nparts, sizeof *info);
    for (int k = 0; info && k < f->nparts; k++) {
        const exr_part_info *q = &f->parts[k];
        snprintf(info[k].name, sizeof info[k].name, "%s", q->name);
        snprintf(info[k].type, sizeof info[k].type, "%s", q->tiled ? "tiled" : "scanline");
        snprintf(info[k].compression, sizeof info[k].compression, "%s",
                 exr_compression_name(q->compression));
        memcpy(info[k].data_window, q->dw, sizeof q->dw);
        exr_describe_channels(q, info[k].channels, sizeof info[k].channels);
        list_layers(q, info[k].layers, sizeof info[k].layers);
    }
    return info;
}
