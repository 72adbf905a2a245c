/* Sessions (docs/viewer.md, Sessions): the open images, the reference, the shown image, the
 * settings (the layout among them), the view and the pinned pixels, as versioned JSON (a key added
 * later is optional within its version: a file written before it still reads). The settings are
 * written as the command line's options and read back through options_parse, so that the option
 * table's limits check them (no limit written twice). */
#define _DEFAULT_SOURCE   /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "commands.h"
#include "json_read.h"
#include "viewer_internal.h"

enum { SESSION_MAX_BYTES = 4 << 20 };

/* ---------------------------------------------------------------------------------------
 * Reading */

static char *read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    char *buf = malloc(SESSION_MAX_BYTES + 1);
    *len = buf ? fread(buf, 1, SESSION_MAX_BYTES + 1, f) : 0;
    bool bad = !buf || ferror(f) || *len > SESSION_MAX_BYTES;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, !buf ? "out of memory" : *len > SESSION_MAX_BYTES
                                                          ? "larger than 4 MiB: no session"
                                                          : "cannot read");
        free(buf);
        return NULL;
    }
    return buf;
}

/* Member KEY of TYPE (JSON_NULL also accepted where NULL_OK), or an error naming it. */
static const json_value *member(const json_value *o, const char *key, int type, bool null_ok,
                                char *err, size_t errlen)
{
    const json_value *m = json_get(o, key);
    static const char *names[] = {"null", "a boolean", "a number", "a string", "a list",
                                  "an object"};
    if (m && (m->type == type || (null_ok && m->type == JSON_NULL)))
        return m;
    snprintf(err, errlen, "\"%s\" %s %s", key, m ? "is not" : "is missing: expected",
             names[type]);
    return NULL;
}

static bool check_version(const json_value *root, char *err, size_t errlen)
{
    const json_value *ver = member(root, "version", JSON_NUMBER, false, err, errlen);
    if (!ver)
        return false;
    if (ver->num != floor(ver->num) || ver->num < 1) {
        snprintf(err, errlen, "\"version\" %g is not a session version", ver->num);
        return false;
    }
    if (ver->num > SESSION_VERSION) {
        snprintf(err, errlen, "session version %.0f is newer than this hdrtone reads (%d)",
                 ver->num, SESSION_VERSION);
        return false;
    }
    return true;
}

/* The members' types, all checked before anything is used. */
static bool check_types(const json_value *root, char *err, size_t errlen)
{
    const json_value *files = member(root, "files", JSON_ARRAY, false, err, errlen);
    const json_value *set = files ? member(root, "settings", JSON_ARRAY, false, err, errlen)
                                  : NULL;
    const json_value *view = set ? member(root, "view", JSON_OBJECT, false, err, errlen) : NULL;
    if (!view || !member(root, "current", JSON_STRING, true, err, errlen) ||
        !member(root, "reference", JSON_STRING, true, err, errlen) ||
        !member(root, "compare", JSON_STRING, false, err, errlen) ||
        !member(root, "wipe", JSON_NUMBER, false, err, errlen) ||
        !member(root, "wipe_horizontal", JSON_BOOL, false, err, errlen) ||
        !member(view, "zoom", JSON_NUMBER, false, err, errlen) ||
        !member(view, "cx", JSON_NUMBER, false, err, errlen) ||
        !member(view, "cy", JSON_NUMBER, false, err, errlen) ||
        !member(view, "fitted", JSON_BOOL, false, err, errlen))
        return false;
    for (int i = 0; i < files->n; i++)
        if (files->items[i].type != JSON_STRING) {
            snprintf(err, errlen, "\"files\" item %d is not a string", i + 1);
            return false;
        }
    for (int i = 0; i < set->n; i++)
        if (set->items[i].type != JSON_STRING) {
            snprintf(err, errlen, "\"settings\" item %d is not a string", i + 1);
            return false;
        }
    return true;
}

