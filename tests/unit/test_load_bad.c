/* Broken and tricky inputs, made at test time: every bad file must be refused with its path in
 * the message and nothing left in *img (and no crash: CI runs this under ASan/UBSan); valid
 * but unusual files (decreasing line order, a bare "#?" Radiance header) must decode right.
 * Also the atomic PNG writer's failure modes. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, setrlimit */
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image.h>
#include <stb_image_write.h>

#include "image.h"
#include "png_export.h"
#include "testutil.h"

static char tmpdir[256];

typedef struct blob {
    uint8_t *data;
    size_t size;
} blob;

static blob blob_read(const char *path)
{
    blob b = {NULL, 0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.data = malloc(n > 0 ? (size_t)n : 1);
    b.size = fread(b.data, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static blob blob_copy(blob src)
{
    blob b = {malloc(src.size ? src.size : 1), src.size};
    memcpy(b.data, src.data, src.size);
    return b;
}

/* Writes DATA to tmpdir/NAME and returns the path (static buffer, one at a time). */
static const char *write_tmp(const char *name, const void *data, size_t size)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    return path;
}

/* Loads PATH expecting a refusal whose message names PATH (and contains WANT when given). */
static void expect_fail(const char *path, const char *want, const char *what)
{
    hdr_image img;
    memset(&img, 0x5a, sizeof img); /* the loader must clear it, whatever was there */
    char err[HT_ERR_MAX] = "";
    bool ok = image_load(path, NULL, &img, err, sizeof err);
    CHECK(!ok, "%s: loaded, but should fail", what);
    if (ok) {
        image_free(&img);
        return;
    }
    CHECK(strstr(err, path) != NULL, "%s: message lacks the path: %s", what, err);
    CHECK(!want || strstr(err, want) != NULL, "%s: message lacks '%s': %s", what, want, err);
    CHECK(img.rgba == NULL && img.width == 0 && img.height == 0, "%s: *img not left empty",
          what);
    printf("  refused %-28s %s\n", what, err);
}

/* Offset of the value of attribute NAME of type TYPE in an EXR header, or 0. */
static size_t exr_attr(blob b, const char *name, const char *type)
{
    size_t nl = strlen(name) + 1, tl = strlen(type) + 1;
    for (size_t i = 8; i + nl + tl + 4 <= b.size; i++)
        if (memcmp(b.data + i, name, nl) == 0 && memcmp(b.data + i + nl, type, tl) == 0 &&
            b.data[i - 1] == 0)
            return i + nl + tl + 4;
    return 0;
}

static void put_i32(uint8_t *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(u >> (8 * k));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

static int32_t get_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* End of a single-part header (just past its terminating NUL). */
static size_t exr_header_end(blob b)
{
    size_t i = 8;
    while (i < b.size && b.data[i]) {
        i += strlen((char *)b.data + i) + 1;
        i += strlen((char *)b.data + i) + 1;
        i += 4 + (size_t)get_i32(b.data + i);
    }
    return i + 1;
}

static bool same_pixels(const hdr_image *a, const hdr_image *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->rgba, b->rgba, (size_t)a->width * a->height * 4 * sizeof(float)) == 0;
}

static void test_basic_bad_files(void)
{
    char path[512];
    printf("basic bad files\n");
    snprintf(path, sizeof path, "%s/missing.exr", tmpdir);
    expect_fail(path, "No such file", "missing file");
    expect_fail(tmpdir, "directory", "a directory");
    expect_fail(write_tmp("empty.exr", "", 0), "empty", "empty file");

    unsigned seed = 1234;
    uint8_t rnd[4096];
    for (size_t i = 0; i < sizeof rnd; i++)
        rnd[i] = (uint8_t)(test_rand(&seed) * 256);
    expect_fail(write_tmp("random.exr", rnd, sizeof rnd), NULL, "random bytes");
    /* Random bytes behind a valid magic number reach the real parsers. */
    for (int k = 0; k < 8; k++) {
        for (size_t i = 0; i < sizeof rnd; i++)
            rnd[i] = (uint8_t)(test_rand(&seed) * 256);
        memcpy(rnd, "\x76\x2f\x31\x01\x02\x00\x00\x00", 8);
        expect_fail(write_tmp("random_magic.exr", rnd, sizeof rnd), NULL, "EXR magic + random");
        /* 64 x 64 flat pixels need 16 KiB: the 4 KiB here are always too few. */
        memcpy(rnd, "#?RADIANCE\n\n-Y 64 +X 64\n", 24);
        expect_fail(write_tmp("random_magic.hdr", rnd, sizeof rnd), NULL, "HDR magic + random");
    }

    /* A real PNG, named .exr: loading is by content (a display-referred picture); cut
     * short, refused as a PNG. */
    uint8_t px[4 * 4 * 3];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 7);
    snprintf(path, sizeof path, "%s/picture.exr", tmpdir);
    CHECK(stbi_write_png(path, 4, 4, 3, px, 12) != 0, "cannot write test PNG");
    hdr_image img;
    char err[HT_ERR_MAX] = "";
    bool ok = image_load(path, NULL, &img, err, sizeof err);
    CHECK(ok && img.width == 4 && strcmp(img.format, "PNG") == 0, "PNG renamed .exr: %s", err);
    if (ok)
        image_free(&img);
    blob png = blob_read(path);
    expect_fail(write_tmp("cut_png.exr", png.data, png.size - 20), "PNG", "PNG cut short");
    free(png.data);
}

static void test_truncated_exr(const char *sample)
{
    blob b = blob_read(test_shared_path(sample));
    size_t cuts[] = {4, 7, 20, 100, 300, b.size / 2, b.size - 1};
    printf("truncated %s (%zu bytes)\n", sample, b.size);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        if (cuts[k] >= b.size)
            continue;
        char what[64];
        snprintf(what, sizeof what, "cut at %zu", cuts[k]);
        expect_fail(write_tmp("truncated.exr", b.data, cuts[k]), NULL, what);
    }
    free(b.data);
}

