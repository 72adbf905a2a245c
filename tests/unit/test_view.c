/* The viewer's view maths (view.h), without GL or a window: fitting wide and tall images and
 * both windows of an image, zoom at the cursor keeping the image point under it, the zoom
 * limits, panning, and the window <-> image mapping. Expected values are worked out by hand
 * in the comments. */
#include <math.h>

#include "testutil.h"
#include "view.h"

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

/* The absolute image point at window point (x, y): the definition of a view (cx, cy at the
 * window's centre, zoom window pixels per image pixel), without placement's rounding. */
static view_point image_at(view_state v, double x, double y, int w, int h)
{
    return (view_point){v.cx + (x - w / 2.0) / v.zoom, v.cy + (y - h / 2.0) / v.zoom};
}

static void test_frame(void)
{
    /* Data window at (-20, -10), 100 x 50, in the display window (0,0)-(199,99): the frame is
     * both, x -20..200, y -10..100. */
    const int dw[4] = {-20, -10, 79, 39}, dp[4] = {0, 0, 199, 99};
    view_rect r = view_frame(dw, 100, 50, dp);
    CHECK(r.x0 == -20 && r.y0 == -10 && r.x1 == 200 && r.y1 == 100, "frame %g,%g-%g,%g", r.x0,
          r.y0, r.x1, r.y1);
    /* An empty display window (x1 < x0) counts for nothing: the data window alone. */
    const int none[4] = {0, 0, -1, -1};
    r = view_frame(dw, 100, 50, none);
    CHECK(r.x0 == -20 && r.y0 == -10 && r.x1 == 80 && r.y1 == 40, "data only %g,%g-%g,%g", r.x0,
          r.y0, r.x1, r.y1);
}

static void test_fit(void)
{
    /* Wide, 2000 x 500 in 800 x 600: the width limits, zoom 800/2000 = 0.4, the image 200
     * high, centred: top at (600 - 200) / 2 = 200. */
    view_rect wide = {0, 0, 2000, 500};
    view_state v = view_fit(wide, 0, 800, 600);
    CHECK(NEAR(v.zoom, 0.4, 1e-12) && v.cx == 1000 && v.cy == 250, "wide: zoom %g at %g,%g",
          v.zoom, v.cx, v.cy);
    view_place p = view_placement(v, 0, 0, 800, 600);
    CHECK(p.x == 0 && p.y == 200, "wide placed at %g,%g", p.x, p.y);
    /* Tall, 300 x 1200: the height limits, zoom 600/1200 = 0.5, 150 wide: left at 325. */
    view_rect tall = {0, 0, 300, 1200};
    v = view_fit(tall, 0, 800, 600);
    CHECK(v.zoom == 0.5 && v.cx == 150 && v.cy == 600, "tall: zoom %g at %g,%g", v.zoom, v.cx,
          v.cy);
    p = view_placement(v, 0, 0, 800, 600);
    CHECK(p.x == 325 && p.y == 0, "tall placed at %g,%g", p.x, p.y);
    /* A margin comes off the window: (600 - 16) / 1200. */
    v = view_fit(tall, 16, 800, 600);
    CHECK(NEAR(v.zoom, 584.0 / 1200, 1e-12), "margin: zoom %g", v.zoom);
    /* The frame's centre is the view's, also off the origin. */
    view_rect off = {-20, -10, 200, 100};
    v = view_fit(off, 0, 440, 220);
    CHECK(v.zoom == 2 && v.cx == 90 && v.cy == 45, "off-origin: zoom %g at %g,%g", v.zoom, v.cx,
          v.cy);
    /* A window smaller than the margin still gives a positive zoom (1 pixel). */
    v = view_fit(wide, 16, 8, 8);
    CHECK(v.zoom > 0 && NEAR(v.zoom, 1.0 / 2000, 1e-15), "tiny window: zoom %g", v.zoom);
}

