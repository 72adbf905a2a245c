/* zlib_stripes.h: pieces compressed on threads (deflate_fast.h, which ends a stream on a byte
 * itself) and joined into one stream. */
#include "zlib_stripes.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

#include "deflate_fast.h"
#include "encode_terms.h"
#include "help_pool.h"

/* ---- Compressing the pieces ---- */

typedef struct piece {
    uint8_t *z;
    size_t zlen;
    uint32_t adler;
} piece;

typedef struct stripes_job {
    help_job help;              /* first: the pool's view of the job, its pieces */
    size_t near[2];             /* deflate_fast's near distances */
    const size_t *len;
    zlib_piece_fn fill;
    void *ctx;
    piece *out;
} stripes_job;

/* What a thread compresses pieces with: deflate_fast's work, room for a piece's bytes (RAW)
 * and for its stream (OUT). Kept in a pool between pieces and calls: buffers made afresh
 * for each piece cost page faults on every piece, since helpers take one piece at a time. */
typedef struct kit {
    struct kit *link;
    deflate_fast_work *work;
    uint8_t *raw, *out;
    size_t raw_cap, out_cap;
} kit;

enum { KIT_POOL_MAX = 64 };   /* kits kept; more (a burst of threads) are freed */

/* The sample that decides a piece's compression: its first 16 KiB, by the near distances
 * alone and with the hash; the hash for the rest when it made the sample at least 5 %
 * smaller (on a 16-bit PNG's noisy low bytes it costs ~2x and saves little). A sample of
 * 64 KiB chose the hash more often, for 1 % less on the default image's PQ PNG at 1.5x
 * the time (BENCHMARKS.md, "The PNG encoder, fourth pass"). Literals alone (Huffman coding,
 * no match looked for) where the sample costs at most 2 % more that way than by the near
 * distances: on 4K frames 16-38 % less deflate time for 0.1-0.8 % more bytes (5 % allowed
 * saved little more; "PQ PNG and Ultra HDR: where the encode goes"). */
#define SAMPLE_BYTES ((size_t)16 << 10)
#define HASH_GAIN 0.95
#define LITERALS_COST 1.02

static pthread_mutex_t kit_mu = PTHREAD_MUTEX_INITIALIZER;
static kit *kit_pool;
static int kit_count;

static void kit_free(kit *k)
{
    if (k) {
        deflate_fast_work_free(k->work);
        free(k->raw);
        free(k->out);
        free(k);
    }
}

/* A kit from the pool (or new); NULL when out of memory. */
static kit *kit_take(void)
{
    pthread_mutex_lock(&kit_mu);
    kit *k = kit_pool;
    if (k) {
        kit_pool = k->link;
        kit_count--;
    }
    pthread_mutex_unlock(&kit_mu);
    if (k || !(k = calloc(1, sizeof *k)))
        return k;
    if (!(k->work = deflate_fast_work_new())) {
        free(k);
        return NULL;
    }
    return k;
}

static void kit_give(kit *k)
{
    pthread_mutex_lock(&kit_mu);
    bool keep = kit_count < KIT_POOL_MAX;
    if (keep) {
        k->link = kit_pool;
        kit_pool = k;
        kit_count++;
    }
    pthread_mutex_unlock(&kit_mu);
    if (!keep)
        kit_free(k);
}

/* Makes *BUF at least N bytes (its contents not kept). */
static bool grow(uint8_t **buf, size_t *cap, size_t n)
{
    if (*cap >= n)
        return true;
    free(*buf);
    *cap = 0;
    if (!(*buf = malloc(n)))
        return false;
    *cap = n;
    return true;
}

/* Piece K's N bytes in T's RAW into T's OUT: its first SAMPLE_BYTES three ways (near
 * distances, with the hash, literals alone), the one kept by HASH_GAIN's and LITERALS_COST's
 * rules, then the rest the same way as a second part (nothing compressed a third time). Its
 * length. */
static size_t compress_sampled(const stripes_job *j, kit *t, size_t n, bool last)
{
    size_t s = n < SAMPLE_BYTES ? n : SAMPLE_BYTES, at = deflate_fast_bound(s), size[3];
    for (int mode = 0; mode < 3; mode++)
        size[mode] = deflate_fast(t->work, t->raw, s, j->near, mode, last && s == n,
                                  t->out + (size_t)mode * at);
    int mode = (double)size[DEFLATE_FAST_HASH] < HASH_GAIN * (double)size[DEFLATE_FAST_NEAR]
                   ? DEFLATE_FAST_HASH
               : (double)size[DEFLATE_FAST_LITERALS] <=
                       LITERALS_COST * (double)size[DEFLATE_FAST_NEAR]
                   ? DEFLATE_FAST_LITERALS
                   : DEFLATE_FAST_NEAR;
    if (mode)
        memmove(t->out, t->out + (size_t)mode * at, size[mode]);
    if (s == n)
        return size[mode];
    return size[mode] + deflate_fast(t->work, t->raw + s, n - s, j->near, mode, last,
                                     t->out + size[mode]);
}

