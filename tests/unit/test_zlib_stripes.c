/* zlib_stripes: pieces of every kind (random bytes, a noisy ramp, zeros, one byte, a random
 * block repeated) joined into one zlib stream that libdeflate's strict inflater reads back
 * byte for byte with its Adler-32; the same bytes on 1, 2 and 5 threads and with other
 * threads' help (help_pool_help, as idle batch workers give it); a piece of repeats far
 * apart takes the hash (much smaller than its bytes). deflate_fast alone, final and not
 * (then followed by a final stream), with and without its hash, inflates to its input:
 * skewed counts (codes the length limit must shorten), one repeated byte (matches of 258
 * one byte back), nothing, repeats 40,000 bytes apart (past the window) and 32,768 apart
 * (at its edge), random lengths of mixed bytes; within its bound. PNGs of many stripes, 8-
 * and 16-bit, decode (stb_image) to their pixels. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <stb_image.h>

#include "encode.h"
#include "help_pool.h"
#include "deflate_fast.h"
#include "testutil.h"
#include "zlib_stripes.h"

enum { MAX_PIECES = 8 };

typedef struct pieces {
    int n;
    size_t len[MAX_PIECES];
    uint8_t *data[MAX_PIECES];
} pieces;

static void fill(void *ctx, int k, uint8_t *out, size_t len)
{
    const pieces *p = ctx;
    memcpy(out, p->data[k], len);
}

/* Piece bytes of a kind: 0 random, 1 a slow ramp with noise (compressible), 2 zeros. */
static uint8_t *bytes(size_t n, int kind, unsigned seed)
{
    uint8_t *b = malloc(n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = kind == 0 ? (uint8_t)(seed >> 16) : kind == 1 ? (uint8_t)(i / 97 + (seed >> 30))
                                                              : 0;
    }
    return b;
}

/* P's stream with near distances 1 and 3: the same on 1, 2 and 5 threads, inflated back;
 * its length. */
static size_t check_roundtrip(const pieces *p, const char *what)
{
    size_t total = 0;
    for (int k = 0; k < p->n; k++)
        total += p->len[k];
    uint8_t *z[3] = {NULL};
    size_t zlen[3] = {0};
    static const int threads[3] = {1, 2, 5};
    char err[128];
    for (int t = 0; t < 3; t++)
        CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, 3, threads[t], &z[t], &zlen[t],
                           err, sizeof err), "%s: %s", what, err);
    CHECK(zlen[0] == zlen[1] && zlen[0] == zlen[2] && !memcmp(z[0], z[1], zlen[0]) &&
          !memcmp(z[0], z[2], zlen[0]), "%s: the bytes depend on the threads", what);
    uint8_t *back = malloc(total + 1);
    size_t got = 0;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    enum libdeflate_result r = libdeflate_zlib_decompress(d, z[0], zlen[0], back, total + 1,
                                                          &got);
    CHECK(r == LIBDEFLATE_SUCCESS && got == total, "%s: inflate %d, %zu of %zu bytes", what,
          (int)r, got, total);
    size_t at = 0;
    for (int k = 0; k < p->n && r == LIBDEFLATE_SUCCESS; at += p->len[k], k++)
        CHECK(!memcmp(back + at, p->data[k], p->len[k]), "%s: piece %d differs", what, k);
    libdeflate_free_decompressor(d);
    free(back);
    printf("%s: %zu bytes into %zu\n", what, total, zlen[0]);
    for (int t = 1; t < 3; t++)
        free(z[t]);
    free(z[0]);
    return zlen[0];
}

/* deflate_fast of DATA (N bytes) in MODE (deflate_fast.h), as a non-final stream followed by
 * a final one of the same bytes, inflated back to both copies. */
static void check_fast(const uint8_t *data, size_t n, int hash, const char *what)
{
    static const size_t near[2] = {1, 3};
    size_t cap = 2 * deflate_fast_bound(n);
    uint8_t *z = malloc(cap), *back = malloc(2 * n + 1);
    deflate_fast_work *work = deflate_fast_work_new();
    size_t a = deflate_fast(work, data, n, near, hash, false, z);
    size_t b = deflate_fast(work, data, n, near, hash, true, z + a), got = 0;
    deflate_fast_work_free(work);
    CHECK(a && b && a <= deflate_fast_bound(n) && b <= deflate_fast_bound(n),
          "%s: %zu and %zu bytes, bound %zu", what, a, b, deflate_fast_bound(n));
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    enum libdeflate_result r = libdeflate_deflate_decompress(d, z, a + b, back, 2 * n + 1, &got);
    CHECK(r == LIBDEFLATE_SUCCESS && got == 2 * n && !memcmp(back, data, n) &&
          !memcmp(back + n, data, n), "%s (mode %d): inflate %d, %zu of %zu bytes", what,
          (int)hash, (int)r, got, 2 * n);
    libdeflate_free_decompressor(d);
    free(back);
    free(z);
}

static void check_fast_both(const uint8_t *data, size_t n, const char *what)
{
    check_fast(data, n, DEFLATE_FAST_NEAR, what);
    check_fast(data, n, DEFLATE_FAST_HASH, what);
    check_fast(data, n, DEFLATE_FAST_LITERALS, what);
}

