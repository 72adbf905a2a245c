/* region_compute (src/ref/region.c) on a small image: the figures by hand (min, max, mean,
 * median of an even and an odd count, log-average, the histogram's total and ends), pixels
 * without luminance left out, the rectangle's corners inclusive; the same from the half floats
 * alone (image_add_half dropping the floats, as a viewer may); bad rectangles refused. */
#include <math.h>
#include <string.h>

#include "region.h"
#include "testutil.h"

static const double W1[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};

/* Grey pixels of value x + 4 y + 1 (exact in half), (3, 0) NaN and (0, 2) black. */
static void grid(int x, int y, float rgb[3])
{
    float v = (float)(x + 4 * y + 1);
    if (x == 3 && y == 0)
        v = NAN;
    if (x == 0 && y == 2)
        v = 0;
    rgb[0] = rgb[1] = rgb[2] = v;
}

static void check_all(const hdr_image *img, const char *label)
{
    char err[256];
    region_stats st;
    int rect[4] = {1, 0, 3, 2};   /* x 1..3, y 0..2: 9 pixels, NaN at (3,0) */
    CHECK(region_compute(img, rect, W1, 10.0, &st, err, sizeof err), "%s: %s", label, err);
    /* Values 2, 3, 6, 7, 8, 10, 11, 12 (4 is the NaN). */
    const double v[] = {2, 3, 6, 7, 8, 10, 11, 12};
    double sum = 0, lsum = 0;
    for (int i = 0; i < 8; i++) {
        sum += v[i];
        lsum += log(v[i]);
    }
    CHECK_EQ(st.pixels, 9);
    CHECK_EQ(st.counted, 8);
    CHECK_NEAR(st.file.min, 2, 1e-12);
    CHECK_NEAR(st.file.max, 12, 1e-12);
    CHECK_NEAR(st.file.mean, sum / 8, 1e-12);
    CHECK_NEAR(st.file.median, 7.5, 1e-12);
    CHECK_NEAR(st.file.log_average, exp(lsum / 8), 1e-12);
    CHECK_NEAR(st.cd_m2.median, 75, 1e-9);
    CHECK_NEAR(st.ln_min, log(20), 1e-12);
    CHECK_NEAR(st.ln_max, log(120), 1e-12);
    uint32_t total = 0;
    for (int i = 0; i < REGION_BINS; i++)
        total += st.hist[i];
    CHECK_EQ(total, 8);
    CHECK(st.hist[0] == 1 && st.hist[REGION_BINS - 1] == 1, "%s: histogram ends", label);
    int one[4] = {0, 1, 0, 3};   /* a column: 5, 0 (black, left out), 13 */
    CHECK(region_compute(img, one, W1, 1.0, &st, err, sizeof err), "%s", err);
    CHECK(st.pixels == 3 && st.counted == 2 && fabs(st.file.median - 9) < 1e-12, "%s: column",
          label);
    int bad[][4] = {{2, 0, 1, 0}, {0, 0, 4, 0}, {0, -1, 0, 0}, {0, 0, 0, 4}};
    for (int i = 0; i < 4; i++)
        CHECK(!region_compute(img, bad[i], W1, 1.0, &st, err, sizeof err) &&
                  strstr(err, "--region"), "%s: bad rectangle %d accepted", label, i);
}

int main(void)
{
    hdr_image img;
    test_make_image(&img, 4, 4, grid);
    img.half_exact = true;
    check_all(&img, "floats");
    CHECK(image_add_half(&img, true) && !img.rgba, "image_add_half did not drop the floats");
    check_all(&img, "half floats");
    image_free(&img);
    int rect[4];
    char err[256];
    CHECK(region_parse("1,2,30,40", rect, err, sizeof err) && rect[3] == 40, "%s", err);
    CHECK(!region_parse("1,2,3,", rect, err, sizeof err), "'1,2,3,' parsed");
    CHECK(!region_parse("1,2,3,4,5", rect, err, sizeof err), "five numbers parsed");
    return test_finish("test_region");
}
