/* Every sample in $HT_SHARED/exr-samples/MANIFEST.tsv must decode to the manifest's reference
 * statistics (computed with the OpenEXR library): counts exact, luminance to 1e-5 relative for
 * lossless files and 1e-3 for lossy (B44, DWA) and luminance/chroma ones. A build without the
 * OpenEXR library must refuse what only that library decodes, naming the file and the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "testutil.h"

#define MAX_COLS 40

/* Splits LINE (modified in place) at tabs. Returns the number of fields. */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    char *nl = strpbrk(fields[n - 1], "\r\n");
    if (nl)
        *nl = '\0';
    return n;
}

static int column(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    fprintf(stderr, "MANIFEST.tsv has no column '%s'\n", name);
    exit(1);
}

/* "(x0,y0)-(x1,y1)" → box; "(x,y)" → box[0..1]. */
static bool parse_box(const char *s, int box[4])
{
    return sscanf(s, "(%d,%d)-(%d,%d)", &box[0], &box[1], &box[2], &box[3]) == 4;
}

static bool close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* The reason we expect in the refusal of a file the loader cannot read yet. */
static const char *expected_reason(const char *compression, const char *channels)
{
    if (strchr(channels, '@'))
        return "subsampled";
    static const char *const names[] = {"PXR24", "B44A", "B44", "DWAA", "DWAB"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strstr(compression, names[i]))
            return names[i];
    return NULL;
}

