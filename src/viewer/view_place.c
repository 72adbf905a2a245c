/* The view maths on the viewer's state (view.h's on the session's view, the document's
 * image and the viewport): where the image lies, the pixel under a point, the region's and
 * the divider's places, which pictures a frame shows. Reads only; calls nothing above it. */
#include <math.h>
#include <string.h>

#include "human.h"
#include "viewer_internal.h"

view_place viewer_place_at(const session *s, const viewer_document *d, int w, int h)
{
    return view_placement(s->view, d->img.data_window[0], d->img.data_window[1], w, h);
}

scene_view viewer_scene_view_at(const session *s, const viewer_document *d, int w, int h)
{
    view_place p = viewer_place_at(s, d, w, h);
    return (scene_view){p.x, p.y, p.zoom};
}

bool viewer_human_shown_in(const viewer_render *r, const session *s)
{
    return human_requested(&s->tm) && pipeline_image_pieces(r->pipe) == 1;
}

void viewer_image_pixel(const viewer *v, double x, double y, int *ix, int *iy)
{
    view_place place = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    view_point p = view_to_image(place, (view_point){x, y});
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

int viewer_wipe_pos_at(const session *s, viewport vp)
{
    double f = fmin(1, fmax(0, s->wipe));
    return (int)lround(f * (s->wipe_horizontal ? vp.h : vp.w));
}

bool viewer_compare_map(const viewer *v)
{
    return v->s.compare >= COMPARE_DIFF && v->rnd.ntiles <= 1;   /* the single layout's */
}

bool viewer_compare_linear(const viewer *v)
{
    return viewer_compare_map(v) && v->s.compare != COMPARE_FLIP;
}

/* What the view frames: both windows of the image. */
static view_rect image_frame(const hdr_image *img)
{
    return view_frame(img->data_window, img->width, img->height, img->display_window);
}

/* A margin for the display window's frame when there is one. */
static double frame_margin(const hdr_image *img)
{
    return memcmp(img->data_window, img->display_window, sizeof img->data_window) != 0 ? 16 : 0;
}

view_state viewer_fit_view(const viewer *v, bool first)
{
    view_rect r = image_frame(&v->doc.img);
    double m = frame_margin(&v->doc.img);
    return first ? view_first(r, m, v->vp.w, v->vp.h) : view_fit(r, m, v->vp.w, v->vp.h);
}
