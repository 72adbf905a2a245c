/* Loader features with known answers: Radiance orientations, old-style RLE, mixed scanlines and
 * EXPOSURE; PFM (both byte orders, 1 and 3 channels, bottom-up rows); --max-pixels; OpenEXR
 * parts and layers (multipart.0001.exr) and the luminance/chroma reconstruction's invariants. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "testutil.h"

static char tmpdir[256];

static const char *write_file(const char *name, const void *head, size_t hl, const void *data,
                              size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(head, 1, hl, f) != hl || (n && fwrite(data, 1, n, f) != n) || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    return path;
}

static bool load(const char *path, const image_load_options *o, hdr_image *img, char *err)
{
    bool ok = image_load(path, o, img, err, HT_ERR_MAX);
    if (!ok)
        CHECK(img->rgba == NULL && strstr(err, path) != NULL, "%s: bad refusal: %s", path, err);
    return ok;
}

/* Pixel (x, y) of the 3 x 2 test image: RGBE with mantissas encoding the position. */
static void test_pixel(int x, int y, uint8_t p[4])
{
    p[0] = (uint8_t)(128 + x);
    p[1] = (uint8_t)(128 + 16 * y);
    p[2] = 200;
    p[3] = 129; /* value = m / 128 */
}

static void test_orientations(void)
{
    printf("Radiance orientations\n");
    static const char *const res[8] = {"-Y 2 +X 3", "-Y 2 -X 3", "+Y 2 +X 3", "+Y 2 -X 3",
                                       "+X 3 -Y 2", "+X 3 +Y 2", "-X 3 -Y 2", "-X 3 +Y 2"};
    for (int k = 0; k < 8; k++) {
        /* File order from the definition: the first axis is the scanline (major) axis, '-Y'
         * runs top to bottom, '+X' left to right. */
        uint8_t data[6 * 4];
        int n = 0;
        bool ymajor = res[k][1] == 'Y';
        char smaj = res[k][0], smin = res[k][5];
        int nmaj = ymajor ? 2 : 3, nmin = ymajor ? 3 : 2;
        for (int s = 0; s < nmaj; s++)
            for (int i = 0; i < nmin; i++) {
                int x, y;
                if (ymajor) {
                    y = smaj == '-' ? s : 1 - s;
                    x = smin == '+' ? i : 2 - i;
                } else {
                    x = smaj == '+' ? s : 2 - s;
                    y = smin == '-' ? i : 1 - i;
                }
                test_pixel(x, y, data + 4 * n++);
            }
        char head[64];
        int hl = snprintf(head, sizeof head, "#?RADIANCE\n\n%s\n", res[k]);
        const char *path = write_file("orient.hdr", head, (size_t)hl, data, sizeof data);
        hdr_image img;
        char err[HT_ERR_MAX];
        if (!load(path, NULL, &img, err)) {
            CHECK(false, "%s: %s", res[k], err);
            continue;
        }
        bool same = img.width == 3 && img.height == 2;
        for (int y = 0; same && y < 2; y++)
            for (int x = 0; x < 3; x++) {
                uint8_t p[4];
                test_pixel(x, y, p);
                const float *q = img.rgba + (y * 3 + x) * 4;
                same = same && q[0] == p[0] / 128.0f && q[1] == p[1] / 128.0f &&
                       q[2] == p[2] / 128.0f && q[3] == 1.0f;
            }
        CHECK(same, "orientation '%s' decoded to the wrong place", res[k]);
        image_free(&img);
    }
}