/* The view, the comparison and the divider, within their limits. */
static bool read_view(const json_value *root, viewer_session_file *s, char *err, size_t errlen)
{
    const json_value *view = json_get(root, "view");
    s->view.zoom = json_get(view, "zoom")->num;
    s->view.cx = json_get(view, "cx")->num;
    s->view.cy = json_get(view, "cy")->num;
    s->fitted = json_get(view, "fitted")->b;
    s->wipe = json_get(root, "wipe")->num;
    s->wipe_horizontal = json_get(root, "wipe_horizontal")->b;
    if (!(s->view.zoom >= VIEW_ZOOM_MIN && s->view.zoom <= VIEW_ZOOM_MAX) ||
        fabs(s->view.cx) > 1e9 || fabs(s->view.cy) > 1e9) {
        snprintf(err, errlen, "\"view\" out of range (zoom %g..%g, centre within 1e9)",
                 VIEW_ZOOM_MIN, VIEW_ZOOM_MAX);
        return false;
    }
    if (!(s->wipe >= 0 && s->wipe <= 1)) {
        snprintf(err, errlen, "\"wipe\" %g is not within 0..1", s->wipe);
        return false;
    }
    const char *cmp = json_get(root, "compare")->str;
    if (!ht_enum_find(compare_modes, cmp, &s->compare)) {
        snprintf(err, errlen, "\"compare\" \"%.40s\" is no comparison mode", cmp);
        return false;
    }
    return true;
}

/* The pinned pixels and how their values show: optional (sessions written before pins
 * have neither); each pin two integers within the image coordinates' range. */
static bool read_pins(const json_value *root, viewer_session_file *s, char *err, size_t errlen)
{
    const json_value *pins = json_get(root, "pins"), *mode = json_get(root, "pin_values");
    if (pins && (pins->type != JSON_ARRAY || pins->n > VIEWER_PINS_MAX)) {
        snprintf(err, errlen, "\"pins\" is not a list of at most %d pins", VIEWER_PINS_MAX);
        return false;
    }
    for (int i = 0; pins && i < pins->n; i++) {
        const json_value *p = &pins->items[i];
        bool ok = p->type == JSON_ARRAY && p->n == 2;
        for (int k = 0; ok && k < 2; k++) {
            double x = p->items[k].num;
            ok = p->items[k].type == JSON_NUMBER && x == floor(x) && fabs(x) <= 1e9;
            s->pins[i][k] = ok ? (int)x : 0;
        }
        if (!ok) {
            snprintf(err, errlen, "\"pins\" item %d is not [x, y] (integers within 1e9)", i + 1);
            return false;
        }
    }
    s->npins = pins ? pins->n : 0;
    if (mode && (mode->type != JSON_STRING ||
                 !ht_enum_find(pin_value_modes, mode->str, &s->pin_values))) {
        snprintf(err, errlen, "\"pin_values\" is none of file, working, display");
        return false;
    }
    return true;
}

/* Member KEY of TYPE or null, or absent (written before it: optional within version 1). */
static bool optional(const json_value *root, const char *key, int type, char *err, size_t errlen)
{
    return !json_get(root, key) || member(root, key, type, true, err, errlen);
}

/* The human-vision switches, the OCIO input, the region, the part and layer: optional. */
static bool read_state(const json_value *root, viewer_session_file *s, char *err, size_t errlen)
{
    const json_value *human = json_get(root, "human"), *region = json_get(root, "region");
    const json_value *part = json_get(root, "part");
    if (!optional(root, "human", JSON_OBJECT, err, errlen) ||
        !optional(root, "ocio_input", JSON_STRING, err, errlen) ||
        !optional(root, "region", JSON_ARRAY, err, errlen) ||
        !optional(root, "part", JSON_NUMBER, err, errlen) ||
        !optional(root, "layer", JSON_STRING, err, errlen))
        return false;
    const char *switches[3] = {"veil", "acuity", "color_loss"};
    for (int i = 0; human && human->type == JSON_OBJECT && i < 3; i++)
        if (!member(human, switches[i], JSON_BOOL, false, err, errlen))
            return false;
    s->has_region = region && region->type == JSON_ARRAY;
    for (int i = 0; s->has_region && i < 4; i++) {
        const json_value *x = i < region->n ? &region->items[i] : NULL;
        if (region->n != 4 || x->type != JSON_NUMBER || x->num != floor(x->num) ||
            fabs(x->num) > 1e9) {
            snprintf(err, errlen, "\"region\" is not [x0, y0, x1, y1] (integers within 1e9)");
            return false;
        }
        s->region[i] = (int)x->num;
    }
    if (part && part->type == JSON_NUMBER &&
        !(part->num == floor(part->num) && part->num >= 0 && part->num < 1e6)) {
        snprintf(err, errlen, "\"part\" %g is not a part's index", part->num);
        return false;
    }
    return true;
}

static bool session_read(const char *path, viewer_session_file *s, char *err, size_t errlen)
{
    size_t len;
    char *text = read_text(path, &len, err, errlen);
    if (!text)
        return false;
    bool ok = json_parse(text, len, &s->root, err, errlen);
    free(text);
    if (ok && s->root.type != JSON_OBJECT) {
        snprintf(err, errlen, "not a session (no JSON object)");
        ok = false;
    }
    return ok && check_version(&s->root, err, errlen) && check_types(&s->root, err, errlen) &&
           read_view(&s->root, s, err, errlen) && read_pins(&s->root, s, err, errlen) &&
           read_state(&s->root, s, err, errlen);
}