int main(void)
{
    const char *manifest = test_shared_path("exr-samples/MANIFEST.tsv");
    FILE *f = fopen(manifest, "r");
    if (!f) {
        printf("skipped: cannot open %s\n", manifest);
        return SKIP_CODE;
    }
    static char header[8192], line[16384];
    if (!fgets(header, sizeof header, f)) {
        fprintf(stderr, "%s is empty\n", manifest);
        return 1;
    }
    char *names[MAX_COLS];
    int ncols = split_tabs(header, names, MAX_COLS);
    int c_file = column(names, ncols, "file"), c_wh = column(names, ncols, "width_x_height"),
        c_dw = column(names, ncols, "data_window"), c_disp = column(names, ncols, "display_window"),
        c_chan = column(names, ncols, "channels_pixel_types"),
        c_comp = column(names, ncols, "compression"), c_parts = column(names, ncols, "parts"),
        c_pixels = column(names, ncols, "pixels"), c_finite = column(names, ncols, "finite_pixels"),
        c_pos = column(names, ncols, "Y_pos_pixels"), c_min = column(names, ncols, "Y_min"),
        c_max = column(names, ncols, "Y_max"), c_mean = column(names, ncols, "Y_mean"),
        c_bright = column(names, ncols, "brightest_xy_datawindow_rel"),
        c_nan = column(names, ncols, "nan_values"), c_inf = column(names, ncols, "inf_values"),
        c_neg = column(names, ncols, "neg_values"),
        c_tiny = column(names, ncols, "tinyexr_1.0.1_debian");

    int loaded = 0, refused = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *v[MAX_COLS];
        int n = split_tabs(line, v, MAX_COLS);
        if (n < ncols) {
            CHECK(false, "manifest row with %d of %d columns: %s", n, ncols, v[0]);
            continue;
        }
        rows++;
        const char *file = v[c_file];
        char rel[512];
        snprintf(rel, sizeof rel, "exr-samples/%s", file);
        char path[4096];
        snprintf(path, sizeof path, "%s", test_shared_path(rel));
        size_t flen = strlen(file);
        bool is_hdr = flen > 4 && strcmp(file + flen - 4, ".hdr") == 0;
        bool tiny = strncmp(v[c_tiny], "yes", 3) == 0 || atoi(v[c_parts]) > 1 || is_hdr;
#ifdef HT_HAVE_OPENEXR
        bool readable = true;
#else
        bool readable = tiny;
#endif
        double tol = strstr(v[c_comp], "B44") || strstr(v[c_comp], "DWA") ||
                             strchr(v[c_chan], '@')
                         ? 1e-3
                         : 1e-5;

        hdr_image img;
        char err[HT_ERR_MAX] = "";
        bool ok = image_load(path, NULL, &img, err, sizeof err);
        if (!readable) {
            const char *reason = expected_reason(v[c_comp], v[c_chan]);
            CHECK(reason != NULL, "%s: manifest says unreadable, but no known reason", file);
            CHECK(!ok, "%s: loaded, but it should be refused (%s)", file, reason);
            CHECK(strstr(err, file) != NULL, "%s: message lacks the file name: %s", file, err);
            CHECK(reason && strstr(err, reason) != NULL, "%s: message lacks '%s': %s", file,
                  reason, err);
            CHECK(strstr(err, "OpenEXR library") != NULL, "%s: message lacks the cure: %s",
                  file, err);
            CHECK(img.rgba == NULL && img.width == 0, "%s: refused, but *img not left empty", file);
            if (!ok)
                refused++;
            image_free(&img);
            continue;
        }
        CHECK(ok, "%s: failed to load: %s", file, err);
        if (!ok)
            continue;
        loaded++;

        int w = 0, h = 0, dw[4], disp[4], bright[2];
        CHECK(sscanf(v[c_wh], "%dx%d", &w, &h) == 2, "%s: bad width_x_height", file);
        CHECK(parse_box(v[c_dw], dw), "%s: bad data_window", file);
        CHECK(parse_box(v[c_disp], disp), "%s: bad display_window", file);
        CHECK(sscanf(v[c_bright], "(%d,%d)", &bright[0], &bright[1]) == 2, "%s: bad brightest",
              file);
        CHECK(img.width == w && img.height == h, "%s: size %dx%d, expected %dx%d", file,
              img.width, img.height, w, h);
        for (int k = 0; k < 4; k++) {
            CHECK(img.data_window[k] == dw[k], "%s: data_window[%d] = %d, expected %d", file, k,
                  img.data_window[k], dw[k]);
            CHECK(img.display_window[k] == disp[k], "%s: display_window[%d] = %d, expected %d",
                  file, k, img.display_window[k], disp[k]);
        }
        CHECK(img.format[0] && img.compression[0] && img.channels[0] && img.rgb_source[0],
              "%s: metadata strings not filled", file);
        CHECK(strcmp(img.format, is_hdr ? "Radiance" : "OpenEXR") == 0, "%s: format '%s'", file,
              img.format);
        if (!is_hdr) {
            bool all_half = strncmp(v[c_chan], "half:", 5) == 0 ||
                            strncmp(v[c_chan], "part 0: half:", 13) == 0;
            CHECK(img.half_exact == all_half, "%s: half_exact %d", file, img.half_exact);
            /* The manifest lists every part's compression; part 0 comes first. */
            CHECK(strncmp(v[c_comp], img.compression, strlen(img.compression)) == 0,
                  "%s: compression '%s', manifest '%s'", file, img.compression, v[c_comp]);
        }

        image_stats st;
        image_compute_stats(&img, &st);
        CHECK(st.total == strtoull(v[c_pixels], NULL, 10), "%s: pixels %llu", file,
              (unsigned long long)st.total);
        CHECK(st.finite == strtoull(v[c_finite], NULL, 10), "%s: finite %llu, expected %s", file,
              (unsigned long long)st.finite, v[c_finite]);
        CHECK(st.positive == strtoull(v[c_pos], NULL, 10), "%s: Y>0 %llu, expected %s", file,
              (unsigned long long)st.positive, v[c_pos]);
        CHECK(st.nan == strtoull(v[c_nan], NULL, 10), "%s: nan %llu, expected %s", file,
              (unsigned long long)st.nan, v[c_nan]);
        CHECK(st.inf == strtoull(v[c_inf], NULL, 10), "%s: inf %llu, expected %s", file,
              (unsigned long long)st.inf, v[c_inf]);
        CHECK(st.negative == strtoull(v[c_neg], NULL, 10), "%s: neg %llu, expected %s", file,
              (unsigned long long)st.negative, v[c_neg]);
        CHECK(close_rel(st.y_min, strtod(v[c_min], NULL), tol), "%s: Y min %.9g, expected %s",
              file, st.y_min, v[c_min]);
        CHECK(close_rel(st.y_max, strtod(v[c_max], NULL), tol), "%s: Y max %.9g, expected %s",
              file, st.y_max, v[c_max]);
        CHECK(close_rel(st.y_mean, strtod(v[c_mean], NULL), tol),
              "%s: Y mean %.9g, expected %s", file, st.y_mean, v[c_mean]);
        CHECK(st.y_log_average > st.y_min && st.y_log_average <= st.y_mean * (1 + 1e-9),
              "%s: log-average %.9g outside (min, mean]", file, st.y_log_average);

        /* First pixel in row-major order with Y == max: a flip or transpose moves it. */
        int bx = -1, by = -1;
        for (int y = 0; y < img.height && bx < 0; y++)
            for (int x = 0; x < img.width; x++) {
                const float *p = img.rgba + ((size_t)y * img.width + x) * 4;
                double Y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
                if (Y == st.y_max) {
                    bx = x;
                    by = y;
                    break;
                }
            }
        CHECK(bx == bright[0] && by == bright[1], "%s: brightest pixel at (%d,%d), expected %s",
              file, bx, by, v[c_bright]);
        printf("%s: ok (%dx%d, %s, %s, %s)\n", file, img.width, img.height, img.compression,
               img.channels, img.rgb_source);
        (void)tiny;
        image_free(&img);
        CHECK(img.rgba == NULL, "%s: image_free left pixels", file);
    }
    fclose(f);
    printf("%d rows: %d loaded, %d refused as expected\n", rows, loaded, refused);
    CHECK(rows >= 12, "only %d rows in the manifest", rows);
#ifdef HT_HAVE_OPENEXR
    CHECK(loaded == rows, "only %d of %d files loaded", loaded, rows);
#else
    CHECK(loaded >= 8, "only %d files loaded", loaded);
#endif
    return test_finish("test_load_manifest");
}