static void check_fast_alone(void)
{
    enum { N = 300000 };
    uint8_t *b = malloc(N);
    /* byte k (k < 24) about 2^-(k+1) of the time: an optimal code 24 bits deep */
    unsigned seed = 5;
    for (size_t i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8 | 1u << 23;
        b[i] = (uint8_t)__builtin_ctz(r);
    }
    check_fast_both(b, N, "skewed counts");
    memset(b, 'x', N);
    check_fast_both(b, N, "one byte repeated");
    check_fast_both(b, 0, "nothing");
    check_fast_both(b, 5, "five bytes");
    static const size_t gaps[2] = {40000, 32768};
    for (int g = 0; g < 2; g++) {
        uint8_t *r = bytes(N, 0, 17);
        for (size_t i = gaps[g]; i < N; i++)   /* periodic: every byte repeats GAP back */
            r[i] = r[i - gaps[g]];
        check_fast_both(r, N, g ? "repeats at the window's edge" : "repeats past the window");
        free(r);
    }
    for (int t = 0; t < 40; t++) {   /* random lengths of ramp, random and zero bytes */
        seed = seed * 1103515245u + 12345u;
        size_t n = seed % 200000;
        uint8_t *r = bytes(n, t % 3, seed);
        for (size_t i = 0; i + 1000 < n; i += 3000)
            memset(r + i, (int)(i & 255), seed % 900 + 1);
        check_fast_both(r, n, "mixed");
        free(r);
    }
    free(b);
}

/* Helpers: call help_pool_help until STOP, counting the pieces they did. */
typedef struct helping {
    atomic_bool stop, started;
    atomic_int helped;
} helping;

static void *helper(void *arg)
{
    helping *h = arg;
    atomic_store(&h->started, true);
    while (!atomic_load(&h->stop))
        if (help_pool_help())
            atomic_fetch_add(&h->helped, 1);
    return NULL;
}

/* P's stream on one thread with two helpers beside it: the bytes of one thread alone; tried
 * until the helpers took a piece (they start before it, so the first try nearly always). */
static void check_help(const pieces *p)
{
    char err[128];
    uint8_t *alone = NULL, *helped = NULL;
    size_t alone_len = 0, helped_len = 0;
    CHECK(!help_pool_help(), "help with no stream under way did something");
    CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, 3, 1, &alone, &alone_len, err, sizeof err),
          "alone: %s", err);
    helping h = {0};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, helper, &h);
    while (!atomic_load(&h.started))
        ;
    for (int tries = 0; tries < 50 && atomic_load(&h.helped) == 0; tries++) {
        free(helped);
        helped = NULL;
        CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, 3, 1, &helped, &helped_len, err,
                           sizeof err), "helped: %s", err);
        CHECK(helped_len == alone_len && !memcmp(helped, alone, alone_len),
              "the bytes changed with help");
    }
    atomic_store(&h.stop, true);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK(atomic_load(&h.helped) > 0, "the helpers never took a piece in 50 tries");
    free(alone);
    free(helped);
}

/* A 16-bit PNG of noise: stb_image reads its pixels. */
static void check_png16(void)
{
    enum { W = 257, H = 700 };
    uint16_t *px = malloc((size_t)W * H * 3 * 2);
    unsigned seed = 9;
    for (size_t i = 0; i < (size_t)W * H * 3; i++) {
        seed = seed * 1103515245u + 12345u;
        px[i] = (uint16_t)(20000 + (i % (3 * W)) * 10 + (seed >> 22));
    }
    encode_image im = {px, W, H, 3, 16, 0.0, NULL};
    encode_buffer out;
    char err[128];
    CHECK(encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err), "%s", err);
    int w = 0, h = 0, ch = 0;
    uint16_t *back = stbi_load_16_from_memory(out.data, (int)out.len, &w, &h, &ch, 3);
    CHECK(back && w == W && h == H && !memcmp(back, px, (size_t)W * H * 6),
          "the 16-bit PNG does not decode to its pixels (%s)", back ? "differs" : "no image");
    stbi_image_free(back);
    free(out.data);
    free(px);
}

static void check_png(void)
{
    enum { W = 301, H = 2000 };   /* 2000 rows of 904 bytes: four stripes */
    uint8_t *px = bytes((size_t)W * H * 3, 1, 3);
    encode_image im = {px, W, H, 3, 8, 0.0, NULL};
    encode_buffer out;
    char err[128];
    CHECK(encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err), "%s", err);
    int w = 0, h = 0, ch = 0;
    uint8_t *back = stbi_load_from_memory(out.data, (int)out.len, &w, &h, &ch, 3);
    CHECK(back && w == W && h == H && !memcmp(back, px, (size_t)W * H * 3),
          "the striped PNG does not decode to its pixels (%s)", back ? "differs" : "no image");
    stbi_image_free(back);
    free(out.data);
    free(px);
}

int main(void)
{
    pieces p = {.n = 5, .len = {300000, 7, 1, 150000, 70000}};
    for (int k = 0; k < p.n; k++)
        p.data[k] = bytes(p.len[k], k == 4 ? 0 : k == 3 ? 2 : 1, 11u * (unsigned)k);
    check_roundtrip(&p, "mixed pieces");
    check_help(&p);
    pieces one = {.n = 1, .len = {1}, .data = {p.data[2]}};
    check_roundtrip(&one, "one byte");
    /* a random 1000-byte block over and over: only the hash finds it */
    uint8_t *rep = bytes(400000, 0, 3);
    for (size_t i = 1000; i < 400000; i++)
        rep[i] = rep[i - 1000];
    pieces far = {.n = 2, .len = {70000, 400000}, .data = {p.data[4], rep}};
    CHECK(check_roundtrip(&far, "random then repeats") < 70000 + 400000 / 20,
          "the repeats' piece did not take the hash");
    free(rep);
    for (int k = 0; k < p.n; k++)
        free(p.data[k]);
    check_fast_alone();
    check_png();
    check_png16();
    return test_finish("test_zlib_stripes");
}
