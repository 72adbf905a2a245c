/* image_load_options.progress (image.h's image_progress), for both decoders straight to half
 * floats: the C++ library (PIZ) and OpenEXRCore (uncompressed, ZIP, a grey file, a tiled grey
 * file and a multi-part file with its data window off the origin from ../shared) tell the rows
 * done from the top in growing whole-chunk bands, about a sixteenth of the image each, ending
 * at the height, each band's rows already final when told (a copy taken then equals the
 * finished image), on one thread, two and eight, and the image is bit-identical to a load without
 * progress. A truncated file, and one whose chunk three quarters down is damaged (OpenEXRCore
 * has told the rows above it), never tell the height. */
#define _POSIX_C_SOURCE 200809L   /* getpid */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tinyexr.h>

#include "image_internal.h"
#include "map_write.h"
#include "testutil.h"

enum { W = 301, H = 517, MAX_CALLS = 64 };

/* 8 threads on fewer cores: chunks finish out of order, and the prefix told must wait for
 * them; several times, as the order is the scheduler's. */
static const int thread_counts[] = {1, 2, 8, 8, 8, 8};

typedef struct seen {
    int calls, done[MAX_CALLS], width, height;
    bool ordered;               /* DONE grew, within the image, told on the loading thread */
    pthread_t loader;
    uint16_t *copy;             /* the rows as told, width x height x 4 */
} seen;

static void on_rows(void *ctx, const uint16_t *half, int width, int done, int height)
{
    seen *s = ctx;
    int before = s->calls ? s->done[s->calls - 1] : 0;
    s->ordered = s->ordered && done > before && done <= height &&
                 (!s->calls || (width == s->width && height == s->height)) &&
                 pthread_equal(pthread_self(), s->loader);
    if (!s->ordered || s->calls >= MAX_CALLS)
        return;
    s->done[s->calls++] = done;
    s->width = width;
    s->height = height;
    size_t row = (size_t)width * 4;
    if (s->copy)
        memcpy(s->copy + (size_t)before * row, half + (size_t)before * row,
               (size_t)(done - before) * row * sizeof *half);
}

/* The decode's buffer (image_load_options.half_alloc), filled with a pattern no decoder writes
 * (0xa5a5, a NaN), so rows told before they are final cannot match by a reused buffer's luck. */
static void *poisoned_get(void *ctx, size_t bytes)
{
    (void)ctx;
    void *p = malloc(bytes);
    if (p)
        memset(p, 0xa5, bytes);
    return p;
}

static void poisoned_put(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static const image_allocator poisoned = {poisoned_get, poisoned_put, NULL};

/* One file and how it is read. */
typedef struct load_case {
    const char *path, *part;
    image_decoder decoder;
    const char *decoded_by;     /* the image's decoder field expected */
    int chunk;                  /* rows of a chunk: every band but the last ends at one */
} load_case;

/* Loads C on THREADS threads with and without progress and checks what progress told. */
static void check_load(const load_case *c, int threads)
{
    char err[HT_ERR_MAX];
    image_load_options lo = {.half_only = true, .threads = threads, .decoder = c->decoder,
                             .part = c->part, .half_alloc = &poisoned};
    hdr_image with = {0}, without = {0};
    CHECK(image_load(c->path, &lo, &without, err, sizeof err), "%s", err);
    size_t bytes = (size_t)without.width * without.height * 4 * sizeof *without.half;
    seen s = {.ordered = true, .copy = malloc(bytes), .loader = pthread_self()};
    image_progress pr = {on_rows, &s};
    lo.progress = &pr;
    CHECK(s.copy && image_load(c->path, &lo, &with, err, sizeof err), "%s", err);
    CHECK(!strcmp(with.decoder, c->decoded_by), "%s: decoded by %s", c->path, with.decoder);
    /* One thread tells every band; with more, the loading thread tells at the end of its own
     * chunks, and may meet none in a band when the scheduler stalls it. */
    int bands = (with.height + c->chunk - 1) / c->chunk; /* at most, of whole chunks */
    CHECK(s.calls >= (threads > 1 ? 1 : bands < 8 ? bands : 8) && s.calls <= 18,
          "%s, %d threads: %d calls (bands of about 1/16)", c->path, threads, s.calls);
    CHECK(threads > 1 || (s.calls && s.done[0] <= with.height / 8 + c->chunk),
          "%s: the first rows told late (%d)", c->path, s.calls ? s.done[0] : -1);
    CHECK(s.ordered, "%s, %d threads: the rows done did not grow within the image, or were "
          "told on another thread", c->path, threads);
    CHECK(s.width == with.width && s.height == with.height, "%s: told %d x %d", c->path,
          s.width, s.height);
    for (int k = 0; k + 1 < s.calls; k++)
        CHECK(s.done[k] % c->chunk == 0, "%s: band end %d is not a chunk's (%d)", c->path,
              s.done[k], c->chunk);
    CHECK_EQ(s.calls ? s.done[s.calls - 1] : 0, with.height);
    CHECK(with.half && s.copy && !memcmp(with.half, s.copy, bytes),
          "%s, %d threads: rows told before final", c->path, threads);
    CHECK(with.half && without.half && !memcmp(with.half, without.half, bytes),
          "%s, %d threads: the image differs with progress", c->path, threads);
    free(s.copy);
    image_free(&with);
    image_free(&without);
}

/* Writes PATH: N planes of the test picture with tinyexr's COMPRESSION. */
static void write_file(const char *path, int n, int compression)
{
    static float b[W * H], g[W * H], r[W * H];
    unsigned st = 7;
    for (int i = 0; i < W * H; i++) {
        r[i] = 100 * test_rand(&st);
        g[i] = (float)(i % W) / W;
        b[i] = (float)(i / W) / H;
    }
    const float *pl[3] = {b, g, r}, *grey[1] = {r};
    const char *names[3] = {"B", "G", "R"}, *y[1] = {"Y"};
    char err[HT_ERR_MAX];
    CHECK(exr_write_planes(path, n == 1 ? grey : pl, n == 1 ? y : names, n, W, H, true,
                           compression, err, sizeof err), "%s", err);
}

/* The bytes of PATH (malloc'd, *SIZE long), or NULL. */
static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) &&
        fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (f)
        fclose(f);
    *size = data ? (size_t)n : 0;
    return data;
}

