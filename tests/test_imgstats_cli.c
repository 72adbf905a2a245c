/* `hdrtone stats --json` carries the image statistics: the brightest pixel of composite_b.exr
 * (negative data-window origin) at the manifest's place, the same brightest/darkest/peaks from
 * both backends, and histograms that add up to the pixel count. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The stdout of CMD (static buffer), or NULL when it fails. */
static const char *run(const char *cmd)
{
    static char buf[1 << 17];
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    return pclose(p) == 0 ? buf : NULL;
}

/* The text from "brightest" up to "rgba_histogram" (exclusive), malloc'ed. */
static char *pixels_part(const char *json)
{
    const char *a = json ? strstr(json, "\"brightest\"") : NULL;
    const char *b = a ? strstr(a, "\"rgba_histogram\"") : NULL;
    if (!b)
        return NULL;
    char *s = malloc((size_t)(b - a) + 1);
    memcpy(s, a, (size_t)(b - a));
    s[b - a] = '\0';
    return s;
}

int main(void)
{
    const char *bin = getenv("HT_BIN");
    const char *file = test_shared_path("exr-samples/composite_b.exr");
    if (!bin) {
        printf("skipped: HT_BIN not set\n");
        return SKIP_CODE;
    }
    char cmd[8192];
    char *part[2] = {NULL, NULL};
    const char *backends[2] = {"cpu", "gpu"};
    for (int b = 0; b < 2; b++) {
        snprintf(cmd, sizeof cmd, "'%s' stats '%s' --json --peaks 5 --min-distance 12 --backend %s",
                 bin, file, backends[b]);
        const char *out = run(cmd);
        if (!out && b == 1) {
            printf("skipped: the GPU backend does not run here\n");
            free(part[0]);
            return SKIP_CODE;
        }
        CHECK(out != NULL, "%s failed", cmd);
        if (!out)
            continue;
        CHECK(strstr(out, "\"brightest\": {\"x\": 87, \"y\": 1, \"abs_x\": 106, \"abs_y\": -33,"),
              "%s: brightest not at the manifest's (87,1) / (106,-33)", backends[b]);
        CHECK(strstr(out, "\"grey_histogram\": [") && strstr(out, "\"peaks\": [{"),
              "%s: fields missing", backends[b]);
        /* The four RGBA arrays and the grey one each add up to the 263x391 pixels. */
        const char *h = strstr(out, "\"rgba_histogram\": [[");
        h = h ? h + strlen("\"rgba_histogram\": [") : NULL;
        for (int k = 0; k < 5; k++) {
            h = k == 4 ? strstr(out, "\"grey_histogram\": [") : h;
            h = h ? strchr(h, '[') : NULL;
            CHECK(h != NULL, "%s: histogram %d missing", backends[b], k);
            if (!h)
                break;
            unsigned long sum = 0;
            char *end = (char *)h;
            for (int i = 0; i < 256; i++)
                sum += strtoul(end + 1, &end, 10);
            CHECK(*end == ']' && sum == 263ul * 391ul, "%s: histogram %d: sum %lu", backends[b],
                  k, sum);
            h = end;
        }
        part[b] = pixels_part(out);
    }
    CHECK(part[0] && part[1] && strcmp(part[0], part[1]) == 0,
          "brightest/darkest/peaks differ between the backends:\ncpu: %s\ngpu: %s",
          part[0] ? part[0] : "-", part[1] ? part[1] : "-");
    free(part[0]);
    free(part[1]);
    return test_finish("test_imgstats_cli");
}
