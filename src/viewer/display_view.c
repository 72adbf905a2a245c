/* The display mode the viewer shows (display.h: tone mapping, exposure, false colour, one
 * channel) and the image's units (units.h): resolved for the image when it or the settings
 * change, handed to the pipelines' apply passes before each frame. */
#include <string.h>

#include "viewer_internal.h"

void viewer_display_update(viewer *v)
{
    if (!v->have_image)
        return;
    bool image = v->disp_gen != v->image_gen;
    if (image) {
        units_of_image(&v->img, v->user_scale, &v->units);
        display_set_units(&v->s.disp, &v->units);
    }
    if (image || memcmp(&v->s.disp, &v->disp_asked, sizeof v->s.disp) != 0) {
        v->disp_asked = v->s.disp;
        v->disp_res = v->s.disp;
        display_resolve(&v->disp_res, &v->img);   /* an automatic scale reads the image */
        if (v->s.disp.mode == HT_VIEW_OCIO && !viewer_ocio_resolve(v, &v->disp_res))
            v->s.disp.mode = v->disp_res.mode = HT_VIEW_TONEMAP;   /* said why */
        v->disp_gen = v->image_gen;
    }
    pipeline_set_display(v->pipe, viewer_display_of(v));   /* the reference's: its render */
}

const display_params *viewer_display_of(const viewer *v)
{
    return v->s.disp.mode == HT_VIEW_TONEMAP ? NULL : &v->disp_res;
}

double viewer_luminance_cd_m2(const viewer *v, const float *rgb)
{
    return units_luminance(&v->units, rgb);
}