static void test_patched_exr(void)
{
    blob orig = blob_read(test_shared_path("exr-samples/2by2.exr"));
    size_t dw = exr_attr(orig, "dataWindow", "box2i");
    size_t comp = exr_attr(orig, "compression", "compression");
    size_t ch = exr_attr(orig, "channels", "chlist");
    CHECK(dw && comp && ch, "2by2.exr: attributes not found");
    if (!dw || !comp || !ch) {
        free(orig.data);
        return;
    }
    printf("patched 2by2.exr\n");
    static const int32_t windows[][4] = {
        {0, 0, 2000000000, 1},               /* too wide */
        {0, 0, 65535, 65535},                /* each side fine, the area is not */
        {5, 5, 1, 1},                        /* negative size */
        {INT32_MIN, 0, INT32_MAX, 0},        /* width overflows int */
        {0, -2000000000, 1, 2000000000},     /* too tall */
    };
    for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
        blob b = blob_copy(orig);
        for (int j = 0; j < 4; j++)
            put_i32(b.data + dw + 4 * j, windows[k][j]);
        char what[64];
        snprintf(what, sizeof what, "dataWindow #%zu", k);
        expect_fail(write_tmp("absurd.exr", b.data, b.size), "data window", what);
        free(b.data);
    }

    blob b = blob_copy(orig);
    b.data[comp] = 5;
#ifdef HT_HAVE_OPENEXR
    /* PXR24 has 16 lines per chunk, DWAB 256: the chunk tables no longer describe the file.
     * Whatever the decoders make of it, nothing crashes and a refusal names the file. */
    for (int k = 0; k < 2; k++) {
        b.data[comp] = k ? 9 : 5;
        hdr_image img;
        char err[HT_ERR_MAX] = "";
        const char *path = write_tmp(k ? "dwab.exr" : "pxr24.exr", b.data, b.size);
        if (image_load(path, NULL, &img, err, sizeof err))
            image_free(&img);
        else
            CHECK(strstr(err, path) != NULL, "%s: message lacks the path: %s", path, err);
    }
#else
    expect_fail(write_tmp("pxr24.exr", b.data, b.size), "PXR24", "compression PXR24");
    b.data[comp] = 9;
    expect_fail(write_tmp("dwab.exr", b.data, b.size), "DWAB", "compression DWAB");
