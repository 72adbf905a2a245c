/* The view maths (view.h). */
#include "view.h"

#include <math.h>
#include <stdbool.h>

view_rect view_frame(const int data_window[4], int width, int height,
                     const int display_window[4])
{
    const int *dw = data_window, *dp = display_window;
    bool disp = dp[2] >= dp[0] && dp[3] >= dp[1];
    view_rect r;
    r.x0 = disp ? fmin(dw[0], dp[0]) : dw[0];
    r.y0 = disp ? fmin(dw[1], dp[1]) : dw[1];
    r.x1 = disp ? fmax(dw[0] + width, dp[2] + 1.0) : dw[0] + width;
    r.y1 = disp ? fmax(dw[1] + height, dp[3] + 1.0) : dw[1] + height;
    return r;
}

view_state view_fit(view_rect frame, double margin, int win_w, int win_h)
{
    view_state v;
    v.zoom = fmin(fmax(win_w - margin, 1) / (frame.x1 - frame.x0),
                  fmax(win_h - margin, 1) / (frame.y1 - frame.y0));
    v.cx = (frame.x0 + frame.x1) / 2.0;
    v.cy = (frame.y0 + frame.y1) / 2.0;
    return v;
}

view_state view_first(view_rect frame, double margin, int win_w, int win_h)
{
    view_state v = view_fit(frame, margin, win_w, win_h);
    if (v.zoom >= 1)
        v.zoom = 1;
    return v;
}

view_state view_zoom_at(view_state v, double factor, view_point at, int win_w, int win_h)
{
    double z = v.zoom * factor;
    z = z < VIEW_ZOOM_MIN ? VIEW_ZOOM_MIN : z > VIEW_ZOOM_MAX ? VIEW_ZOOM_MAX : z;
    if (fabs(z - 1) < 1e-3)
        z = 1;
    /* The image point under AT before, and the centre that keeps it there after. */
    double ix = v.cx + (at.x - win_w / 2.0) / v.zoom;
    double iy = v.cy + (at.y - win_h / 2.0) / v.zoom;
    v.cx = ix - (at.x - win_w / 2.0) / z;
    v.cy = iy - (at.y - win_h / 2.0) / z;
    v.zoom = z;
    return v;
}

view_state view_pan(view_state v, double dx, double dy)
{
    v.cx -= dx / v.zoom;
    v.cy -= dy / v.zoom;
    return v;
}

view_place view_placement(view_state v, int data_x0, int data_y0, int win_w, int win_h)
{
    double x0 = data_x0, y0 = data_y0;
    return (view_place){floor(win_w / 2.0 - (v.cx - x0) * v.zoom + 0.5),
                        floor(win_h / 2.0 - (v.cy - y0) * v.zoom + 0.5), v.zoom};
}

view_point view_to_image(view_place p, view_point window)
{
    return (view_point){(window.x - p.x) / p.zoom, (window.y - p.y) / p.zoom};
}

view_point view_to_window(view_place p, view_point image)
{
    return (view_point){p.x + image.x * p.zoom, p.y + image.y * p.zoom};
}
