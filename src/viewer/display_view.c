/* The display mode the viewer shows (display.h: tone mapping, exposure, false colour, one
 * channel) and the image's units (units.h): resolved for the image when it or the settings
 * change, handed to the pipelines' apply passes before each frame. */
#include <string.h>

#include "viewer_internal.h"

void viewer_display_update(viewer_render *r, const viewer_document *d, display_params *disp,
                           int white, char *err, size_t errlen)
{
    err[0] = '\0';
    if (disp->mode == HT_VIEW_OCIO)   /* the config, for the panels' lists too */
        viewer_ocio_load(r, disp->ocio_config, err, errlen);
    if (!d->have_image)
        return;
    bool image = r->disp_gen != d->image_gen;
    if (image) {
        units_of_image(&d->img, d->user_scale, &r->units);
        display_set_units(disp, &r->units);
    }
    if (image || memcmp(disp, &r->disp_asked, sizeof *disp) != 0) {
        r->disp_asked = *disp;
        r->disp_res = *disp;
        display_resolve(&r->disp_res, &d->img);   /* an automatic scale reads the image */
        if (disp->mode == HT_VIEW_OCIO && !viewer_ocio_resolve(r, d, white, &r->disp_res, err,
                                                               errlen))
            disp->mode = r->disp_res.mode = HT_VIEW_TONEMAP;   /* ERR says why */
        r->disp_gen = d->image_gen;
    }
    /* The reference's: its render (viewer_display_in's rule: tone mapping is none). */
    pipeline_set_display(r->pipe, disp->mode == HT_VIEW_TONEMAP ? NULL : &r->disp_res);
}

double viewer_luminance_cd_m2(const viewer *v, const float *rgb)
{
    return units_luminance(&v->rnd.units, rgb);
}
