/* The viewer's view maths: fitting, zooming at a point, panning, and the mapping between
 * window pixels and image pixels. Plain arithmetic on small structs, no GL and no window:
 * tests/unit/test_view.c checks it without a display.
 *
 * Window coordinates are framebuffer pixels, top-left origin, y down. Absolute image
 * coordinates are OpenEXR's: the data window's pixel (0, 0) covers [dw0, dw0 + 1) x
 * [dw1, dw1 + 1), where (dw0, dw1) is the data window's origin. */
#ifndef HT_VIEW_H
#define HT_VIEW_H

/* The zoom limits, in window pixels per image pixel. */
#define VIEW_ZOOM_MIN (1.0 / 256)
#define VIEW_ZOOM_MAX 256.0

/* A view: ZOOM window pixels per image pixel, the absolute image point (cx, cy) at the
 * window's centre. */
typedef struct view_state {
    double zoom;
    double cx, cy;
} view_state;

typedef struct view_point {
    double x, y;
} view_point;

/* A rectangle in absolute image coordinates, [x0, x1) x [y0, y1). */
typedef struct view_rect {
    double x0, y0, x1, y1;
} view_rect;

/* Where a view puts the image in the window: the data window's pixel (0, 0) has its top-left
 * corner at window point (x, y), each image pixel ZOOM window pixels wide. */
typedef struct view_place {
    double x, y;
    double zoom;
} view_place;

/* What a view frames: the data window (origin DATA_WINDOW[0], DATA_WINDOW[1], WIDTH x HEIGHT
 * pixels) and the display window (DISPLAY_WINDOW: x0, y0, x1, y1 inclusive, ignored when
 * empty) together, so that neither is cut off; the data window may lie partly or wholly
 * outside the display window, at negative coordinates too. */
view_rect view_frame(const int data_window[4], int width, int height,
                     const int display_window[4]);

/* The view that shows all of FRAME, centred, in a WIN_W x WIN_H window less MARGIN pixels
 * (no less than 1 pixel either way). */
view_state view_fit(view_rect frame, double margin, int win_w, int win_h);

/* The first view of an image: view_fit, but never above 1:1 (an image that fits is shown
 * 1:1, as most viewers do). */
view_state view_first(view_rect frame, double margin, int win_w, int win_h);

/* V zoomed by FACTOR, clamped to [VIEW_ZOOM_MIN, VIEW_ZOOM_MAX] and landing exactly on 1:1
 * when within 1e-3 of it, with the image point under window point AT kept where it is. */
view_state view_zoom_at(view_state v, double factor, view_point at, int win_w, int win_h);

/* V with the image moved by (DX, DY) window pixels (the view's centre moves the other way). */
view_state view_pan(view_state v, double dx, double dy);

/* Where V puts the image whose data window starts at absolute (DATA_X0, DATA_Y0), rounded to
 * whole window pixels so that at 1:1 each window pixel shows exactly one image pixel. */
view_place view_placement(view_state v, int data_x0, int data_y0, int win_w, int win_h);

/* Window point -> image coordinates relative to the data window (pixel (i, j) covers
 * [i, i + 1) x [j, j + 1)), and back. */
view_point view_to_image(view_place p, view_point window);
view_point view_to_window(view_place p, view_point image);

#endif
