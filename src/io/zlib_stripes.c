/* zlib_stripes.h: pieces compressed on threads and joined into one stream. Joining needs
 * where each piece's final block starts and ends (libdeflate does not say), so a piece's
 * stream is walked block by block: its Huffman symbols decoded, none of the data kept. */
#include "zlib_stripes.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>

#include "deflate_literals.h"
#include "parallel.h"

/* ---- Walking a deflate stream (RFC 1951) ---- */

enum {
    MAX_CODE_BITS = 15,
    FAST_BITS = 11,    /* codes up to this long by one table look-up; longer ones bit by bit */
    FAST_SIZE = 1 << FAST_BITS,
    LITLEN_SYMBOLS = 288,
    DIST_SYMBOLS = 32,
    END_OF_BLOCK = 256,
};

/* Bits least significant first: BUF holds CNT of them, from P on; past the end it reads
 * zeros and counts them in OVER (a stream that needs them is cut short). */
typedef struct bit_reader {
    const uint8_t *start, *p, *end;
    uint64_t buf;
    int cnt;
    size_t over;
} bit_reader;

/* Tops BUF up to at least 56 bits. */
static inline void refill(bit_reader *b)
{
    if (b->end - b->p >= 8) {
        uint64_t v;
        memcpy(&v, b->p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
#endif
        b->buf |= v << b->cnt;
        b->p += (63 - b->cnt) >> 3;
        b->cnt |= 56;
        return;
    }
    while (b->cnt <= 56) {
        if (b->p < b->end)
            b->buf |= (uint64_t)*b->p++ << b->cnt;
        else
            b->over += 8;
        b->cnt += 8;
    }
}

/* Bits consumed so far. */
static size_t bit_pos(const bit_reader *b)
{
    return (size_t)(b->p - b->start) * 8 + b->over - (size_t)b->cnt;
}

static inline uint32_t peek_bits(bit_reader *b, int n)
{
    if (b->cnt < n)
        refill(b);
    return (uint32_t)(b->buf & ((1ull << n) - 1));
}

static inline void drop_bits(bit_reader *b, int n)
{
    b->buf >>= n;
    b->cnt -= n;
}

static inline uint32_t take_bits(bit_reader *b, int n)
{
    uint32_t v = peek_bits(b, n);
    drop_bits(b, n);
    return v;
}

/* What follows a code's symbols: nothing, or a length's or a distance's extra bits. */
typedef enum huff_kind { HUFF_PLAIN, HUFF_LITLEN, HUFF_DIST } huff_kind;

/* The extra bits after symbol S of a code of KIND (a length 257 + L carries (L - 4) / 4 for
 * L in 8..27; a distance D carries D / 2 - 1 from 4 on). */
static inline int extra_bits(huff_kind kind, int s)
{
    if (kind == HUFF_LITLEN)
        return s >= 265 && s < 285 ? (s - 261) / 4 : 0;
    return kind == HUFF_DIST && s >= 4 ? s / 2 - 1 : 0;
}

/* A canonical Huffman code: FAST maps the next FAST_BITS bits to symbol << 5 | the bits to
 * drop (the code's and its extra bits) for codes up to FAST_BITS long (0: longer or none);
 * COUNT and SYMBOL decode the rest. */
typedef struct huff {
    uint16_t fast[FAST_SIZE];
    /* The literal/length code's: for next bits that are one or two literals, their total
     * length << 1 | 1; else 0 (decode by FAST). */
    uint16_t literals[FAST_SIZE];
    uint16_t count[MAX_CODE_BITS + 1];
    uint16_t symbol[LITLEN_SYMBOLS];
} huff;

/* Builds H from N code LENGTHS. False for an over-subscribed set. */
static bool huff_build(const uint8_t *lengths, int n, huff_kind kind, huff *h)
{
    int next[MAX_CODE_BITS + 1], offs[MAX_CODE_BITS + 2];
    memset(h->count, 0, sizeof h->count);
    for (int s = 0; s < n; s++)
        h->count[lengths[s]]++;
    h->count[0] = 0;
    int code = 0, left = 1;
    offs[1] = 0;
    for (int l = 1; l <= MAX_CODE_BITS; l++) {
        code = (code + h->count[l - 1]) << 1;
        next[l] = code;
        offs[l + 1] = offs[l] + h->count[l];
        left = (left << 1) - h->count[l];
        if (left < 0)
            return false;
    }
    memset(h->fast, 0, sizeof h->fast);
    for (int s = 0; s < n; s++) {
        int l = lengths[s];
        if (!l)
            continue;
        h->symbol[offs[l]++] = (uint16_t)s;
        int c = next[l]++, rev = 0;
        for (int i = 0; i < l; i++)
            rev |= ((c >> i) & 1) << (l - 1 - i);
        for (int i = rev; l <= FAST_BITS && i < FAST_SIZE; i += 1 << l)
            h->fast[i] = (uint16_t)(s << 5 | (l + extra_bits(kind, s)));
    }
    return true;
}

/* Fills H's LITERALS from its FAST table. */
static void huff_literals(huff *h)
{
    for (int i = 0; i < FAST_SIZE; i++) {
        uint16_t e = h->fast[i], e2 = e ? h->fast[i >> (e & 31)] : 0;
        int l = e & 31, l2 = e2 & 31;
        bool lit = e && (e >> 5) < 256, lit2 = e2 && (e2 >> 5) < 256 && l + l2 <= FAST_BITS;
        h->literals[i] = !lit ? 0 : (uint16_t)((lit2 ? l + l2 : l) << 1 | 1);
    }
}

/* The next symbol of H, or -1 for bits no code matches; a fast one's extra bits dropped,
 * a slow one's not. */
static inline int huff_symbol(bit_reader *b, const huff *h)
{
    uint16_t e = h->fast[peek_bits(b, FAST_BITS)];
    if (e) {
        drop_bits(b, e & 31);
        return e >> 5;
    }
    int code = 0, first = 0, index = 0;   /* the canonical decoding, a bit at a time */
    for (int l = 1; l <= MAX_CODE_BITS; l++) {
        code |= (int)take_bits(b, 1);
        int count = h->count[l];
        if (code - first < count)
            return h->symbol[index + code - first];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

/* The code lengths of a dynamic block's header into LIT and DIST. */
static bool dynamic_codes(bit_reader *b, huff *lit, huff *dist)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                      11, 4, 12, 3, 13, 2, 14, 1, 15};
    int hlit = (int)take_bits(b, 5) + 257, hdist = (int)take_bits(b, 5) + 1;
    int hclen = (int)take_bits(b, 4) + 4;
    uint8_t cl[19] = {0}, len[LITLEN_SYMBOLS + DIST_SYMBOLS] = {0};
    for (int i = 0; i < hclen; i++)
        cl[order[i]] = (uint8_t)take_bits(b, 3);
    if (hlit > 286 || hdist > 30 || !huff_build(cl, 19, HUFF_PLAIN, lit))
        return false;
    for (int i = 0; i < hlit + hdist;) {
        int s = huff_symbol(b, lit), rep = 0, v = 0;
        if (s < 0)
            return false;
        if (s < 16)
            len[i++] = (uint8_t)s;
        else if (s == 16 && i > 0)
            v = len[i - 1], rep = 3 + (int)take_bits(b, 2);
        else if (s == 17)
            rep = 3 + (int)take_bits(b, 3);
        else if (s == 18)
            rep = 11 + (int)take_bits(b, 7);
        else
            return false;
        if (i + rep > hlit + hdist)
            return false;
        while (rep--)
            len[i++] = (uint8_t)v;
    }
    uint8_t dl[DIST_SYMBOLS] = {0};
    memcpy(dl, len + hlit, (size_t)hdist);
    if (!len[END_OF_BLOCK] || !huff_build(len, hlit, HUFF_LITLEN, lit) ||
        !huff_build(dl, DIST_SYMBOLS, HUFF_DIST, dist))
        return false;
    huff_literals(lit);
    return true;
}

static void fixed_codes(huff *lit, huff *dist)
{
    uint8_t len[LITLEN_SYMBOLS], dl[DIST_SYMBOLS];
    for (int s = 0; s < LITLEN_SYMBOLS; s++)
        len[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    memset(dl, 5, sizeof dl);
    huff_build(len, LITLEN_SYMBOLS, HUFF_LITLEN, lit);
    huff_build(dl, DIST_SYMBOLS, HUFF_DIST, dist);
    huff_literals(lit);
}

/* A symbol of H (a code of KIND) and its extra bits, from bits known to be in BUF (the
 * slow path refills). */
static inline int symbol_in_buf(bit_reader *b, const huff *h, huff_kind kind)
{
    uint16_t e = h->fast[b->buf & (FAST_SIZE - 1)];
    if (e) {
        drop_bits(b, e & 31);
        return e >> 5;
    }
    int s = huff_symbol(b, h);
    if (s >= 0)
        take_bits(b, extra_bits(kind, s));
    return s;
}

/* The loop of skip_symbols: after a refill BUF holds 56 bits, more than a match takes (15 + 5
 * + 15 + 13), so the symbols and extra bits of one step are read without checks. */
static inline bool skip_symbols_at(bit_reader *b, const huff *lit, const huff *dist)
{
    for (;;) {
        if (b->cnt < 48) {
            refill(b);
            if (b->over > 64)
                return false;
        }
        uint16_t e = lit->literals[b->buf & (FAST_SIZE - 1)];
        if (e) {
            drop_bits(b, e >> 1);
            continue;
        }
        int s = symbol_in_buf(b, lit, HUFF_LITLEN);
        if (s < 256) {
            if (s < 0)
                return false;
            continue;
        }
        if (s == END_OF_BLOCK)
            return true;
        if (s > 285)
            return false;
        int d = symbol_in_buf(b, dist, HUFF_DIST);
        if (d < 0 || d > 29)
            return false;
    }
}

/* Skips a Huffman block's symbols up to its end code (BR's state in a local copy, kept in
 * registers: stores through BR might alias the tables). */
static bool skip_symbols(bit_reader *br, const huff *lit, const huff *dist)
{
    bit_reader local = *br, *b = &local;
    bool ok = skip_symbols_at(b, lit, dist);
    *br = local;
    return ok;
}

bool deflate_final_block(const uint8_t *data, size_t len, size_t *final_bit, size_t *end_bit)
{
    huff *lit = malloc(2 * sizeof *lit), *dist = lit ? lit + 1 : NULL;
    bit_reader b = {data, data, data + len, 0, 0, 0};
    bool ok = lit != NULL, last = false;
    while (ok && !last) {
        *final_bit = bit_pos(&b);
        last = take_bits(&b, 1);
        uint32_t type = take_bits(&b, 2);
        if (type == 0) {
            drop_bits(&b, b.cnt & 7);   /* to the byte */
            uint32_t n = take_bits(&b, 16), nn = take_bits(&b, 16);
            ok = n == (~nn & 0xffff);
            for (uint32_t i = 0; ok && i < n; i++)
                take_bits(&b, 8);
        } else if (type == 1) {
            fixed_codes(lit, dist);
            ok = skip_symbols(&b, lit, dist);
        } else {
            ok = type == 2 && dynamic_codes(&b, lit, dist) && skip_symbols(&b, lit, dist);
        }
        ok = ok && bit_pos(&b) <= 8 * len;
    }
    free(lit);
    *end_bit = bit_pos(&b);
    return ok;
}

/* ---- Compressing the pieces ---- */

typedef struct piece {
    uint8_t *z;
    size_t zlen;
    uint32_t adler;
} piece;

typedef struct stripes_job {
    struct stripes_job *link;   /* the next job open to helpers */
    int helpers;                /* zlib_stripes_help's threads in it (under open_mu) */
    int pieces, level;
    bool literals;              /* deflate_literals where a sample says matches save little */
    const size_t *len;
    zlib_piece_fn fill;
    void *ctx;
    piece *out;
    atomic_int next;
    atomic_bool failed;
} stripes_job;

/* Turns the deflate stream Z (*ZLEN bytes, room for 5 more) into a non-final one ending on a
 * byte: its final block's BFINAL cleared, then (bits zero from the end code) an empty stored
 * block's header, padding, LEN 0 and NLEN 0xffff. */
static bool make_nonfinal(uint8_t *z, size_t *zlen)
{
    size_t final_bit, end_bit;
    if (!deflate_final_block(z, *zlen, &final_bit, &end_bit))
        return false;
    z[final_bit >> 3] &= (uint8_t)~(1u << (final_bit & 7));
    size_t used = (end_bit + 7) >> 3;
    if (end_bit & 7)
        z[end_bit >> 3] &= (uint8_t)((1u << (end_bit & 7)) - 1);
    size_t at = (end_bit + 3 + 7) >> 3;   /* the 3 header bits, then the next byte */
    for (size_t i = used; i < at; i++)
        z[i] = 0;
    static const uint8_t stored_empty[4] = {0x00, 0x00, 0xff, 0xff};
    memcpy(z + at, stored_empty, 4);
    *zlen = at + 4;
    return true;
}

/* What a thread compresses pieces with: libdeflate's compressor at LEVEL, room for a piece's
 * bytes (RAW) and for its stream (OUT). Kept in a pool between pieces and calls: a compressor
 * and buffers made afresh for each piece cost more than its walk (allocation, page faults,
 * libdeflate's tables set up), since helpers take one piece at a time. */
typedef struct kit {
    struct kit *link;
    struct libdeflate_compressor *c;
    int level;
    uint8_t *raw, *out;
    size_t raw_cap, out_cap;
} kit;

enum { KIT_POOL_MAX = 64 };   /* kits kept; more (a burst of threads) are freed */

/* The sample that decides a piece's compression: its first 64 KiB; literals alone when
 * libdeflate's stream of it is no smaller than 0.95 of theirs (5 % larger at worst). */
#define LITERALS_SAMPLE ((size_t)64 << 10)
#define LITERALS_GAIN 0.95

static pthread_mutex_t kit_mu = PTHREAD_MUTEX_INITIALIZER;
static kit *kit_pool;
static int kit_count;

static void kit_free(kit *k)
{
    if (k) {
        libdeflate_free_compressor(k->c);
        free(k->raw);
        free(k->out);
        free(k);
    }
}

/* A kit at LEVEL from the pool (or new); NULL when out of memory. */
static kit *kit_take(int level)
{
    pthread_mutex_lock(&kit_mu);
    kit **at = &kit_pool;
    while (*at && (*at)->level != level)
        at = &(*at)->link;
    kit *k = *at;
    if (k) {
        *at = k->link;
        kit_count--;
    }
    pthread_mutex_unlock(&kit_mu);
    if (k || !(k = calloc(1, sizeof *k)))
        return k;
    k->level = level;
    if (!(k->c = libdeflate_alloc_compressor(level))) {
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

/* libdeflate's stream of RAW's N bytes into OUT (room for N's bound + 5), made non-final
 * unless LAST; its length, 0 on failure. */
static size_t deflate_part(kit *t, const uint8_t *raw, size_t n, bool last, uint8_t *out)
{
    size_t zlen = libdeflate_deflate_compress(t->c, raw, n, out,
                                              libdeflate_deflate_compress_bound(t->c, n));
    return zlen && (last || make_nonfinal(out, &zlen)) ? zlen : 0;
}

/* Piece K's N bytes in T's RAW with literals allowed, into T's OUT: its first
 * LITERALS_SAMPLE bytes by libdeflate, then either the whole as literals (libdeflate's
 * stream of the sample within LITERALS_GAIN of the literals' estimate) or the rest by
 * libdeflate as a second part (nothing compressed twice). */
static size_t compress_sampled(kit *t, size_t n, bool last)
{
    size_t s = n < LITERALS_SAMPLE ? n : LITERALS_SAMPLE;
    size_t lz = deflate_part(t, t->raw, s, last && s == n, t->out);
    if (!lz || (double)lz >= LITERALS_GAIN * (double)deflate_literals_estimate(t->raw, s))
        return deflate_literals(t->raw, n, last, t->out);
    if (s == n)
        return lz;
    size_t rest = deflate_part(t, t->raw + s, n - s, last, t->out + lz);
    return rest ? lz + rest : 0;
}

/* Piece K with kit T: filled into its RAW, compressed into its OUT, copied out. */
static bool compress_piece(stripes_job *j, kit *t, int k)
{
    size_t n = j->len[k], bound = libdeflate_deflate_compress_bound(t->c, n) + 5;
    if (j->literals) {   /* room for the sample's stream and the rest's, or the literals */
        bound += libdeflate_deflate_compress_bound(t->c, LITERALS_SAMPLE) + 5;
        bound = deflate_literals_bound(n) > bound ? deflate_literals_bound(n) : bound;
    }
    if (!grow(&t->raw, &t->raw_cap, n ? n : 1) || !grow(&t->out, &t->out_cap, bound))
        return false;
    piece *p = &j->out[k];
    bool last = k == j->pieces - 1;
    j->fill(j->ctx, k, t->raw, n);
    p->adler = libdeflate_adler32(1, t->raw, n);
    p->zlen = j->literals ? compress_sampled(t, n, last) : deflate_part(t, t->raw, n, last, t->out);
    return p->zlen && (p->z = malloc(p->zlen)) && memcpy(p->z, t->out, p->zlen);
}

/* Compresses pieces of J not yet taken, up to MAX of them. */
static void stripes_run(stripes_job *j, int max)
{
    kit *t = kit_take(j->level);
    int k;
    while (t && !atomic_load(&j->failed) && max-- > 0 &&
           (k = atomic_fetch_add(&j->next, 1)) < j->pieces)
        if (!compress_piece(j, t, k))
            atomic_store(&j->failed, true);
    if (!t)
        atomic_store(&j->failed, true);
    else
        kit_give(t);
}

static void stripes_worker(void *ctx, int worker)
{
    (void)worker;
    stripes_run(ctx, INT_MAX);
}

/* The jobs under way, open to other threads' help (zlib_stripes_help). */
static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helpers_done = PTHREAD_COND_INITIALIZER;
static stripes_job *open_jobs;

bool zlib_stripes_help(void)
{
    pthread_mutex_lock(&open_mu);
    stripes_job *j = open_jobs;
    while (j && (atomic_load(&j->next) >= j->pieces || atomic_load(&j->failed)))
        j = j->link;
    if (j)
        j->helpers++;
    pthread_mutex_unlock(&open_mu);
    if (!j)
        return false;
    stripes_run(j, 1);   /* one piece: the helper's own work may be waiting */
    pthread_mutex_lock(&open_mu);
    j->helpers--;
    pthread_cond_broadcast(&helpers_done);
    pthread_mutex_unlock(&open_mu);
    return true;
}

/* Runs J's pieces on WORKERS threads, other threads' help welcome; returns when every piece
 * is done and no helper is left in J. */
static void run_open(stripes_job *j, int workers)
{
    pthread_mutex_lock(&open_mu);
    j->link = open_jobs;
    open_jobs = j;
    pthread_mutex_unlock(&open_mu);
    parallel_run(workers, stripes_worker, j);
    pthread_mutex_lock(&open_mu);
    stripes_job **at = &open_jobs;
    while (*at != j)
        at = &(*at)->link;
    *at = j->link;
    while (j->helpers > 0)
        pthread_cond_wait(&helpers_done, &open_mu);
    pthread_mutex_unlock(&open_mu);
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

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > PARALLEL_MAX_WORKERS ? PARALLEL_MAX_WORKERS : (int)n;
}

/* Joins the pieces: the zlib header, the streams, the Adler-32 (big-endian). */
static bool join(const stripes_job *j, uint8_t **z, size_t *zlen)
{
    size_t total = 2 + 4;
    for (int k = 0; k < j->pieces; k++)
        total += j->out[k].zlen;
    uint8_t *p = *z = malloc(total);
    if (!p)
        return false;
    *p++ = 0x78, *p++ = 0x01;   /* deflate, 32 KiB window, fastest (as libdeflate's level 1) */
    uint32_t adler = 1;
    for (int k = 0; k < j->pieces; k++) {
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
                  int level, bool literals, int threads, uint8_t **z, size_t *zlen, char *err,
                  size_t errlen)
{
    stripes_job j = {.pieces = pieces, .level = level, .literals = literals, .len = piece_len,
                     .fill = fill,
                     .ctx = ctx, .out = calloc((size_t)(pieces > 0 ? pieces : 1), sizeof(piece))};
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, j.out == NULL || pieces < 1);
    int workers = threads > 0 ? threads : online_cpus();
    if (!atomic_load(&j.failed))
        run_open(&j, workers < pieces ? workers : pieces);
    bool ok = !atomic_load(&j.failed) && join(&j, z, zlen);
    for (int k = 0; j.out && k < pieces; k++)
        free(j.out[k].z);
    free(j.out);
    if (!ok)
        snprintf(err, errlen, "out of memory for the compressed pieces");
    return ok;
}
