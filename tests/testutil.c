#include "testutil.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>


int test_failures;

int test_finish(const char *name)
{
    if (test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

bool test_check_near(const char *file, int line, const char *ax, const char *bx,
                     const char *tolx, double a, double b, double tol)
{
    if (tolx ? fabs(a - b) <= tol : a == b)
        return true;
    if (tolx)
        fprintf(stderr, "%s:%d: CHECK_NEAR(%s, %s, %s) failed: %.17g vs %.17g, off by %.3g > "
                "%.3g\n", file, line, ax, bx, tolx, a, b, fabs(a - b), tol);
    else
        fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %.17g vs %.17g\n", file, line, ax, bx, a,
                b);
    test_failures++;
    return false;
}

const char *test_shared_path(const char *rel)
{
    static char buf[4096];
    const char *shared = getenv("HT_SHARED");
    struct stat st;
    if (!shared || stat(shared, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("skipped: HT_SHARED (../shared) is not there\n");
        exit(SKIP_CODE);
    }
    snprintf(buf, sizeof buf, "%s/%s", shared, rel);
    return buf;
}

void test_make_image(hdr_image *img, int w, int h, void (*fn)(int x, int y, float rgb[3]))
{
    memset(img, 0, sizeof *img);
    img->width = w;
    img->height = h;
    img->rgba = malloc((size_t)w * h * 4 * sizeof(float));
    if (!img->rgba)
        abort();
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float *p = img->rgba + ((size_t)y * w + x) * 4;
            fn(x, y, p);
            p[3] = 1.0f;
        }
    img->data_window[2] = img->display_window[2] = w - 1;
    img->data_window[3] = img->display_window[3] = h - 1;
    snprintf(img->format, sizeof img->format, "synthetic");
}

float test_rand(unsigned *state)
{
    unsigned x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) / 16777216.0f;
}

unsigned test_scene_seed = 12345;
float test_lamp_x = 40.0f, test_lamp_y = 20.0f;

void test_scene_random(int x, int y, float rgb[3])
{
    (void)x, (void)y;
    float l = powf(10.0f, -3.0f + 7.0f * test_rand(&test_scene_seed));
    for (int c = 0; c < 3; c++)
        rgb[c] = l * (0.2f + 1.6f * test_rand(&test_scene_seed));
    float u = test_rand(&test_scene_seed);
    if (u < 0.002f)
        rgb[0] = NAN;
    else if (u < 0.004f)
        rgb[1] = INFINITY;
    else if (u < 0.006f)
        rgb[0] = rgb[1] = rgb[2] = 0.0f;
    else if (u < 0.008f)
        rgb[2] = -rgb[2] * 20.0f;   /* negative luminance */
}

void test_scene_lamp(int x, int y, float rgb[3])
{
    float dx = x - test_lamp_x, dy = y - test_lamp_y;
    float l = 0.05f + 0.02f * x + 5000.0f / (1.0f + dx * dx + dy * dy);
    rgb[0] = l * 1.2f;
    rgb[1] = l;
    rgb[2] = l * 0.7f;
}

int test_tsv_split(char *line, char **fields, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    fields[n - 1][strcspn(fields[n - 1], "\r\n")] = '\0';
    return n;
}

int test_tsv_column(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    fprintf(stderr, "MANIFEST.tsv has no column '%s'\n", name);
    exit(1);
}
