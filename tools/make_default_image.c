/* make_default_image: writes the synthetic HDR scene that hdrtone opens when it is
 * started without a file (assets/default.exr).
 *
 * Usage: make_default_image OUTPUT.exr
 *
 * Units: EXR value 1.0 = 1 cd/m^2. The scene is a dim room (walls and floor about
 * 0.01-1 cd/m^2) with a window on the right showing a sky (1e3-1e4 cd/m^2) and a sun
 * disc in its upper right (core capped at 6e4 cd/m^2, the half-float range, with a
 * glow), a patch of sunlight on the floor, four shaded coloured spheres (red, green,
 * blue, yellow), a red neon letter "F" in the upper left (so a flip or a channel swap
 * shows) and a logarithmic grey ramp from 1e-2 to 1e4 cd/m^2 along the bottom edge.
 *
 * Deterministic: no clock, no rand(); the faint texture noise is a fixed-seed xorshift.
 * Output: 960x540, channels B,G,R as HALF, ZIP compression, written to a temp file
 * and renamed into place. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyexr.h>

#include "map_write.h"

#define W 960
#define H 540

#define FLOOR_Y 372      /* first row of the floor */
#define RAMP_Y 516       /* first row of the grey ramp strip */
#define SUN_MAX 60000.0f /* below the largest half, 65504 */

/* window (sky) rectangle, inner opening */
#define WIN_X0 585
#define WIN_X1 905
#define WIN_Y0 55
#define WIN_Y1 315
#define SUN_X 828.0f
#define SUN_Y 112.0f
#define SUN_R 11.0f

typedef struct {
    float r, g, b;
} rgb;

