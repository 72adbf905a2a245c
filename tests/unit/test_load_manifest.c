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

/* The manifest's columns, by name. */
typedef struct cols {
    int file, wh, dw, disp, chan, comp, parts, pixels, finite, pos, min, max, mean, bright, nan,
        inf, neg, tiny;
} cols;

static cols find_columns(char **names, int n)
{
    static const char *const key[] = {
        "file", "width_x_height", "data_window", "display_window", "channels_pixel_types",
        "compression", "parts", "pixels", "finite_pixels", "Y_pos_pixels", "Y_min", "Y_max",
        "Y_mean", "brightest_xy_datawindow_rel", "nan_values", "inf_values", "neg_values",
        "tinyexr_1.0.1_debian"};
    int at[sizeof key / sizeof key[0]];
    for (size_t i = 0; i < sizeof key / sizeof key[0]; i++)
        at[i] = test_tsv_column(names, n, key[i]);
    return (cols){at[0],  at[1],  at[2],  at[3],  at[4],  at[5],  at[6],  at[7],  at[8],
                  at[9],  at[10], at[11], at[12], at[13], at[14], at[15], at[16], at[17]};
}

/* A file the manifest says this build cannot read: refused with the file, the reason and the
 * cure in the message, *IMG left empty. Returns whether it was refused. */
static bool check_refused(const char *file, char **v, const cols *c, bool ok, const char *err,
                          const hdr_image *img)
{
    const char *reason = expected_reason(v[c->comp], v[c->chan]);
    CHECK(reason != NULL, "%s: manifest says unreadable, but no known reason", file);
    CHECK(!ok, "%s: loaded, but it should be refused (%s)", file, reason);
    CHECK(strstr(err, file) != NULL, "%s: message lacks the file name: %s", file, err);
    CHECK(reason && strstr(err, reason) != NULL, "%s: message lacks '%s': %s", file, reason,
          err);
    CHECK(strstr(err, "OpenEXR library") != NULL, "%s: message lacks the cure: %s", file, err);
    CHECK(img->rgba == NULL && img->width == 0, "%s: refused, but *img not left empty", file);
    return !ok;
}

/* Size, windows and metadata against the row. */
static void check_header(const char *file, char **v, const cols *c, bool is_hdr,
                         const hdr_image *img)
{
    int w = 0, h = 0, dw[4], disp[4];
    CHECK(sscanf(v[c->wh], "%dx%d", &w, &h) == 2, "%s: bad width_x_height", file);
    CHECK(parse_box(v[c->dw], dw), "%s: bad data_window", file);
    CHECK(parse_box(v[c->disp], disp), "%s: bad display_window", file);
    CHECK(img->width == w && img->height == h, "%s: size %dx%d, expected %dx%d", file,
          img->width, img->height, w, h);
    for (int k = 0; k < 4; k++) {
        CHECK(img->data_window[k] == dw[k], "%s: data_window[%d] = %d, expected %d", file, k,
              img->data_window[k], dw[k]);
        CHECK(img->display_window[k] == disp[k], "%s: display_window[%d] = %d, expected %d",
              file, k, img->display_window[k], disp[k]);
    }
    CHECK(img->format[0] && img->compression[0] && img->channels[0] && img->rgb_source[0],
          "%s: metadata strings not filled", file);
    CHECK(strcmp(img->format, is_hdr ? "Radiance" : "OpenEXR") == 0, "%s: format '%s'", file,
          img->format);
    if (is_hdr)
        return;
    bool all_half =
        strncmp(v[c->chan], "half:", 5) == 0 || strncmp(v[c->chan], "part 0: half:", 13) == 0;
    CHECK(img->half_exact == all_half, "%s: half_exact %d", file, img->half_exact);
    /* The manifest lists every part's compression; part 0 comes first. */
    CHECK(strncmp(v[c->comp], img->compression, strlen(img->compression)) == 0,
          "%s: compression '%s', manifest '%s'", file, img->compression, v[c->comp]);
}

/* The statistics against the row (Y within TOL relative) and the brightest pixel: the first
 * in row-major order with Y == max (a flip or transpose moves it). */