#endif
    b.data[comp] = 200;
    expect_fail(write_tmp("unknown.exr", b.data, b.size), "compression", "compression 200");
    free(b.data);

    /* x_sampling of the first channel ("A": name, NUL, type, pLinear+3, x_sampling): the
     * uncompressed chunks no longer have the size their pixels need. */
    b = blob_copy(orig);
    put_i32(b.data + ch + 2 + 8, 2);
    expect_fail(write_tmp("subsampled.exr", b.data, b.size), "damaged", "subsampled channel");
    /* Sampling 0 would divide by zero. */
    put_i32(b.data + ch + 2 + 8, 0);
    expect_fail(write_tmp("sampling0.exr", b.data, b.size), "sampling", "x sampling 0");
    free(b.data);

    b = blob_copy(orig);
    b.data[5] |= 0x08; /* "non-image" (deep) flag */
    expect_fail(write_tmp("deep.exr", b.data, b.size), "deep", "deep flag");
    free(b.data);

    /* A chunk offset pointing past the end of the file. */
    b = blob_copy(orig);
    size_t table = exr_header_end(b);
    put_u64(b.data + table + 8, (uint64_t)b.size + 1000);
    expect_fail(write_tmp("badoffset.exr", b.data, b.size), NULL, "offset past the end");
    put_u64(b.data + table + 8, 0); /* tinyexr would try to "reconstruct" the table */
    expect_fail(write_tmp("zerooffset.exr", b.data, b.size), NULL, "zero offset");
    free(b.data);

    /* A chunk claiming more data than the file has. */
    b = blob_copy(orig);
    size_t c0 = (size_t)get_u64(b.data + table);
    put_i32(b.data + c0 + 4, 0x7fffff00);
    expect_fail(write_tmp("bigchunk.exr", b.data, b.size), NULL, "oversized chunk");
    free(b.data);
    free(orig.data);
}

/* Decreasing line order: tinyexr alone returns such files flipped. Both files below are what
 * OpenEXR writes or accepts, and must decode exactly like their increasing-order originals. */
static void test_line_order(void)
{
    printf("decreasing line order\n");
    char err[HT_ERR_MAX];
    /* 2by2.exr rewritten in decreasing order: chunks stored bottom row first. */
    const char *src = test_shared_path("exr-samples/2by2.exr");
    hdr_image ref, img;
    bool ok = image_load(src, NULL, &ref, err, sizeof err);
    CHECK(ok, "%s", err);
    if (!ok)
        return;
    blob b = blob_read(src);
    size_t lo = exr_attr(b, "lineOrder", "lineOrder");
    size_t table = exr_header_end(b);
    CHECK(lo != 0, "2by2.exr: no lineOrder");
    size_t off0 = (size_t)get_u64(b.data + table), off1 = (size_t)get_u64(b.data + table + 8);
    size_t len0 = 8 + (size_t)get_i32(b.data + off0 + 4);
    size_t len1 = 8 + (size_t)get_i32(b.data + off1 + 4);
    CHECK(off0 == table + 16 && off1 == off0 + len0 && off1 + len1 == b.size,
          "2by2.exr layout is not what this test expects");
    blob d = blob_copy(b);
    d.data[lo] = 1;
    memcpy(d.data + off0, b.data + off1, len1);
    memcpy(d.data + off0 + len1, b.data + off0, len0);
    put_u64(d.data + table, off0 + len1); /* the table stays in y order */
    put_u64(d.data + table + 8, off0);
    const char *path = write_tmp("decreasing.exr", d.data, d.size);
    ok = image_load(path, NULL, &img, err, sizeof err);
    CHECK(ok, "decreasing.exr: %s", err);
    if (ok) {
        CHECK(same_pixels(&ref, &img), "decreasing.exr: pixels differ from 2by2.exr (flipped?)");
        image_free(&img);
    }
    image_free(&ref);
    free(b.data);
    free(d.data);

    /* Garden.exr is tiled; for tiles the line order only says how they are stored. */
    src = test_shared_path("exr-samples/Garden.exr");
    ok = image_load(src, NULL, &ref, err, sizeof err);
    CHECK(ok, "%s", err);
    if (!ok)
        return;
    b = blob_read(src);
    lo = exr_attr(b, "lineOrder", "lineOrder");
    CHECK(lo != 0 && b.data[lo] == 0, "Garden.exr: lineOrder not found");
    b.data[lo] = 1;
    path = write_tmp("garden_decreasing.exr", b.data, b.size);
    ok = image_load(path, NULL, &img, err, sizeof err);
    CHECK(ok, "garden_decreasing.exr: %s", err);
    if (ok) {
        CHECK(same_pixels(&ref, &img), "garden_decreasing.exr: pixels differ (flipped tiles?)");
        image_free(&img);
    }
    image_free(&ref);
    free(b.data);
}

