/* The display mode the viewer shows (display.h: tone mapping, exposure, false colour, one
 * channel) and the image's units (units.h): resolved for the image when it or the settings
 * change, handed to the pipelines' apply passes before each frame. */
#include <string.h>

#include "viewer_internal.h"

void viewer_display_update(viewer *v)
{
    if (!v->doc.have_image)
        return;
    bool image = v->rnd.disp_gen != v->doc.image_gen;
    if (image) {
        units_of_image(&v->doc.img, v->doc.user_scale, &v->rnd.units);
        display_set_units(&v->s.disp, &v->rnd.units);
    }
    if (image || memcmp(&v->s.disp, &v->rnd.disp_asked, sizeof v->s.disp) != 0) {
        v->rnd.disp_asked = v->s.disp;
        v->rnd.disp_res = v->s.disp;
        display_resolve(&v->rnd.disp_res, &v->doc.img);   /* an automatic scale reads the image */
        if (v->s.disp.mode == HT_VIEW_OCIO && !viewer_ocio_resolve(v, &v->rnd.disp_res))
            v->s.disp.mode = v->rnd.disp_res.mode = HT_VIEW_TONEMAP;   /* said why */
        v->rnd.disp_gen = v->doc.image_gen;
    }
    pipeline_set_display(v->rnd.pipe, viewer_display_of(v));   /* the reference's: its render */
}

double viewer_luminance_cd_m2(const viewer *v, const float *rgb)
{
    return units_luminance(&v->rnd.units, rgb);
}