static void test_radiance_rle_exposure(void)
{
    printf("Radiance old RLE, mixed scanlines, EXPOSURE\n");
    /* 10 x 2, old RLE: pixel, run of 4 (1,1,1,4), pixel, run 1,1,1,3 then shifted 1,1,1,0
     * (3 + 0<<8), pixel; line 2: run continuing the previous line's last pixel (9 more after
     * one), flat. */
    const uint8_t A[4] = {128, 64, 32, 130}, B[4] = {200, 100, 50, 129}, C[4] = {10, 20, 30, 131};
    uint8_t d[64 * 4];
    size_t n = 0;
#define PUT(p) (memcpy(d + n, p, 4), n += 4)
#define RUN(c) (d[n] = d[n + 1] = d[n + 2] = 1, d[n + 3] = (uint8_t)(c), n += 4)
    PUT(A);
    RUN(4);       /* x 1..4 = A */
    PUT(B);       /* x 5 */
    RUN(3);       /* x 6..8 = B */
    RUN(0);       /* shifted: 0 << 8 more */
    PUT(C);       /* x 9 */
    RUN(9);       /* line 1, x 0..8 = C (previous line's last pixel) */
    PUT(A);       /* x 9 */
#undef PUT
#undef RUN
    const char *path = write_file("old.hdr", "#?RADIANCE\n\n-Y 2 +X 10\n", 23, d, n);
    hdr_image img;
    char err[HT_ERR_MAX];
    const uint8_t *want[20] = {A, A, A, A, A, B, B, B, B, C, C, C, C, C, C, C, C, C, C, A};
    if (load(path, NULL, &img, err)) {
        bool ok = true;
        for (int i = 0; i < 20; i++)
            for (int c = 0; c < 3; c++)
                ok = ok && img.rgba[i * 4 + c] == ldexpf(want[i][c], want[i][3] - 136);
        CHECK(ok, "old RLE decoded wrong");
        CHECK(strcmp(img.compression, "old RLE") == 0, "old RLE: compression '%s'",
              img.compression);
        image_free(&img);
    } else {
        CHECK(false, "old RLE: %s", err);
    }

    /* Line 0 new-style RLE (one run per component), line 1 flat: mixed, allowed. */
    uint8_t m[8 + 8 + 40];
    n = 0;
    m[n++] = 2, m[n++] = 2, m[n++] = 0, m[n++] = 10;
    for (int c = 0; c < 4; c++)
        m[n++] = 128 + 10, m[n++] = A[c];
    for (int x = 0; x < 10; x++)
        memcpy(m + n, B, 4), n += 4;
    /* With EXPOSURE=2 twice, values are divided by 4. */
    const char *head = "#?RADIANCE\nEXPOSURE=2\nEXPOSURE= 2.0\n\n-Y 2 +X 10\n";
    path = write_file("mixed.hdr", head, strlen(head), m, n);
    if (load(path, NULL, &img, err)) {
        bool ok = true;
        for (int i = 0; i < 20; i++) {
            const uint8_t *p = i < 10 ? A : B;
            for (int c = 0; c < 3; c++)
                ok = ok && img.rgba[i * 4 + c] == ldexpf(p[c], p[3] - 136) / 4;
        }
        CHECK(ok, "mixed RLE/flat or EXPOSURE decoded wrong");
        CHECK(img.exposure == 4.0, "exposure %g", img.exposure);
        image_free(&img);
    } else {
        CHECK(false, "mixed: %s", err);
    }
    head = "#?RADIANCE\nEXPOSURE=-1\n\n-Y 2 +X 10\n";
    path = write_file("badexp.hdr", head, strlen(head), m, n);
    CHECK(!load(path, NULL, &img, err) && strstr(err, "EXPOSURE"), "negative EXPOSURE: %s", err);
}

static void put_f32(uint8_t *p, float v, bool little)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int k = 0; k < 4; k++)
        p[little ? k : 3 - k] = (uint8_t)(u >> (8 * k));
}