/* Where chunk K's data of the single-part scanline file DATA (SIZE bytes) begins: past the
 * header's attributes (name, type, size, value) and the offset table, its chunk's y and
 * size. 0 when the file is not laid out so. */
static size_t chunk_data(const uint8_t *data, size_t size, int k)
{
    size_t pos = 8;
    while (pos < size && data[pos]) {
        pos += strnlen((const char *)data + pos, size - pos) + 1;
        pos += strnlen((const char *)data + pos, size - pos) + 1;
        int32_t n = 0;
        if (pos + 4 > size)
            return 0;
        memcpy(&n, data + pos, 4);
        pos += 4 + (size_t)n;
    }
    uint64_t off = 0;
    if (pos + 1 + 8 * (size_t)(k + 1) > size)
        return 0;
    memcpy(&off, data + pos + 1 + 8 * (size_t)k, 8);
    return off + 8 + 64 <= size ? (size_t)off + 8 : 0;
}

/* Loads PATH as damaged (TRUNCATE: its first three quarters; else 64 bytes of the chunk three
 * quarters down overwritten) on THREADS threads: it fails, and progress never told the height;
 * OpenEXRCore told the rows above the damaged chunk (one thread decodes in order). */
static void check_damaged(const char *path, bool truncate, int threads)
{
    write_file(path, 3, TINYEXR_COMPRESSIONTYPE_ZIP);
    size_t size = 0;
    uint8_t *data = read_all(path, &size);
    size_t at = data ? chunk_data(data, size, (H / 16) * 3 / 4) : 0;
    CHECK(at > 0, "%s: no chunk found", path);
    if (truncate)
        size = size * 3 / 4;
    else if (at)
        memset(data + at, 0xff, 64);
    seen s = {.ordered = true, .loader = pthread_self()};
    image_progress pr = {on_rows, &s};
    image_load_options lo = {.half_only = true, .threads = threads, .progress = &pr};
    hdr_image img = {0};
    char err[HT_ERR_MAX];
    CHECK(data && !image_load_memory(path, data, size, &lo, &img, err, sizeof err),
          "%s: loaded, but it is damaged", path);
    CHECK(s.ordered && (!s.calls || s.done[s.calls - 1] < H), "%s: the height told (%d calls)",
          path, s.calls);
    if (!truncate && threads == 1)
        CHECK(s.calls > 0, "%s: nothing told before the damaged chunk", path);
    image_free(&img);
    free(data);
}

/* The files of ../shared that OpenEXRCore decodes straight to half with progress. */
static void check_shared(void)
{
    const char *shared = getenv("HT_SHARED");
    if (!shared || !*shared) {
        printf("../shared absent: its files not checked\n");
        return;
    }
    static char garden[512], multi[512];
    snprintf(garden, sizeof garden, "%s/exr-samples/Garden.exr", shared);
    snprintf(multi, sizeof multi, "%s/exr-samples/multipart.0001.exr", shared);
    const load_case cases[] = {
        {garden, NULL, IMAGE_DECODER_CORE, "OpenEXRCore", 128}, /* tiled grey PIZ */
        {multi, "0", IMAGE_DECODER_AUTO, "OpenEXRCore", 1},     /* ZIPS, data window off 0,0 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        for (int t = 1; t <= 2; t++)
            check_load(&cases[k], t);
}

int main(void)
{
    if (!image_have_openexr()) {
        printf("skipped: built without the OpenEXR library\n");
        return SKIP_CODE;
    }
    char path[64];
    snprintf(path, sizeof path, "test_load_progress_%d.exr", (int)getpid());
    const struct {
        int n, compression;
        load_case c;
    } cases[] = {
        {3, TINYEXR_COMPRESSIONTYPE_PIZ, {path, NULL, IMAGE_DECODER_OPENEXR, "OpenEXR", 32}},
        {3, TINYEXR_COMPRESSIONTYPE_NONE, {path, NULL, IMAGE_DECODER_AUTO, "OpenEXRCore", 1}},
        {3, TINYEXR_COMPRESSIONTYPE_ZIP, {path, NULL, IMAGE_DECODER_AUTO, "OpenEXRCore", 16}},
        {1, TINYEXR_COMPRESSIONTYPE_ZIP, {path, NULL, IMAGE_DECODER_AUTO, "OpenEXRCore", 16}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        write_file(path, cases[k].n, cases[k].compression);
        for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++)
            check_load(&cases[k].c, thread_counts[t]);
    }
    for (int t = 1; t <= 2; t++) {
        check_damaged(path, true, t);
        check_damaged(path, false, t);
    }
    remove(path);
    check_shared();
    return test_finish("test_load_progress");
}