bool viewer_session_open(const char *path, ht_options *o, viewer_session_file *s)
{
    char err[512];
    if (!session_read(path, s, err, sizeof err)) {
        fprintf(stderr, "hdrtone: %s: %s\n", path, err);
        return false;
    }
    const json_value *set = json_get(&s->root, "settings");
    char **argv = calloc((size_t)set->n + 1, sizeof *argv), **pos = calloc((size_t)set->n + 1,
                                                                           sizeof *pos);
    int npos = 0;
    for (int i = 0; argv && i < set->n; i++)
        argv[i] = set->items[i].str;
    bool ok = argv && pos && options_parse(set->n, argv, HT_CMD_VIEW, o, pos, &npos, err,
                                           sizeof err);
    if (ok && npos > 0)
        snprintf(err, sizeof err, "\"settings\": \"%.60s\" is no option", pos[0]);
    if (!ok || npos > 0)
        fprintf(stderr, "hdrtone: %s: \"settings\": %s\n", path, argv ? err : "out of memory");
    free(argv);
    free(pos);
    return ok && npos == 0;
}

int viewer_session_files(viewer_session_file *s, char **paths, int max, char *missing,
                         size_t mlen)
{
    const json_value *files = json_get(&s->root, "files");
    int n = 0, nmissing = 0;
    missing[0] = 0;
    for (int i = 0; i < files->n && n < max; i++) {
        const char *p = files->items[i].str;
        if (access(p, R_OK) == 0) {
            paths[n++] = files->items[i].str;
            continue;
        }
        size_t at = strlen(missing);
        snprintf(missing + at, mlen - at, "%s%s", nmissing++ ? ", " : "", p);
    }
    return n;
}

/* read_state's members (checked) onto the viewer; the region's statistics wait for the
 * image (viewer_session_image). The strings stay in the session's tree, which outlives the
 * window. */
static void apply_state(viewer *v, const json_value *root)
{
    const json_value *human = json_get(root, "human"), *in = json_get(root, "ocio_input");
    const json_value *part = json_get(root, "part"), *layer = json_get(root, "layer");
    if (human && human->type == JSON_OBJECT) {
        v->s.tm.veil = json_get(human, "veil")->b;
        v->s.tm.acuity = json_get(human, "acuity")->b;
        v->s.tm.color_loss = json_get(human, "color_loss")->b;
    }
    if (in && in->type == JSON_STRING)
        v->s.disp.ocio_input = in->str;
    if (part && part->type == JSON_NUMBER) {
        snprintf(v->doc.part_sel, sizeof v->doc.part_sel, "%d", (int)part->num);
        v->doc.part_set = true;
    }
    if (layer && layer->type == JSON_STRING) {
        snprintf(v->doc.layer_sel, sizeof v->doc.layer_sel, "%.63s", layer->str);
        v->doc.layer_set = true;
    }
}

void viewer_session_image(viewer *v, const viewer_session_file *s)
{
    if (!s->has_region)
        return;
    memcpy(v->in.region_a, s->region, sizeof v->in.region_a);
    memcpy(v->in.region_b, s->region + 2, sizeof v->in.region_b);
    action_run(v, ACT_REGION_DONE);
}

void viewer_session_apply(viewer *v, viewer_session_file *s)
{
    const json_value *cur = json_get(&s->root, "current"), *ref = json_get(&s->root, "reference");
    if (cur->type == JSON_STRING && access(cur->str, R_OK) == 0) {
        int i = file_list_add(&v->doc.list, cur->str);
        if (i >= 0)
            v->doc.list.cur = i;
    }
    if (ref->type == JSON_STRING && access(ref->str, R_OK) == 0)
        v->s.ref = file_list_add(&v->doc.list, ref->str);
    v->s.compare = v->s.ref >= 0 ? s->compare : COMPARE_OFF;
    v->s.wipe = s->wipe;
    v->s.wipe_horizontal = s->wipe_horizontal;
    memcpy(v->s.pins, s->pins, sizeof v->s.pins);
    v->s.npins = s->npins;
    v->s.pin_values = s->pin_values;
    v->doc.pins_gen++;
    apply_state(v, &s->root);
    v->session_view = s;
}

void viewer_session_free(viewer_session_file *s)
{
    json_free(&s->root);
}