static rgb mk(float r, float g, float b) {
    rgb c = {r, g, b};
    return c;
}
static rgb scale(rgb c, float s) { return mk(c.r * s, c.g * s, c.b * s); }
static rgb add(rgb a, rgb b) { return mk(a.r + b.r, a.g + b.g, a.b + b.b); }
static rgb mixc(rgb a, rgb b, float t) {
    return mk(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t);
}
static float lum(rgb c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }
static float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
static float smooth(float e0, float e1, float x) {
    float t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static uint32_t rng_state = 0x9E3779B9u;
static uint32_t xorshift32(void) {
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}
/* uniform in [-1, 1) */
static float noise1(void) { return (float)(xorshift32() >> 8) / 8388608.0f - 1.0f; }

/* Illumination of the room by the window: strong near it, falling off to the left. */
static float room_light(float x, float y) {
    float dx = (x - 745.0f) / 330.0f, dy = (y - 185.0f) / 420.0f;
    return 0.03f + 0.9f / (1.0f + 4.0f * (dx * dx + dy * dy));
}

/* The letter F: vertical stem plus top and middle bars, in the upper left. */
static const float f_rects[3][4] = {
    /* x0, y0, x1, y1 */
    {70.0f, 48.0f, 104.0f, 278.0f},
    {70.0f, 48.0f, 220.0f, 82.0f},
    {70.0f, 144.0f, 182.0f, 174.6f},
};

/* Distance from (x, y) to the F (0 inside). */
static float f_dist(float x, float y) {
    float best = 1e9f;
    for (int i = 0; i < 3; i++) {
        float dx = fmaxf(fmaxf(f_rects[i][0] - x, x - f_rects[i][2]), 0.0f);
        float dy = fmaxf(fmaxf(f_rects[i][1] - y, y - f_rects[i][3]), 0.0f);
        float d = sqrtf(dx * dx + dy * dy);
        if (d < best) best = d;
    }
    return best;
}

static rgb wall(float x, float y) {
    rgb paint = mk(0.80f, 0.74f, 0.66f); /* warm off-white */
    float l = room_light(x, y);
    /* darker towards the ceiling and the far left corner */
    l *= 0.55f + 0.45f * smooth(0.0f, 200.0f, y);
    l *= 0.6f + 0.4f * smooth(0.0f, 260.0f, x);
    rgb c = scale(paint, l);
    /* skirting board */
    if (y >= FLOOR_Y - 14) c = scale(mk(0.35f, 0.30f, 0.26f), l);
    return c;
}

static rgb floor_px(float x, float y) {
    float t = (y - FLOOR_Y) / (float)(RAMP_Y - FLOOR_Y); /* 0 far .. 1 near */
    rgb wood = mk(0.55f, 0.36f, 0.20f);
    /* boards converging a little towards the back */
    float u = (x - 480.0f) / (0.7f + 0.3f * t) + 480.0f;
    float board = fmodf(u + 2000.0f, 80.0f);
    float seam = (board < 2.0f) ? 0.55f : 1.0f;
    float l = room_light(x, FLOOR_Y - 40.0f + 0.4f * (y - FLOOR_Y)) * (0.9f - 0.35f * t);
    rgb c = scale(wood, l * seam);
    /* sunlight through the window: a skewed patch down-left of the window */
    float px = x + 0.9f * (y - FLOOR_Y); /* shear: patch leans left towards the viewer */
    float inx = smooth(445.0f, 455.0f, px) * (1.0f - smooth(700.0f, 710.0f, px));
    float iny = smooth(395.0f, 400.0f, y) * (1.0f - smooth(488.0f, 496.0f, y));
    /* shadow of the window's cross bars */
    float mull = 1.0f - 0.9f * (1.0f - smooth(3.0f, 6.0f, fabsf(px - 578.0f)))
                     - 0.9f * (1.0f - smooth(2.0f, 4.0f, fabsf(y - 441.0f)));
    mull = clampf(mull, 0.05f, 1.0f);
    float sun = inx * iny * mull;
    c = add(c, scale(mk(wood.r * 1.05f, wood.g * 0.98f, wood.b * 0.85f), 620.0f * sun));
    return c;
}

static rgb sky(float x, float y) {
    float t = (y - WIN_Y0) / (float)(WIN_Y1 - WIN_Y0); /* 0 top .. 1 bottom */
    rgb zenith = mk(0.30f, 0.50f, 1.00f);
    rgb horizon = mk(0.92f, 0.95f, 1.00f);
    rgb c = scale(mixc(zenith, horizon, powf(t, 0.8f)), 3200.0f + 4800.0f * t);
    /* distant hills at the bottom of the view */
    float hill = WIN_Y1 - 38.0f - 18.0f * sinf(x * 0.021f) - 9.0f * sinf(x * 0.057f + 1.3f);
    if (y > hill) c = scale(mk(0.35f, 0.55f, 0.25f), 700.0f - 250.0f * smooth(hill, WIN_Y1, y));
    /* sun disc and glow, capped at the half range */
    float dx = x - SUN_X, dy = y - SUN_Y;
    float d = sqrtf(dx * dx + dy * dy);
    rgb sun = mk(1.0f, 0.96f, 0.88f);
    if (d <= SUN_R) {
        c = scale(sun, SUN_MAX * (0.92f + 0.08f * (1.0f - (d * d) / (SUN_R * SUN_R))));
    } else {
        float e = (d - SUN_R) / SUN_R;
        float g = 0.35f * expf(-e * 2.2f) + 0.06f / (1.0f + e * e);
        c = add(c, scale(sun, SUN_MAX * g));
    }
    return c;
}

/* Shaded sphere: returns 1 and the colour if (x, y) is on the sphere. */
static int sphere(float x, float y, float cx, float cy, float r, rgb albedo, float light,
                  rgb *out) {
    float nx = (x - cx) / r, ny = (y - cy) / r;
    float rr = nx * nx + ny * ny;
    if (rr > 1.0f) return 0;
    float nz = sqrtf(1.0f - rr);
    /* light from the window: upper right, slightly towards the viewer */
    const float lx = 0.62f, ly = -0.55f, lz = 0.56f;
    float ndl = nx * lx + ny * ly + nz * lz;
    float diff = ndl > 0.0f ? ndl : 0.0f;
    /* Blinn specular towards the viewer (0, 0, 1) */
    float hx = lx, hy = ly, hz = lz + 1.0f;
    float hn = sqrtf(hx * hx + hy * hy + hz * hz);
    float ndh = (nx * hx + ny * hy + nz * hz) / hn;
    float spec = ndh > 0.0f ? powf(ndh, 60.0f) : 0.0f;
    float amb = 0.04f + 0.03f * (1.0f - ny) * 0.5f;
    rgb c = scale(albedo, light * (diff + amb));
    c = add(c, scale(mk(1.0f, 1.0f, 1.0f), light * 6.0f * spec));
    /* soft edge against the background is left to the caller's blend */
    *out = c;
    return 1;
}

static float sphere_shadow(float x, float y, float cx, float cy, float r) {
    /* contact shadow: an ellipse on the floor under and left of the sphere */
    float ex = (x - (cx - 0.35f * r)) / (1.35f * r), ey = (y - (cy + 0.85f * r)) / (0.28f * r);
    float d = ex * ex + ey * ey;
    return 1.0f - 0.6f * (1.0f - smooth(0.3f, 1.2f, d));
}

static rgb pixel(int ix, int iy) {
    float x = (float)ix + 0.5f, y = (float)iy + 0.5f;
    rgb c;

    /* grey ramp strip: log from 1e-2 to 1e4 cd/m^2, left to right */
    if (iy >= RAMP_Y) {
        float t = x / (float)W;
        float v = powf(10.0f, -2.0f + 6.0f * t);
        if (iy == RAMP_Y) v *= 0.5f; /* thin separating line */
        return mk(v, v, v);
    }

    if (y < FLOOR_Y) {
        c = wall(x, y);
        /* window: reveal (frame) around the opening, then the sky with cross bars */
        const float frame = 14.0f;
        int in_frame = x >= WIN_X0 - frame && x < WIN_X1 + frame && y >= WIN_Y0 - frame &&
                       y < WIN_Y1 + frame;
        int in_open = x >= WIN_X0 && x < WIN_X1 && y >= WIN_Y0 && y < WIN_Y1;
        if (in_frame && !in_open) {
            /* frame lit from outside on its inner edges */
            float edge = fminf(fminf(fabsf(x - WIN_X0), fabsf(x - WIN_X1)),
                               fminf(fabsf(y - WIN_Y0), fabsf(y - WIN_Y1)));
            c = scale(mk(0.9f, 0.88f, 0.85f), 1.5f + 40.0f * expf(-edge / 3.0f));
        } else if (in_open) {
            float mx = fabsf(x - (WIN_X0 + WIN_X1) * 0.5f);
            float my = fabsf(y - (WIN_Y0 + WIN_Y1) * 0.5f + 20.0f);
            if (mx < 4.0f || my < 3.5f)
                c = scale(mk(0.85f, 0.83f, 0.80f), 0.6f); /* dark cross bars */
            else
                c = sky(x, y);
        }
        /* red neon "F" with a glow on the wall */
        float fd = f_dist(x, y);
        if (fd <= 0.0f) {
            float sx = 0.85f + 0.15f * sinf(y * 0.05f);
            c = scale(mk(1.0f, 0.035f, 0.025f), 60.0f * sx);
        } else {
            float g = expf(-fd / 10.0f) + 0.15f * expf(-fd / 40.0f);
            c = add(c, scale(mk(1.0f, 0.06f, 0.04f), 2.5f * g));
        }
    } else {
        c = floor_px(x, y);
        static const float sph[4][3] = {
            {120.0f, 430.0f, 50.0f}, {250.0f, 448.0f, 44.0f},
            {370.0f, 425.0f, 40.0f}, {640.0f, 438.0f, 46.0f}};
        for (int i = 0; i < 4; i++) c = scale(c, sphere_shadow(x, y, sph[i][0], sph[i][1], sph[i][2]));
    }

    /* spheres, drawn over wall and floor, with a one-pixel soft edge */
    static const struct {
        float cx, cy, r;
        float ar, ag, ab;
        float light;
    } s[4] = {
        {120.0f, 430.0f, 50.0f, 0.80f, 0.04f, 0.03f, 12.0f},  /* red */
        {250.0f, 448.0f, 44.0f, 0.05f, 0.70f, 0.08f, 18.0f},  /* green */
        {370.0f, 425.0f, 40.0f, 0.04f, 0.08f, 0.85f, 30.0f},  /* blue */
        {640.0f, 438.0f, 46.0f, 0.85f, 0.72f, 0.04f, 450.0f}, /* yellow, in the sunlight */
    };
    for (int i = 0; i < 4; i++) {
        float dx = x - s[i].cx, dy = y - s[i].cy;
        float d = sqrtf(dx * dx + dy * dy);
        if (d > s[i].r + 1.0f) continue;
        rgb sc;
        float cov = clampf(s[i].r + 0.5f - d, 0.0f, 1.0f);
        float rr = fminf(d, s[i].r - 1e-3f);
        float px = s[i].cx + (d > 0.0f ? dx / d * rr : 0.0f);
        float py = s[i].cy + (d > 0.0f ? dy / d * rr : 0.0f);
        if (!sphere(d <= s[i].r ? x : px, d <= s[i].r ? y : py, s[i].cx, s[i].cy, s[i].r,
                    mk(s[i].ar, s[i].ag, s[i].ab), s[i].light, &sc))
            continue;
        c = mixc(c, sc, cov);
    }
    return c;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT.exr\n", argv[0]);
        return 2;
    }
    const char *out = argv[1];
    size_t n = (size_t)W * H;
    float *ch[3]; /* B, G, R */
    for (int k = 0; k < 3; k++) {
        ch[k] = malloc(n * sizeof(float));
        if (!ch[k]) {
            fprintf(stderr, "make_default_image: out of memory\n");
            return 1;
        }
    }

    double ymin = 1e30, ymax = 0.0;
    for (int iy = 0; iy < H; iy++) {
        for (int ix = 0; ix < W; ix++) {
            rgb c = pixel(ix, iy);
            /* faint deterministic texture (about 0.4 %) outside the sun and the ramp */
            if (iy < RAMP_Y) {
                float nz = 1.0f + 0.004f * noise1();
                c = scale(c, nz);
            }
            float v[3] = {c.b, c.g, c.r};
            for (int k = 0; k < 3; k++) {
                float f = v[k];
                if (!(f == f) || f < 1e-4f) f = 1e-4f; /* finite, positive */
                if (f > SUN_MAX) f = SUN_MAX;
                v[k] = f;
                ch[k][(size_t)iy * W + (size_t)ix] = f;
            }
            float y = lum(mk(v[2], v[1], v[0]));
            if (y < ymin) ymin = y;
            if (y > ymax) ymax = y;
        }
    }

    const char *names[3] = {"B", "G", "R"};
    char err[512];
    bool ok = exr_write_planes(out, (const float *const *)ch, names, 3, W, H, true,
                               TINYEXR_COMPRESSIONTYPE_ZIP, err, sizeof err);
    for (int k = 0; k < 3; k++) free(ch[k]);
    if (!ok) {
        fprintf(stderr, "make_default_image: %s\n", err);
        return 1;
    }

    long size = -1;
    FILE *f = fopen(out, "rb");
    if (f) {
        if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
        fclose(f);
    }
    printf("%s: %dx%d half RGB, ZIP, %ld bytes, luminance min %.4g max %.4g cd/m^2\n", out, W,
           H, size, ymin, ymax);
    return 0;
}