static void test_first(void)
{
    /* A small image is shown 1:1, not enlarged; a large one is fitted. */
    view_rect small = {0, 0, 100, 50};
    view_state v = view_first(small, 0, 800, 600);
    CHECK(v.zoom == 1 && v.cx == 50 && v.cy == 25, "small: zoom %g at %g,%g", v.zoom, v.cx,
          v.cy);
    view_rect wide = {0, 0, 2000, 500};
    v = view_first(wide, 0, 800, 600);
    CHECK(NEAR(v.zoom, 0.4, 1e-12), "large: zoom %g", v.zoom);
}

static void test_zoom_at(void)
{
    const int w = 800, h = 600;
    const double factors[] = {2, 0.5, 1.19, 0.84, 8};
    const view_point at[] = {{400, 300}, {0, 0}, {799, 599}, {123.5, 456.25}, {-50, 700}};
    view_state start[] = {{1, 320, 240}, {0.37, -15.5, 1000}, {13, 5.25, 7.75}};
    for (size_t s = 0; s < sizeof start / sizeof start[0]; s++)
        for (size_t f = 0; f < sizeof factors / sizeof factors[0]; f++)
            for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
                view_state v = start[s];
                view_point before = image_at(v, at[a].x, at[a].y, w, h);
                view_state z = view_zoom_at(v, factors[f], at[a], w, h);
                view_point after = image_at(z, at[a].x, at[a].y, w, h);
                CHECK(NEAR(z.zoom, v.zoom * factors[f], 1e-9 * v.zoom * factors[f]),
                      "zoom %g x %g = %g", v.zoom, factors[f], z.zoom);
                CHECK(NEAR(before.x, after.x, 1e-9) && NEAR(before.y, after.y, 1e-9),
                      "point under %g,%g moved: %g,%g -> %g,%g", at[a].x, at[a].y, before.x,
                      before.y, after.x, after.y);
                /* Through the rounded placement: off by half a window pixel at most. */
                view_point wa = view_to_window(view_placement(z, 0, 0, w, h), after);
                CHECK(fabs(wa.x - at[a].x) <= 0.5 + 1e-9 && fabs(wa.y - at[a].y) <= 0.5 + 1e-9,
                      "placed %g,%g for cursor %g,%g", wa.x, wa.y, at[a].x, at[a].y);
            }
    /* Zooming at the window's centre keeps the centre. */
    view_state v = view_zoom_at((view_state){1, 10, 20}, 2, (view_point){400, 300}, w, h);
    CHECK(v.zoom == 2 && v.cx == 10 && v.cy == 20, "centre zoom %g at %g,%g", v.zoom, v.cx, v.cy);
}

static void test_zoom_limits(void)
{
    const int w = 800, h = 600;
    view_point at = {100, 50};
    view_state v = {200, 30, 40};
    view_point before = image_at(v, at.x, at.y, w, h);
    view_state z = view_zoom_at(v, 2, at, w, h);
    CHECK(z.zoom == VIEW_ZOOM_MAX, "zoom in clamps to %g: %g", VIEW_ZOOM_MAX, z.zoom);
    view_point after = image_at(z, at.x, at.y, w, h);
    CHECK(NEAR(before.x, after.x, 1e-9) && NEAR(before.y, after.y, 1e-9),
          "clamped zoom moved the point under the cursor");
    z = view_zoom_at((view_state){VIEW_ZOOM_MIN * 1.5, 0, 0}, 0.5, at, w, h);
    CHECK(z.zoom == VIEW_ZOOM_MIN, "zoom out clamps to %g: %g", VIEW_ZOOM_MIN, z.zoom);
    z = view_zoom_at(z, 0.5, at, w, h);
    CHECK(z.zoom == VIEW_ZOOM_MIN, "stays at the minimum: %g", z.zoom);
    /* Within 1e-3 of 1:1 lands exactly on it; outside does not. */
    z = view_zoom_at((view_state){0.5, 0, 0}, 2.0009, at, w, h);
    CHECK(z.zoom == 1, "near 1:1 snaps: %.17g", z.zoom);
    z = view_zoom_at((view_state){0.5, 0, 0}, 2.004, at, w, h);
    CHECK(NEAR(z.zoom, 1.002, 1e-12), "1.002 stays: %.17g", z.zoom);
}

