/* Sequence patterns and frame ranges (src/io/sequence.c): parsing, formatting, and finding the
 * frames that exist in a real folder, and opening a sequence with a range. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sequence.h"
#include "testutil.h"

static void check_format(const char *pattern, int frame, const char *want)
{
    seq_pattern p;
    char err[256], path[4200];
    bool ok = seq_parse(pattern, &p, err, sizeof err);
    CHECK(ok, "%s: %s", pattern, err);
    if (!ok)
        return;
    CHECK(seq_format(&p, frame, path, sizeof path) && strcmp(path, want) == 0,
          "%s frame %d: '%s', want '%s'", pattern, frame, path, want);
}

static void test_patterns(void)
{
    check_format("shot.%04d.exr", 7, "shot.0007.exr");
    check_format("shot.####.exr", 7, "shot.0007.exr");
    check_format("shot.#.exr", 12, "shot.12.exr");
    check_format("a/b_%d.hdr", 123, "a/b_123.hdr");
    check_format("f%03d", 12345, "f12345");
    check_format("100%%_%02d.pfm", 3, "100%_03.pfm");
    const char *bad[] = {"shot.exr", "a%04d_%04d.exr", "a%s.exr", "a%x.exr", "#_#.exr",
                         "100%.exr", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        seq_pattern p;
        char err[256] = "";
        CHECK(!seq_parse(bad[i], &p, err, sizeof err) && strstr(err, bad[i]),
              "'%s' accepted (%s)", bad[i], err);
        CHECK(!seq_is_pattern(bad[i]), "'%s' is a pattern", bad[i]);
    }
    CHECK(seq_is_pattern("x.%04d.exr") && seq_is_pattern("x.####.exr"), "is_pattern");
}

static void test_ranges(void)
{
    int a = -1, b = -1;
    char err[256];
    CHECK(seq_parse_range("1-240", &a, &b, err, sizeof err) && a == 1 && b == 240, "1-240");
    CHECK(seq_parse_range("17", &a, &b, err, sizeof err) && a == 17 && b == 17, "17");
    const char *bad[] = {"", "5-3", "-3", "a-b", "1-", "1-2x", "+1", "0-1000000000", "1--2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!seq_parse_range(bad[i], &a, &b, err, sizeof err) && strstr(err, "--frames"),
              "range '%s' accepted", bad[i]);
}

static void touch(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

/* seq_frames_open on DIR, which holds frames 1, 3, 10 and 12345 of shot.%04d.exr. */
static void test_open(const char *dir)
{
    char pattern[600], err[700];
    seq_frames s;
    bool malformed = true;
    snprintf(pattern, sizeof pattern, "%s/shot.%%04d.exr", dir);
    CHECK(seq_frames_open(pattern, NULL, &s, &malformed, err, sizeof err) && !malformed &&
              s.first == 1 && s.last == 12345 && s.nexist == 4,
          "all frames: %d-%d, %d files (%s)", s.first, s.last, s.nexist, err);
    seq_frames_free(&s);
    CHECK(seq_frames_open(pattern, "2-7", &s, NULL, err, sizeof err) && s.first == 2 &&
              s.last == 7 && s.nexist == 4,
          "--frames 2-7: %d-%d, %d files (%s)", s.first, s.last, s.nexist, err);
    seq_frames_free(&s);
    CHECK(!seq_frames_open(pattern, "7-2", &s, &malformed, err, sizeof err) && malformed &&
              strstr(err, "--frames"),
          "--frames 7-2: %s", err);
    CHECK(!seq_frames_open("shot.exr", NULL, &s, &malformed, err, sizeof err) && malformed,
          "no field: %s", err);
    snprintf(pattern, sizeof pattern, "%s/take.%%02d.exr", dir);
    CHECK(!seq_frames_open(pattern, NULL, &s, &malformed, err, sizeof err) && !malformed &&
              strstr(err, "no frame exists") && !s.exist,
          "no frame: %s", err);
    CHECK(seq_frames_open(pattern, "1-2", &s, NULL, err, sizeof err) && s.nexist == 0,
          "no frame, --frames 1-2: %s", err);
    seq_frames_free(&s);
    snprintf(pattern, sizeof pattern, "%s/none/shot.%%04d.exr", dir);
    CHECK(!seq_frames_open(pattern, "1-2", &s, &malformed, err, sizeof err) && !malformed &&
              strstr(err, "none"),
          "missing folder: %s", err);
}

static void test_scan(void)
{
    char dir[] = "/tmp/ht_seq_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    const char *names[] = {"shot.0003.exr", "shot.0001.exr", "shot.0010.exr", "shot.12345.exr",
                           "shot.003.exr", "shot.00010.exr", "shot.0002.exr.tmp",
                           "shot.abcd.exr", "shotx0004.exr", "take.0005.exr"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        touch(dir, names[i]);
    char pattern[600], err[256];
    snprintf(pattern, sizeof pattern, "%s/shot.%%04d.exr", dir);
    seq_pattern p;
    int *frames = NULL, n = 0;
    CHECK(seq_parse(pattern, &p, err, sizeof err), "%s", err);
    CHECK(seq_scan(&p, &frames, &n, err, sizeof err), "%s", err);
    int want[] = {1, 3, 10, 12345};
    CHECK(n == 4, "found %d frames, want 4", n);
    for (int i = 0; i < n && i < 4; i++)
        CHECK(frames[i] == want[i], "frame %d is %d, want %d", i, frames[i], want[i]);
    free(frames);
    snprintf(pattern, sizeof pattern, "%s/none/shot.%%04d.exr", dir);
    CHECK(seq_parse(pattern, &p, err, sizeof err), "%s", err);
    CHECK(!seq_scan(&p, &frames, &n, err, sizeof err) && strstr(err, "none"),
          "missing folder: %s", err);
    test_open(dir);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    test_patterns();
    test_ranges();
    test_scan();
    return test_finish("test_sequence");
}