/* A Radiance file with header HEAD followed by N bytes of DATA. */
static const char *write_hdr(const char *name, const char *head, const uint8_t *data, size_t n)
{
    size_t hl = strlen(head);
    uint8_t *buf = malloc(hl + n + 1);
    memcpy(buf, head, hl);
    if (n)
        memcpy(buf + hl, data, n);
    const char *p = write_tmp(name, buf, hl + n);
    free(buf);
    return p;
}

static void test_radiance(void)
{
    printf("Radiance files\n");
    uint8_t flat[16 * 2 * 4];
    /* 16 x 2 flat pixels, each distinct: (x+1, y+1, 128, 136) → (x+1)/256... per component. */
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 16; x++) {
            uint8_t *p = flat + (y * 16 + x) * 4;
            p[0] = (uint8_t)(128 + x);
            p[1] = (uint8_t)(128 + y);
            p[2] = 128;
            p[3] = 129;
        }
    const char *good = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 16\n";
    static const char *const bad_res[] = {
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Y 2 +Y 16\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 *X 16\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Z 16 -Y 2\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 16 junk\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y two +X 16\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 16\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2000000 +X 2000000\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n",
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n-Y 2 +X 16\n",
    };
    for (size_t k = 0; k < sizeof bad_res / sizeof bad_res[0]; k++) {
        char what[64];
        snprintf(what, sizeof what, "bad resolution #%zu", k);
        expect_fail(write_hdr("badres.hdr", bad_res[k], flat, sizeof flat), NULL, what);
    }
    /* Colour tags: malformed or degenerate primaries are refused, with the reason. */
    expect_fail(write_hdr("prim.hdr", "#?RADIANCE\nPRIMARIES=0.64 0.33 0.3\n\n-Y 2 +X 16\n",
                          flat, sizeof flat),
                "PRIMARIES", "a short PRIMARIES line");
    expect_fail(write_hdr("prim.hdr",
                          "#?RADIANCE\nPRIMARIES=0.1 0.1 0.2 0.2 0.3 0.3 0.25 0.25\n\n"
                          "-Y 2 +X 16\n", flat, sizeof flat),
                "degenerate", "collinear primaries");
    expect_fail(write_hdr("prim.hdr",
                          "#?RADIANCE\nPRIMARIES=0.64 0.33 0.3 0.6 0.15 0.06 0.3 0\n\n"
                          "-Y 2 +X 16\n", flat, sizeof flat),
                "degenerate", "a white at y = 0");
    expect_fail(write_hdr("prim.hdr",
                          "#?RADIANCE\nPRIMARIES=0.64 0.33 0.3 0.6 0.15 0.06 nan 0.33\n\n"
                          "-Y 2 +X 16\n", flat, sizeof flat),
                "PRIMARIES", "a NaN white");
    expect_fail(write_hdr("flat_cut.hdr", good, flat, sizeof flat - 1), "truncated",
                "truncated flat");

    /* Old (pre-1991) RLE: a pixel 1,1,1,n repeats the previous one n times (stb_image would
     * return garbage). Broken runs are refused. */
    uint8_t old[16 * 2 * 4];
    memcpy(old, flat, sizeof old);
    old[0] = old[1] = old[2] = 1;
    old[3] = 3;
    expect_fail(write_hdr("oldrle0.hdr", good, old, 4 * 30), "no previous pixel",
                "old RLE run first");
    memcpy(old, flat, sizeof old);
    uint8_t *run = old + 15 * 4;
    run[0] = run[1] = run[2] = 1;
    run[3] = 2;
    expect_fail(write_hdr("oldrlelong.hdr", good, old, sizeof old), "past the end",
                "old RLE run too long");

    /* New-style RLE with a zero literal count: stb_image would loop forever. */
    uint8_t rle0[] = {2, 2, 0, 16, 0, 0, 0, 0};
    expect_fail(write_hdr("rle0.hdr", good, rle0, sizeof rle0), NULL, "zero RLE count");
    /* A run longer than the scanline. */
    uint8_t rlelong[] = {2, 2, 0, 16, 128 + 17, 5};
    expect_fail(write_hdr("rlelong.hdr", good, rlelong, sizeof rlelong), NULL, "long RLE run");

    blob v = blob_read(test_shared_path("exr-samples/venice_sunset_1k.hdr"));
    size_t cuts[] = {1, 10, 40, v.size / 2, v.size - 1};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        char what[64];
        snprintf(what, sizeof what, "venice cut at %zu", cuts[k]);
        expect_fail(write_tmp("venice_cut.hdr", v.data, cuts[k]), NULL, what);
    }
    free(v.data);

    /* Valid: a bare "#?" signature and no FORMAT line are what Radiance itself accepts; the
     * pixel values check orientation and the m*2^(e-136) convention. */
    const char *path = write_hdr("bare.hdr", "#?\n\n-Y 2 +X 16\n", flat, sizeof flat);
    hdr_image img;
    char err[HT_ERR_MAX];
    bool ok = image_load(path, NULL, &img, err, sizeof err);
    CHECK(ok, "bare.hdr: %s", err);
    if (ok) {
        CHECK(img.width == 16 && img.height == 2, "bare.hdr: %dx%d", img.width, img.height);
        bool exact = true;
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 16; x++) {
                const float *p = img.rgba + (y * 16 + x) * 4;
                /* mantissa * 2^(129-136) */
                float r = (128 + x) / 128.0f, g = (128 + y) / 128.0f;
                if (p[0] != r || p[1] != g || p[2] != 1.0f || p[3] != 1.0f)
                    exact = false;
            }
        CHECK(exact, "bare.hdr: pixel values or placement wrong");
        CHECK(strcmp(img.compression, "none") == 0, "bare.hdr: compression '%s'",
              img.compression);
        image_free(&img);
    }
}