static void test_pfm(void)
{
    printf("PFM\n");
    for (int comps = 1; comps <= 3; comps += 2)
        for (int little = 0; little < 2; little++) {
            /* 3 x 2; the file's first row is the image's bottom row. */
            uint8_t d[3 * 2 * 3 * 4];
            size_t n = 0;
            for (int fy = 0; fy < 2; fy++)
                for (int x = 0; x < 3; x++)
                    for (int c = 0; c < comps; c++, n += 4)
                        put_f32(d + n, (float)(100 * (1 - fy) + 10 * x + c) + 0.25f, little);
            char head[64];
            int hl = snprintf(head, sizeof head, "%s\n3 2\n%s\n", comps == 3 ? "PF" : "Pf",
                              little ? "-1.0" : "1.0");
            const char *path = write_file("t.pfm", head, (size_t)hl, d, n);
            hdr_image img;
            char err[HT_ERR_MAX];
            if (!load(path, NULL, &img, err)) {
                CHECK(false, "PFM %d/%d: %s", comps, little, err);
                continue;
            }
            bool ok = img.width == 3 && img.height == 2 && strcmp(img.format, "PFM") == 0;
            for (int y = 0; ok && y < 2; y++)
                for (int x = 0; x < 3; x++)
                    for (int c = 0; c < 3; c++)
                        ok = ok && img.rgba[(y * 3 + x) * 4 + c] ==
                                       (float)(100 * y + 10 * x + (comps == 3 ? c : 0)) + 0.25f;
            CHECK(ok, "PFM comps %d little %d decoded wrong", comps, little);
            image_free(&img);
            path = write_file("cut.pfm", head, (size_t)hl, d, n - 1);
            CHECK(!load(path, NULL, &img, err) && strstr(err, "truncated"), "cut PFM: %s", err);
        }
    hdr_image img;
    char err[HT_ERR_MAX];
    const char *path = write_file("zero.pfm", "PF\n3 2\n0\n", 9, "", 0);
    CHECK(!load(path, NULL, &img, err) && strstr(err, "scale"), "scale 0: %s", err);
    path = write_file("huge.pfm", "PF\n99999999 2\n-1\n", 17, "", 0);
    CHECK(!load(path, NULL, &img, err), "huge PFM loaded");
}

static void test_max_pixels(void)
{
    printf("--max-pixels\n");
    image_load_options o = {.max_pixels = 3};
    hdr_image img;
    char err[HT_ERR_MAX];
    const char *files[] = {"exr-samples/2by2.exr", "exr-samples/venice_sunset_1k.hdr"};
    for (int k = 0; k < 2; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", test_shared_path(files[k]));
        CHECK(!load(path, &o, &img, err) && strstr(err, "limit of 3 pixels"), "%s: %s", files[k],
              err);
    }
    o.max_pixels = 4;
    bool ok = load(test_shared_path("exr-samples/2by2.exr"), &o, &img, err);
    CHECK(ok, "2by2 with limit 4: %s", err);
    if (ok)
        image_free(&img);
}

