/* The OCIO view in the window (HT_VIEW_OCIO, docs/colour.md): the config, loaded the first
 * time the mode is shown; the image's input space and matrix (ocio_view_input), resolved with
 * the rest of the display mode; the Display section's choices of display, view, look and
 * input space. The pipelines' apply pass runs OCIO's shader (src/gpu/ocio_gpu.h). */
#include <stdio.h>

#include "ocio_view.h"
#include "viewer_internal.h"

bool viewer_ocio_load(viewer_render *r, const char *path, char *err, size_t errlen)
{
    char why[HT_ERR_MAX];
    if (!r->ocio && !r->ocio_failed && !(r->ocio = ocio_config_load(path, why, sizeof why))) {
        r->ocio_failed = true;
        snprintf(err, errlen, "OCIO: %s", why);
    }
    return r->ocio != NULL;
}

bool viewer_ocio_resolve(viewer_render *r, const viewer_document *doc, int white,
                         display_params *d, char *err, size_t errlen)
{
    char why[HT_ERR_MAX];
    if (!viewer_ocio_load(r, d->ocio_config, err, errlen))
        return false;
    if (!ocio_view_input(d, &doc->img.colour, white, &d->ocio_input, &r->ocio_x, why,
                         sizeof why)) {
        snprintf(err, errlen, "OCIO: %s", why);
        return false;
    }
    return true;
}

void viewer_ocio_params(const viewer_render *r, const session *s, tonemap_params *tm)
{
    if (s->disp.mode != HT_VIEW_OCIO)
        return;
    tm->colour = r->ocio_x;   /* the pixels to the input space; OCIO does the rest */
    tm->gamut = HT_GAMUT_CLIP;
}

int viewer_ocio_names(const viewer_render *r, int list, const char *display, const char **names,
                      int max)
{
    const ocio_config *c = r->ocio;
    int n = !c ? 0 : list < 0 ? ocio_view_count(c, display) : ocio_count(c, list);
    for (int i = 0; i < n && i < max; i++)
        names[i] = list < 0 ? ocio_view_name(c, display, i) : ocio_name(c, list, i);
    return n < max ? n : max;
}

const char *viewer_ocio_default(const viewer_render *r, const char *display)
{
    const ocio_config *c = r->ocio;
    if (!c)
        return "";
    return display ? ocio_default_view(c, display) : ocio_default_display(c);
}

/* Name I of LIST (a view of the current display for list -1); NULL for I < 0 or past it. */
static const char *nth(viewer *v, int list, int i)
{
    const char *names[256];
    int n = viewer_ocio_names(&v->rnd, list, v->s.disp.ocio_display, names, 256);
    return i >= 0 && i < n ? names[i] : NULL;
}

void act_set_ocio_display(viewer *v, double i)
{
    const char *name = nth(v, OCIO_DISPLAYS, (int)i);
    if (name) {
        v->s.disp.ocio_display = name;
        v->s.disp.ocio_view = NULL;   /* the display's default view */
    }
}

void act_set_ocio_view(viewer *v, double i)
{
    const char *name = nth(v, -1, (int)i);
    if (name)
        v->s.disp.ocio_view = name;
}

void act_set_ocio_look(viewer *v, double i) { v->s.disp.ocio_look = nth(v, OCIO_LOOKS, (int)i); }

void act_set_ocio_input(viewer *v, double i) { v->s.disp.ocio_input = nth(v, OCIO_SPACES, (int)i); }