/* Random byte mutations of small valid files: whatever happens, no crash, and a refusal
 * names the file. The seed is fixed so a failure reproduces. */
static void test_mutations(void)
{
    printf("mutations\n");
    blob e = blob_read(test_shared_path("exr-samples/2by2.exr"));
    unsigned seed = 42;
    int loaded = 0, refused = 0;
    for (int it = 0; it < 400; it++) {
        blob b = blob_copy(e);
        int k = 1 + (int)(test_rand(&seed) * 4);
        for (int j = 0; j < k; j++)
            b.data[(size_t)(test_rand(&seed) * (float)b.size)] =
                (uint8_t)(test_rand(&seed) * 256);
        hdr_image img;
        char err[HT_ERR_MAX] = "";
        if (image_load_memory("mutant.exr", b.data, b.size, NULL, &img, err, sizeof err)) {
            loaded++;
            image_free(&img);
        } else {
            refused++;
            CHECK(strstr(err, "mutant.exr") != NULL, "mutation %d: message lacks path: %s", it,
                  err);
        }
        free(b.data);
    }
    printf("  2by2.exr: %d mutants loaded, %d refused\n", loaded, refused);
    free(e.data);
}

/* Damaged compressed data inside a valid single-part file (the chunk table and sizes intact):
 * the decoder fails mid-image. Refused with the path, and, in the ASan build, where this test
 * runs with leak detection, without leaking tinyexr's channel buffers (scripts/fuzz found
 * that leak). */
static void test_damaged_chunk(void)
{
    printf("damaged chunk data\n");
    char path[4096];
    const char *src = getenv("HT_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/assets/default.exr", src ? src : ".");
    blob e = blob_read(path);
    if (!e.data) {
        CHECK(0, "cannot read %s", path);
        return;
    }
    for (int k = 1; k <= 3; k++) {
        blob b = blob_copy(e);
        size_t at = b.size * k / 4;   /* well inside the chunks, after the header and table */
        memset(b.data + at, 0xA5, 64);
        hdr_image img;
        char err[HT_ERR_MAX] = "";
        bool ok = image_load_memory("damaged.exr", b.data, b.size, NULL, &img, err, sizeof err);
        CHECK(!ok, "damaged chunk at %zu loaded", at);
        if (ok)
            image_free(&img);
        else
            CHECK(strstr(err, "damaged.exr") != NULL, "message lacks the path: %s", err);
        free(b.data);
    }
    free(e.data);
}

/* The fuzz runs' findings (issue 31): OpenEXR files whose channel list is out of order, which
 * the decoders read differently, refused by exr_validate before any decoder sees them; a
 * JPEG 2000 file whose components cover different areas, which OpenImageIO 2.4's reader
 * reads past (check_jp2 in image_oiio.c). */
static void test_fuzz_findings(void)
{
    printf("fuzz findings\n");
    static const char *const names[][2] = {
        {"fuzz_load/unsorted-box3i-none.exr", "channel list is not sorted"},
        {"fuzz_load/unsorted-piz.exr", "channel list is not sorted"},
        {"fuzz_formats/jp2-components-differ.jp2", "components cover different areas"}};
    const char *src = getenv("HT_SOURCE_DIR");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/fuzz/seeds/%s", src ? src : ".", names[i][0]);
        expect_fail(path, names[i][1], names[i][0]);
    }
}

