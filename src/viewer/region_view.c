/* The region: a rectangle dragged with Shift on the picture, and its luminance statistics
 * (region.h, as `stats --region` computes them) in the file's units and cd/m^2. */
#include <math.h>
#include <stdio.h>

#include "viewer_internal.h"

void viewer_image_pixel(const viewer *v, double x, double y, int *ix, int *iy)
{
    view_point p = view_to_image(viewer_place(v), (view_point){x, y});
    double fx = floor(p.x), fy = floor(p.y);
    *ix = (int)fmin(fmax(fx, 0), v->doc.img.width - 1);
    *iy = (int)fmin(fmax(fy, 0), v->doc.img.height - 1);
}

void viewer_region_rect(const viewer *v, int rect[4])
{
    rect[0] = v->in.region_a[0] < v->in.region_b[0] ? v->in.region_a[0] : v->in.region_b[0];
    rect[1] = v->in.region_a[1] < v->in.region_b[1] ? v->in.region_a[1] : v->in.region_b[1];
    rect[2] = v->in.region_a[0] > v->in.region_b[0] ? v->in.region_a[0] : v->in.region_b[0];
    rect[3] = v->in.region_a[1] > v->in.region_b[1] ? v->in.region_a[1] : v->in.region_b[1];
}