static void check_stats(const char *file, char **v, const cols *c, double tol,
                        const hdr_image *img)
{
    image_stats st;
    image_compute_stats(img, &st);
    const struct { unsigned long long got; int col; const char *what; } counts[] = {
        {st.total, c->pixels, "pixels"}, {st.finite, c->finite, "finite"},
        {st.positive, c->pos, "Y>0"},    {st.nan, c->nan, "nan"},
        {st.inf, c->inf, "inf"},         {st.negative, c->neg, "neg"},
    };
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        CHECK(counts[i].got == strtoull(v[counts[i].col], NULL, 10), "%s: %s %llu, expected %s",
              file, counts[i].what, counts[i].got, v[counts[i].col]);
    CHECK(close_rel(st.y_min, strtod(v[c->min], NULL), tol), "%s: Y min %.9g, expected %s",
          file, st.y_min, v[c->min]);
    CHECK(close_rel(st.y_max, strtod(v[c->max], NULL), tol), "%s: Y max %.9g, expected %s",
          file, st.y_max, v[c->max]);
    CHECK(close_rel(st.y_mean, strtod(v[c->mean], NULL), tol), "%s: Y mean %.9g, expected %s",
          file, st.y_mean, v[c->mean]);
    CHECK(st.y_log_average > st.y_min && st.y_log_average <= st.y_mean * (1 + 1e-9),
          "%s: log-average %.9g outside (min, mean]", file, st.y_log_average);
    int bright[2] = {0, 0}, bx = -1, by = -1;
    CHECK(sscanf(v[c->bright], "(%d,%d)", &bright[0], &bright[1]) == 2, "%s: bad brightest",
          file);
    for (int y = 0; y < img->height && bx < 0; y++)
        for (int x = 0; x < img->width; x++) {
            const float *p = img->rgba + ((size_t)y * img->width + x) * 4;
            double Y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
            if (Y == st.y_max) {
                bx = x;
                by = y;
                break;
            }
        }
    CHECK(bx == bright[0] && by == bright[1], "%s: brightest pixel at (%d,%d), expected %s",
          file, bx, by, v[c->bright]);
}

/* One manifest row: its file loaded (counted in *LOADED) and checked, or refused as this build
 * must (counted in *REFUSED). */
static void check_row(char **v, const cols *c, int *loaded, int *refused)
{
    const char *file = v[c->file];
    char rel[512], path[4096];
    snprintf(rel, sizeof rel, "exr-samples/%s", file);
    snprintf(path, sizeof path, "%s", test_shared_path(rel));
    size_t flen = strlen(file);
    bool is_hdr = flen > 4 && strcmp(file + flen - 4, ".hdr") == 0;
#ifdef HT_HAVE_OPENEXR
    bool readable = true;
#else
    bool readable = strncmp(v[c->tiny], "yes", 3) == 0 || atoi(v[c->parts]) > 1 || is_hdr;
#endif
    double tol = strstr(v[c->comp], "B44") || strstr(v[c->comp], "DWA") || strchr(v[c->chan], '@')
                     ? 1e-3
                     : 1e-5;
    hdr_image img;
    char err[HT_ERR_MAX] = "";
    bool ok = image_load(path, NULL, &img, err, sizeof err);
    if (!readable) {
        *refused += check_refused(file, v, c, ok, err, &img);
        image_free(&img);
        return;
    }
    CHECK(ok, "%s: failed to load: %s", file, err);
    if (!ok)
        return;
    (*loaded)++;
    check_header(file, v, c, is_hdr, &img);
    check_stats(file, v, c, tol, &img);
    printf("%s: ok (%dx%d, %s, %s, %s)\n", file, img.width, img.height, img.compression,
           img.channels, img.rgb_source);
    image_free(&img);
    CHECK(img.rgba == NULL, "%s: image_free left pixels", file);
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
        fclose(f);
        return 1;
    }
    char *names[MAX_COLS];
    int ncols = test_tsv_split(header, names, MAX_COLS);
    cols c = find_columns(names, ncols);
    int loaded = 0, refused = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *v[MAX_COLS];
        int n = test_tsv_split(line, v, MAX_COLS);
        if (n < ncols) {
            CHECK(false, "manifest row with %d of %d columns: %s", n, ncols, v[0]);
            continue;
        }
        rows++;
        check_row(v, &c, &loaded, &refused);
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
