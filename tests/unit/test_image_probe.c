/* image_probe_decode_cost (image_probe.c): from the headers alone, the cost image_load then
 * reports (uncompressed and DWAA cheap, PIZ costly: what batch export's first regime relies
 * on); false for a file that is not OpenEXR, a missing file and a part the file lacks. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "testutil.h"

/* A 64 x 48 make_bench_exr file of compression COMP at PATH; false when it fails. */
static bool make_file(const char *path, const char *comp)
{
    const char *tool = getenv("HT_MAKE_BENCH_EXR"), *src = getenv("HT_SOURCE_DIR");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' '%s/assets/default.exr' '%s' 64 48 %s >/dev/null", tool,
             src, path, comp);
    return system(cmd) == 0;
}

static void check_codec(const char *tmp, const char *comp, image_decode_cost want)
{
    char path[512], err[HT_ERR_MAX];
    snprintf(path, sizeof path, "%s/probe_%s.exr", tmp, comp);
    bool made = make_file(path, comp);
    CHECK(made, "%s: not written", path);
    if (!made)
        return;
    image_decode_cost cost = want == IMAGE_DECODE_CHEAP ? IMAGE_DECODE_COSTLY
                                                        : IMAGE_DECODE_CHEAP;
    CHECK(image_probe_decode_cost(path, NULL, &cost) && cost == want,
          "%s: probed cost %d, expected %d", comp, (int)cost, (int)want);
    hdr_image img;
    bool loaded = image_load(path, NULL, &img, err, sizeof err);
    CHECK(loaded && img.decode_cost == cost, "%s: image_load's cost differs (%s)", comp,
          loaded ? "loaded" : err);
    if (loaded)
        image_free(&img);
    CHECK(!image_probe_decode_cost(path, "3", &cost), "%s: a part it lacks probed", comp);
    remove(path);
}

int main(void)
{
    if (!getenv("HT_MAKE_BENCH_EXR") || !getenv("HT_SOURCE_DIR")) {
        printf("HT_MAKE_BENCH_EXR or HT_SOURCE_DIR unset: skipped\n");
        return SKIP_CODE;
    }
    char tmp[] = "/tmp/ht_probe_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    check_codec(tmp, "none", IMAGE_DECODE_CHEAP);
    check_codec(tmp, "dwaa", IMAGE_DECODE_CHEAP);
    check_codec(tmp, "piz", IMAGE_DECODE_COSTLY);
    image_decode_cost cost;
    char path[512];
    snprintf(path, sizeof path, "%s/not_exr.exr", tmp);
    FILE *f = fopen(path, "wb");
    CHECK(f && fputs("P6\n1 1\n255\n\x01\x02\x03", f) >= 0 && fclose(f) == 0, "not written");
    CHECK(!image_probe_decode_cost(path, NULL, &cost), "a PPM probed as OpenEXR");
    remove(path);
    snprintf(path, sizeof path, "%s/missing.exr", tmp);
    CHECK(!image_probe_decode_cost(path, NULL, &cost), "a missing file probed");
    rmdir(tmp);
    return test_finish("test_image_probe");
}