/* Piece K with kit T: filled into its RAW, compressed into its OUT, copied out. */
static bool compress_piece(stripes_job *j, kit *t, int k)
{
    size_t n = j->len[k];
    size_t bound = 3 * deflate_fast_bound(SAMPLE_BYTES) + deflate_fast_bound(n);
    if (!grow(&t->raw, &t->raw_cap, n ? n : 1) || !grow(&t->out, &t->out_cap, bound))
        return false;
    piece *p = &j->out[k];
    encode_mark m = encode_mark_now();
    j->fill(j->ctx, k, t->raw, n);
    m = encode_term_add(ENCODE_TERM_filter, m);
    p->adler = libdeflate_adler32(1, t->raw, n);
    m = encode_term_add(ENCODE_TERM_adler, m);
    p->zlen = compress_sampled(j, t, n, k == j->help.pieces - 1);
    m = encode_term_add(ENCODE_TERM_deflate, m);
    bool ok = (p->z = malloc(p->zlen)) && memcpy(p->z, t->out, p->zlen);
    encode_term_add(ENCODE_TERM_copy, m);
    return ok;
}

/* Compresses pieces of J not yet taken, up to MAX of them (help_job's run). */
static void stripes_run(help_job *h, int max)
{
    kit *t = kit_take();
    int k;
    while (t && (k = help_pool_take(h, &max)) >= 0)
        if (!compress_piece((stripes_job *)h, t, k))
            atomic_store(&h->failed, true);
    if (!t)
        atomic_store(&h->failed, true);
    else
        kit_give(t);
}

/* The Adler-32 of A's bytes followed by LEN2 bytes whose Adler-32 is B. */
static uint32_t adler32_join(uint32_t a, uint32_t b, size_t len2)
{
    const uint32_t base = 65521;
    uint32_t a1 = a & 0xffff, b1 = a >> 16, a2 = b & 0xffff, b2 = b >> 16;
    uint32_t n = (uint32_t)(len2 % base);
    uint32_t s1 = (a1 + a2 + base - 1) % base;
    uint32_t s2 = (uint32_t)((b1 + b2 + (uint64_t)n * ((a1 + base - 1) % base)) % base);
    return s2 << 16 | s1;
}

/* Joins the pieces: the zlib header, the streams, the Adler-32 (big-endian), after HEAD
 * bytes of a buffer with TAIL more after them. */
static bool join(const stripes_job *j, size_t head, size_t tail, uint8_t **z, size_t *zlen)
{
    size_t total = 2 + 4;
    for (int k = 0; k < j->help.pieces; k++)
        total += j->out[k].zlen;
    uint8_t *p = *z = malloc(head + total + tail);
    if (!p)
        return false;
    p += head;
    *p++ = 0x78, *p++ = 0x01;   /* deflate, 32 KiB window, the fastest kind of compressor */
    uint32_t adler = 1;
    for (int k = 0; k < j->help.pieces; k++) {
        memcpy(p, j->out[k].z, j->out[k].zlen);
        p += j->out[k].zlen;
        adler = adler32_join(adler, j->out[k].adler, j->len[k]);
    }
    for (int i = 0; i < 4; i++)
        *p++ = (uint8_t)(adler >> (24 - 8 * i));
    *zlen = total;
    return true;
}

bool zlib_stripes(int pieces, const size_t *piece_len, zlib_piece_fn fill, void *ctx,
                  size_t near0, size_t near1, int threads, uint8_t **z, size_t *zlen,
                  char *err, size_t errlen)
{
    return zlib_stripes_room(pieces, piece_len, fill, ctx, near0, near1, threads, 0, 0, z, zlen,
                             err, errlen);
}

bool zlib_stripes_room(int pieces, const size_t *piece_len, zlib_piece_fn fill, void *ctx,
                       size_t near0, size_t near1, int threads, size_t head, size_t tail,
                       uint8_t **z, size_t *zlen, char *err, size_t errlen)
{
    stripes_job j = {.near = {near0 ? near0 : 1, near1 ? near1 : 1},
                     .len = piece_len, .fill = fill, .ctx = ctx,
                     .out = calloc((size_t)(pieces > 0 ? pieces : 1), sizeof(piece))};
    help_job_init(&j.help, pieces, stripes_run);
    atomic_store(&j.help.failed, j.out == NULL || pieces < 1);
    if (!atomic_load(&j.help.failed))
        help_pool_run(&j.help, threads);
    encode_mark m = encode_mark_now();
    bool ok = !atomic_load(&j.help.failed) && join(&j, head, tail, z, zlen);
    encode_term_add(ENCODE_TERM_join, m);
    for (int k = 0; j.out && k < pieces; k++)
        free(j.out[k].z);
    free(j.out);
    if (!ok)
        snprintf(err, errlen, "out of memory for the compressed pieces");
    return ok;
}