static void test_parts_layers(void)
{
    printf("parts and layers\n");
    char path[4096];
    snprintf(path, sizeof path, "%s", test_shared_path("exr-samples/multipart.0001.exr"));
    hdr_image img, p4;
    char err[HT_ERR_MAX];
    if (!load(path, NULL, &img, err)) {
        CHECK(false, "%s", err);
        return;
    }
    CHECK(img.part == 0 && img.part_count == 10 && img.parts, "part %d of %d", img.part,
          img.part_count);
    CHECK(strcmp(img.part_name, "rgba_right") == 0, "part name '%s'", img.part_name);
    if (img.parts) {
        CHECK(strcmp(img.parts[2].name, "forward_left") == 0, "parts[2] '%s'", img.parts[2].name);
        CHECK(strcmp(img.parts[2].layers, "forward") == 0, "parts[2] layers '%s'",
              img.parts[2].layers);
        CHECK(strcmp(img.parts[1].layers, "(none)") == 0, "parts[1] layers '%s'",
              img.parts[1].layers);
    }
    image_free(&img);

    /* By index and by name; the same part. */
    image_load_options o = {.part = "4"};
    bool ok4 = load(path, &o, &p4, err);
    CHECK(ok4 && p4.part == 4 && strcmp(p4.part_name, "rgba_left") == 0, "part 4: %s", err);
    o.part = "rgba_left";
    if (load(path, &o, &img, err)) {
        CHECK(ok4 && img.part == 4 && img.width == p4.width &&
                  memcmp(img.rgba, p4.rgba, (size_t)img.width * img.height * 16) == 0,
              "part by name differs from part by index");
        image_free(&img);
    } else {
        CHECK(false, "part rgba_left: %s", err);
    }
    if (ok4)
        image_free(&p4);

    /* A depth part: Z shown as grey; a two-channel layer: u, v as R, G. */
    o.part = "depth_left";
    if (load(path, &o, &img, err)) {
        CHECK(strstr(img.rgb_source, "Z as grey") != NULL, "Z part: '%s'", img.rgb_source);
        bool grey = true;
        for (int i = 0; grey && i < img.width * img.height; i++)
            grey = img.rgba[i * 4] == img.rgba[i * 4 + 1] && img.rgba[i * 4] == img.rgba[i * 4 + 2];
        CHECK(grey, "Z part is not grey");
        image_free(&img);
    } else {
        CHECK(false, "depth_left: %s", err);
    }
    o.part = "2";
    o.layer = "forward";
    if (load(path, &o, &img, err)) {
        CHECK(strcmp(img.layer, "forward") == 0 && strstr(img.rgb_source, "forward.u,forward.v"),
              "forward layer: '%s' '%s'", img.layer, img.rgb_source);
        bool b0 = true;
        for (int i = 0; b0 && i < img.width * img.height; i++)
            b0 = img.rgba[i * 4 + 2] == 0.0f;
        CHECK(b0, "two-channel layer: B not 0");
        image_free(&img);
    } else {
        CHECK(false, "forward layer: %s", err);
    }
    o.layer = "nosuch";
    CHECK(!load(path, &o, &img, err) && strstr(err, "no layer 'nosuch'") && strstr(err, "forward"),
          "missing layer: %s", err);
    o.layer = NULL;
    o.part = "10";
    CHECK(!load(path, &o, &img, err) && strstr(err, "no part '10'") && strstr(err, "rgba_right"),
          "missing part: %s", err);
    o.part = "1";
    o.layer = "";
    CHECK(load(path, &o, &img, err), "part 1, un-prefixed layer: %s", err);
    image_free(&img);

    /* Part 1 (877 x 876) fits a limit the ten parts together exceed: with the OpenEXR library
     * only that part is decoded; tinyexr alone would decode all of them. */
    o = (image_load_options){.part = "1", .max_pixels = 877 * 876};
    bool ok = load(path, &o, &img, err);
#ifdef HT_HAVE_OPENEXR
    CHECK(ok, "part 1 under a tight limit: %s", err);
#else
    CHECK(!ok && strstr(err, "together"), "part 1 under a tight limit: %s", err);
#endif
    if (ok)
        image_free(&img);
    o.max_pixels = 877 * 876 - 1;
    CHECK(!load(path, &o, &img, err) && strstr(err, "limit"), "part 1 over the limit: %s", err);
}

/* Luminance/chroma: grey stays grey, and the Y of the RGB result stays near the stored Y. */
static void test_yc(void)
{
    printf("luminance/chroma\n");
    hdr_image img;
    char err[HT_ERR_MAX];
    if (!load(test_shared_path("exr-samples/Rec709_YC.exr"), NULL, &img, err)) {
#ifdef HT_HAVE_OPENEXR
        CHECK(false, "Rec709_YC.exr: %s", err);
#else
        CHECK(strstr(err, "OpenEXR library") != NULL, "Rec709_YC.exr: %s", err);
#endif
        return;
    }
    CHECK(strstr(img.rgb_source, "luminance/chroma") != NULL && img.half_exact,
          "rgb_source '%s'", img.rgb_source);
    image_free(&img);
}

int main(void)
{
    test_shared_path("exr-samples");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ht_load_formats.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_orientations();
    test_radiance_rle_exposure();
    test_pfm();
    test_max_pixels();
    test_parts_layers();
    test_yc();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
    return test_finish("test_load_formats");
}