static void test_pan(void)
{
    /* 64 window pixels right at zoom 2 is 32 image pixels: the centre moves 32 left, the
     * image's placement 64 right. */
    view_state v = {2, 100, 50};
    view_place p0 = view_placement(v, 0, 0, 800, 600);
    view_state m = view_pan(v, 64, -30);
    CHECK(m.zoom == 2 && m.cx == 68 && m.cy == 65, "pan: zoom %g at %g,%g", m.zoom, m.cx, m.cy);
    view_place p1 = view_placement(m, 0, 0, 800, 600);
    CHECK(p1.x - p0.x == 64 && p1.y - p0.y == -30, "placement moved %g,%g", p1.x - p0.x,
          p1.y - p0.y);
    /* And back. */
    m = view_pan(m, -64, 30);
    CHECK(m.cx == v.cx && m.cy == v.cy, "pan back: %g,%g", m.cx, m.cy);
}

static void test_mapping(void)
{
    /* 1:1 with a fractional centre: the placement is on whole pixels, and the data window's
     * origin counts. Centre (10.3, 20.7) of an image whose data window starts at (-5, 8): the
     * corner at floor(400 - 15.3 + 0.5) = 385, floor(300 - 12.7 + 0.5) = 287. */
    view_place p = view_placement((view_state){1, 10.3, 20.7}, -5, 8, 800, 600);
    CHECK(p.x == 385 && p.y == 287 && p.zoom == 1, "1:1 placed at %g,%g", p.x, p.y);
    /* Window pixel (385 + 3, 287 + 4) shows image pixel (3, 4). */
    view_point i = view_to_image(p, (view_point){388.5, 291.5});
    CHECK(floor(i.x) == 3 && floor(i.y) == 4, "pixel %g,%g", i.x, i.y);
    /* Round trips, at zooms in and out. */
    const double zooms[] = {VIEW_ZOOM_MIN, 0.3, 1, 2.5, VIEW_ZOOM_MAX};
    unsigned seed = 7;
    for (size_t k = 0; k < sizeof zooms / sizeof zooms[0]; k++)
        for (int n = 0; n < 50; n++) {
            view_state v = {zooms[k], 1000 * test_rand(&seed) - 500, 1000 * test_rand(&seed)};
            p = view_placement(v, -7, 3, 1024, 768);
            view_point w0 = {1024 * test_rand(&seed), 768 * test_rand(&seed)};
            view_point w1 = view_to_window(p, view_to_image(p, w0));
            CHECK(NEAR(w0.x, w1.x, 1e-9 * fmax(1, fabs(p.x))) &&
                      NEAR(w0.y, w1.y, 1e-9 * fmax(1, fabs(p.y))),
                  "window %g,%g -> %g,%g at zoom %g", w0.x, w0.y, w1.x, w1.y, v.zoom);
            view_point i0 = {500 * test_rand(&seed), 500 * test_rand(&seed)};
            view_point i1 = view_to_image(p, view_to_window(p, i0));
            CHECK(NEAR(i0.x, i1.x, 1e-6 / zooms[k]) && NEAR(i0.y, i1.y, 1e-6 / zooms[k]),
                  "image %g,%g -> %g,%g at zoom %g", i0.x, i0.y, i1.x, i1.y, v.zoom);
        }
}

int main(void)
{
    test_frame();
    test_fit();
    test_first();
    test_zoom_at();
    test_zoom_limits();
    test_pan();
    test_mapping();
    return test_finish("test_view");
}
