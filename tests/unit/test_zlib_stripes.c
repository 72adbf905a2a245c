/* zlib_stripes: pieces of every kind libdeflate makes (stored blocks of random bytes, fixed
 * codes of a few bytes, dynamic codes of long compressible runs, pieces of one byte) joined
 * into one zlib stream that libdeflate's strict inflater reads back byte for byte with its
 * Adler-32; the same bytes on 1, 2 and 5 threads; deflate_final_block finds a stream's end
 * exactly and refuses cut and damaged streams without reading past them (the sanitizers'
 * build); a PNG of many stripes decodes (stb_image) to its pixels; and other threads'
 * help (zlib_stripes_help, as idle batch workers give it) leaves the bytes as they were.
 * With literals allowed (16-bit PNGs), the random pieces go to deflate_literals and the
 * whole still reads back; deflate_literals alone on skewed counts (codes the length limit
 * must shorten) and on one repeated byte inflates to its input; a 16-bit PNG of noise
 * decodes (stb_image) to its pixels. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <stb_image.h>

#include "encode.h"
#include "deflate_literals.h"
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

/* P's stream with LITERALS allowed or not: the same on 1, 2 and 5 threads, inflated back;
 * its length in *ZLEN. */
static void check_roundtrip_as(const pieces *p, bool literals, const char *what, size_t *zlen_out)
{
    size_t total = 0;
    for (int k = 0; k < p->n; k++)
        total += p->len[k];
    uint8_t *z[3] = {NULL};
    size_t zlen[3] = {0};
    static const int threads[3] = {1, 2, 5};
    char err[128];
    for (int t = 0; t < 3; t++)
        CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, literals, threads[t], &z[t],
                           &zlen[t], err, sizeof err), "%s: %s", what, err);
    *zlen_out = zlen[0];
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
    for (int t = 0; t < 3; t++)
        free(z[t]);
}

/* P's stream without and with literals; whether the two differ. */
static bool check_roundtrip(const pieces *p, const char *what)
{
    size_t plain, lit;
    check_roundtrip_as(p, false, what, &plain);
    check_roundtrip_as(p, true, what, &lit);
    printf("%s: %zu bytes, %zu with literals\n", what, plain, lit);
    return plain != lit;
}

/* deflate_literals of DATA alone, final, inflated back. */
static void check_literals(const uint8_t *data, size_t n, const char *what)
{
    uint8_t *z = malloc(deflate_literals_bound(n)), *back = malloc(n + 1);
    size_t zlen = deflate_literals(data, n, true, z), got = 0;
    CHECK(zlen <= deflate_literals_bound(n), "%s: past the bound", what);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    enum libdeflate_result r = libdeflate_deflate_decompress(d, z, zlen, back, n + 1, &got);
    CHECK(r == LIBDEFLATE_SUCCESS && got == n && !memcmp(back, data, n), "%s: inflate %d, "
          "%zu of %zu bytes", what, (int)r, got, n);
    libdeflate_free_decompressor(d);
    free(back);
    free(z);
}

static void check_literals_alone(void)
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
    check_literals(b, N, "skewed counts");
    memset(b, 'x', N);
    check_literals(b, N, "one byte repeated");
    check_literals(b, 0, "nothing");
    free(b);
}
/* Helpers: call zlib_stripes_help until STOP, counting the pieces they did. */
typedef struct helping {
    atomic_bool stop, started;
    atomic_int helped;
} helping;

static void *helper(void *arg)
{
    helping *h = arg;
    atomic_store(&h->started, true);
    while (!atomic_load(&h->stop))
        if (zlib_stripes_help())
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
    CHECK(!zlib_stripes_help(), "help with no stream under way did something");
    CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, false, 1, &alone, &alone_len, err, sizeof err),
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
        CHECK(zlib_stripes(p->n, p->len, fill, (void *)p, 1, false, 1, &helped, &helped_len, err,
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

static void check_final_block(void)
{
    uint8_t *raw = bytes(200000, 1, 7);
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
    size_t cap = libdeflate_deflate_compress_bound(c, 200000);
    uint8_t *z = malloc(cap);
    size_t n = libdeflate_deflate_compress(c, raw, 200000, z, cap), fb = 0, eb = 0;
    CHECK(deflate_final_block(z, n, &fb, &eb), "a whole stream refused");
    CHECK(eb <= 8 * n && eb > 8 * n - 8 && fb < eb, "end bit %zu of %zu bytes", eb, n);
    CHECK(z[fb / 8] >> (fb % 8) & 1, "no BFINAL at bit %zu", fb);
    /* Cut streams: refused, never read past. */
    for (size_t cut = 0; cut < n; cut += n / 37 + 1) {
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, z, cut);
        CHECK(!deflate_final_block(part, cut, &fb, &eb), "a stream cut at %zu accepted", cut);
        free(part);
    }
    /* Damaged streams: any answer, no crash (the sanitizers watch). */
    for (size_t i = 0; i < n; i += n / 53 + 1) {
        z[i] ^= 0x5a;
        (void)deflate_final_block(z, n, &fb, &eb);
        z[i] ^= 0x5a;
    }
    libdeflate_free_compressor(c);
    free(z);
    free(raw);
}

/* A 16-bit PNG of noise (its stripes written as literals): stb_image reads its pixels. */
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
    pieces rnd = {.n = 2, .len = {70000, 300000}, .data = {p.data[4], p.data[0]}};
    CHECK(check_roundtrip(&rnd, "random then ramp"), "no random piece written as literals");
    for (int k = 0; k < p.n; k++)
        free(p.data[k]);
    check_final_block();
    check_literals_alone();
    check_png();
    check_png16();
    return test_finish("test_zlib_stripes");
}