static int remove_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

/* Names in tmpdir starting with '.', i.e. temporary files the PNG writer left behind. */
static int count_temp_files(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static void test_png(void)
{
    printf("png_write_atomic\n");
    char path[512], err[HT_ERR_MAX];
    uint8_t rgb[3 * 2 * 3];
    for (size_t i = 0; i < sizeof rgb; i++)
        rgb[i] = (uint8_t)(i * 13 + 1);

    snprintf(path, sizeof path, "%s/nodir/out.png", tmpdir);
    CHECK(!png_write_atomic(path, rgb, 3, 2, err, sizeof err), "missing dir: succeeded");
    CHECK(strstr(err, path) && strstr(err, "does not exist"), "missing dir: message: %s", err);
    char nodir[512];
    snprintf(nodir, sizeof nodir, "%s/nodir", tmpdir);
    struct stat st;
    CHECK(stat(nodir, &st) != 0, "missing dir: it was created");
    printf("  refused %s\n", err);

    write_tmp("plain.txt", "x", 1);
    snprintf(path, sizeof path, "%s/plain.txt/out.png", tmpdir);
    CHECK(!png_write_atomic(path, rgb, 3, 2, err, sizeof err), "parent is a file: succeeded");
    CHECK(strstr(err, path) != NULL, "parent is a file: message: %s", err);
    printf("  refused %s\n", err);

    snprintf(path, sizeof path, "%s/out.png", tmpdir);
    CHECK(!png_write_atomic(path, rgb, 0, 2, err, sizeof err), "width 0: succeeded");

    /* Replacing an existing file. */
    write_tmp("out.png", "old contents", 12);
    CHECK(png_write_atomic(path, rgb, 3, 2, err, sizeof err), "replace: %s", err);
    int w = 0, h = 0, n = 0;
    uint8_t *back = stbi_load(path, &w, &h, &n, 3);
    CHECK(back && w == 3 && h == 2 && memcmp(back, rgb, sizeof rgb) == 0,
          "replace: the PNG does not read back as written");
    stbi_image_free(back);
    CHECK(count_temp_files() == 0, "replace: temporary file left behind");

    /* A write failure half-way (file size limit: works even as root) must leave the existing
     * file as it was and no temporary file. */
    blob before = blob_read(path);
    int big_w = 512, big_h = 512;
    uint8_t *noise = malloc((size_t)big_w * big_h * 3);
    unsigned seed = 7;
    for (size_t i = 0; i < (size_t)big_w * big_h * 3; i++)
        noise[i] = (uint8_t)(test_rand(&seed) * 256);
    struct rlimit old_lim, lim;
    getrlimit(RLIMIT_FSIZE, &old_lim);
    lim = old_lim;
    lim.rlim_cur = 4096;
    void (*old_sig)(int) = signal(SIGXFSZ, SIG_IGN);
    bool limited = setrlimit(RLIMIT_FSIZE, &lim) == 0;
    bool wrote = png_write_atomic(path, noise, big_w, big_h, err, sizeof err);
    setrlimit(RLIMIT_FSIZE, &old_lim);
    signal(SIGXFSZ, old_sig);
    if (limited) {
        CHECK(!wrote, "size limit: write succeeded");
        CHECK(strstr(err, path) != NULL, "size limit: message: %s", err);
        printf("  refused %s\n", err);
        blob after = blob_read(path);
        CHECK(after.size == before.size && memcmp(after.data, before.data, after.size) == 0,
              "size limit: the existing file was changed");
        free(after.data);
        CHECK(count_temp_files() == 0, "size limit: temporary file left behind");
    } else {
        printf("  (cannot set RLIMIT_FSIZE: write-failure case not tested)\n");
    }
    free(before.data);
    free(noise);
}

int main(void)
{
    test_shared_path("exr-samples"); /* skip (77) without the samples */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ht_load_bad.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_basic_bad_files();
    test_truncated_exr("exr-samples/Desk.exr");
    test_truncated_exr("exr-samples/2by2.exr");
    test_truncated_exr("exr-samples/Garden.exr");
    test_truncated_exr("exr-samples/multipart.0001.exr");
    test_patched_exr();
    test_line_order();
    test_radiance();
    test_mutations();
    test_damaged_chunk();
    test_png();
    test_fuzz_findings();
    nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("test_load_bad");
}
