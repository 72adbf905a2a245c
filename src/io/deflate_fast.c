/* deflate_fast.h: greedy matches, dynamic Huffman blocks. */
#include "deflate_fast.h"

#include <stdlib.h>
#include <string.h>

enum {
    BLOCK_BYTES = 128 << 10,   /* a block's input: its own code for each 128 KiB */
    LITLEN_SYMBOLS = 286,      /* 0-255 bytes, 256 the end of block, 257-285 lengths */
    DIST_SYMBOLS = 30,
    CL_SYMBOLS = 19,
    MAX_BITS = 15,
    MAX_CL_BITS = 7,
    END_OF_BLOCK = 256,
    MIN_MATCH = 4,             /* the hash's bytes */
    MAX_MATCH = 258,
    WINDOW = 32768,
    HASH_BITS = 15,
    HASH_SIZE = 1 << HASH_BITS,
    FAR = 256,                 /* a hash match further than this ... */
    FAR_MIN_MATCH = 6,         /* ... is taken from this length on */
    HEADER_BYTES = 600,        /* a block header's bound: 17 bits + 19 x 3 + 316 x (7 + 7) */
};

/* Bits written least significant first into P (8 bytes of room past what is written). */
typedef struct bit_writer {
    uint8_t *p;
    uint64_t buf;
    int cnt;
} bit_writer;

/* N ≤ 32 bits of V. */
static inline void put_bits(bit_writer *w, uint32_t v, int n)
{
    w->buf |= (uint64_t)v << w->cnt;
    w->cnt += n;
    if (w->cnt >= 32) {
        uint32_t lo = (uint32_t)w->buf;
        for (int i = 0; i < 4; i++)
            w->p[i] = (uint8_t)(lo >> (8 * i));
        w->p += 4;
        w->buf >>= 32;
        w->cnt -= 32;
    }
}

/* Pads to the byte and writes out what is left. */
static void flush_bits(bit_writer *w)
{
    for (; w->cnt > 0; w->cnt -= 8, w->buf >>= 8)
        *w->p++ = (uint8_t)w->buf;
    w->cnt = 0;
    w->buf = 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Huffman code lengths of at most LIMIT bits for the N counts FREQ (0: no code); at least
 * two symbols get one, so the code is complete. Where the optimal code is too long, the
 * counts are halved (kept non-zero) and it is built again. */
static void code_lengths(const uint32_t *freq_in, int n, int limit, uint8_t *len)
{
    uint32_t freq[LITLEN_SYMBOLS];
    memcpy(freq, freq_in, (size_t)n * sizeof *freq);
    int used = 0;
    for (int s = 0; s < n; s++)
        used += freq[s] > 0;
    for (int s = 0; used < 2 && s < n; s++)
        if (!freq[s])
            freq[s] = 1, used++;
    for (;;) {
        /* leaves sorted by count (ties by symbol), then the two-queue method */
        uint32_t key[LITLEN_SYMBOLS];
        int sym[LITLEN_SYMBOLS], m = 0;
        for (int s = 0; s < n; s++)
            if (freq[s])
                key[m++] = freq[s] << 9 | (uint32_t)s;   /* counts below 2^23 */
        qsort(key, (size_t)m, sizeof *key, cmp_u32);
        for (int i = 0; i < m; i++)
            sym[i] = (int)(key[i] & 511);
        uint64_t w[2 * LITLEN_SYMBOLS];
        int parent[2 * LITLEN_SYMBOLS], leaf = 0, inner = m, next = m;
        for (int i = 0; i < m; i++)
            w[i] = freq[sym[i]];
        for (; next < 2 * m - 1; next++) {
            int pick[2];
            for (int k = 0; k < 2; k++)
                pick[k] = leaf < m && (inner >= next || w[leaf] <= w[inner]) ? leaf++ : inner++;
            w[next] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next;
        }
        int depth[2 * LITLEN_SYMBOLS], longest = 0;
        depth[2 * m - 2] = 0;
        for (int i = 2 * m - 3; i >= 0; i--)
            depth[i] = depth[parent[i]] + 1;
        memset(len, 0, (size_t)n);
        for (int i = 0; i < m; i++) {
            len[sym[i]] = (uint8_t)depth[i];
            longest = depth[i] > longest ? depth[i] : longest;
        }
        if (longest <= limit)
            return;
        for (int s = 0; s < n; s++)
            freq[s] = freq[s] ? freq[s] / 2 + 1 : 0;
    }
}

/* Canonical codes of the N LENGTHS, bit-reversed for writing least significant first. */
static void canonical_codes(const uint8_t *len, int n, uint16_t *code)
{
    int count[MAX_BITS + 1] = {0}, next[MAX_BITS + 1];
    for (int s = 0; s < n; s++)
        count[len[s]]++;
    count[0] = 0;
    for (int l = 1, c = 0; l <= MAX_BITS; l++)
        next[l] = c = (c + count[l - 1]) << 1;
    for (int s = 0; s < n; s++) {
        int l = len[s], c = l ? next[l]++ : 0, rev = 0;
        for (int i = 0; i < l; i++)
            rev |= ((c >> i) & 1) << (l - 1 - i);
        code[s] = (uint16_t)rev;
    }
}

/* A match's length L (3-258) as its symbol's offset from 257 and extra bits: L - 3 below 8
 * plainly, 258 the last symbol, else four symbols per power of two of L - 3. */
static inline void length_symbol(int l, int *sym, int *extra, int *value)
{
    int l3 = l - 3;
    if (l3 < 8 || l == MAX_MATCH) {
        *sym = l == MAX_MATCH ? 28 : l3;
        *extra = *value = 0;
        return;
    }
    int top = 31 - __builtin_clz((unsigned)l3), e = top - 2;
    *sym = 4 * (top - 1) + ((l3 >> e) & 3);
    *extra = e;
    *value = l3 & ((1 << e) - 1);
}

/* A distance D (1-32768) as its symbol and extra bits: D - 1 below 4 plainly, else two
 * symbols per power of two of D - 1. */
static inline void dist_symbol(int d, int *sym, int *extra, int *value)
{
    int d1 = d - 1;
    if (d1 < 4) {
        *sym = d1;
        *extra = *value = 0;
        return;
    }
    int top = 31 - __builtin_clz((unsigned)d1), e = top - 1;
    *sym = 2 * top + ((d1 >> e) & 1);
    *extra = e;
    *value = d1 & ((1 << e) - 1);
}

/* A match: LEN bytes at distance DIST + 1, after LITS literals. */
typedef struct match {
    uint32_t lits;
    uint16_t len, dist;
} match;

enum { BLOCK_MATCHES = BLOCK_BYTES / MIN_MATCH + 1 };

/* One block: its bytes from START, its matches and the literals after the last (TAIL), and
 * their symbols' counts. */
typedef struct block {
    const uint8_t *start;
    match *m;
    size_t n, tail;
    uint32_t lit[LITLEN_SYMBOLS], dist[DIST_SYMBOLS];
    uint32_t bytes[4][256];   /* the literals' counts, four tables: no store waits on the last */
} block;

/* The code lengths of LENS (N of them) as code-length symbols (a symbol, and for 16-18 its
 * repeat count << 5) into TOK, counted in FREQ; returns how many. */
static int length_tokens(const uint8_t *lens, int n, uint16_t *tok, uint32_t *freq)
{
    int t = 0;
    for (int i = 0; i < n;) {
        int v = lens[i], run = 1;
        while (i + run < n && lens[i + run] == v)
            run++;
        i += run;
        if (v == 0) {
            for (; run >= 11; run -= run < 138 ? run : 138)
                tok[t++] = (uint16_t)(18 | (run < 138 ? run : 138) << 5), freq[18]++;
            if (run >= 3)
                tok[t++] = (uint16_t)(17 | run << 5), freq[17]++, run = 0;
        } else {
            tok[t++] = (uint16_t)v, freq[v]++, run--;
            for (; run >= 3; run -= run < 6 ? run : 6)
                tok[t++] = (uint16_t)(16 | (run < 6 ? run : 6) << 5), freq[16]++;
        }
        for (; run > 0; run--)
            tok[t++] = (uint16_t)v, freq[v]++;
    }
    return t;
}

/* B's header: the block's type and its codes' lengths, as RFC 1951 3.2.7 sends them. */
static void write_header(bit_writer *w, const uint8_t *lens, int hlit, int hdist, bool final)
{
    static const uint8_t order[CL_SYMBOLS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                              11, 4, 12, 3, 13, 2, 14, 1, 15};
    static const uint8_t rep_bits[3] = {2, 3, 7}, rep_base[3] = {3, 3, 11};
    uint8_t all[LITLEN_SYMBOLS + DIST_SYMBOLS], cl_len[CL_SYMBOLS];
    uint16_t tok[LITLEN_SYMBOLS + DIST_SYMBOLS], cl_code[CL_SYMBOLS];
    uint32_t cl_freq[CL_SYMBOLS] = {0};
    memcpy(all, lens, (size_t)hlit);
    memcpy(all + hlit, lens + LITLEN_SYMBOLS, (size_t)hdist);
    int nt = length_tokens(all, hlit + hdist, tok, cl_freq);
    code_lengths(cl_freq, CL_SYMBOLS, MAX_CL_BITS, cl_len);
    canonical_codes(cl_len, CL_SYMBOLS, cl_code);
    int hclen = CL_SYMBOLS;
    while (hclen > 4 && !cl_len[order[hclen - 1]])
        hclen--;
    put_bits(w, final ? 1 : 0, 1);
    put_bits(w, 2, 2);   /* dynamic Huffman */
    put_bits(w, (uint32_t)hlit - 257, 5);
    put_bits(w, (uint32_t)hdist - 1, 5);
    put_bits(w, (uint32_t)hclen - 4, 4);
    for (int i = 0; i < hclen; i++)
        put_bits(w, cl_len[order[i]], 3);
    for (int i = 0; i < nt; i++) {
        int s = tok[i] & 31;
        put_bits(w, cl_code[s], cl_len[s]);
        if (s >= 16)
            put_bits(w, (uint32_t)((tok[i] >> 5) - rep_base[s - 16]), rep_bits[s - 16]);
    }
}

/* Writes BUF's whole bytes at P (8 bytes of room) and keeps the rest: CNT below 8 after. */
static inline void flush_bytes(uint8_t **p, uint64_t *buf, int *cnt)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(*p, buf, 8);
#else
    for (int i = 0; i < 8; i++)
        (*p)[i] = (uint8_t)(*buf >> (8 * i));
#endif
    int k = *cnt >> 3;
    *p += k;
    *buf = k ? *buf >> (8 * k) : *buf;   /* k at most 7: the shift below 64 */
    *cnt &= 7;
}

/* N literals from S: three codes (45 bits at most) between flushes. */
static inline void put_literals(uint8_t **p, uint64_t *buf, int *cnt, const uint8_t *s,
                                size_t n, const uint8_t *len, const uint16_t *code)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        for (int k = 0; k < 3; k++) {
            *buf |= (uint64_t)code[s[i + k]] << *cnt;
            *cnt += len[s[i + k]];
        }
        flush_bytes(p, buf, cnt);
    }
    for (; i < n; i++) {
        *buf |= (uint64_t)code[s[i]] << *cnt;
        *cnt += len[s[i]];
    }
    flush_bytes(p, buf, cnt);
}

/* B's literals and matches by the codes LEN/CODE (the distances' from LEN + LITLEN_SYMBOLS)
 * and its end code; the writer's bits kept in locals, whole bytes stored 8 at a time. */
static void write_symbols(bit_writer *w, const block *b, const uint8_t *len,
                          const uint16_t *code, const uint16_t *dcode)
{
    const uint8_t *dlen = len + LITLEN_SYMBOLS, *s = b->start;
    uint8_t *p = w->p;
    uint64_t buf = w->buf;
    int cnt = w->cnt;
    flush_bytes(&p, &buf, &cnt);
    for (size_t i = 0; i < b->n; i++) {
        const match *m = &b->m[i];
        put_literals(&p, &buf, &cnt, s, m->lits, len, code);
        s += m->lits + m->len;
        int sym, e, v;   /* a length (20 bits at most) and a distance (28) */
        length_symbol(m->len, &sym, &e, &v);
        buf |= ((uint64_t)v << len[257 + sym] | code[257 + sym]) << cnt;
        cnt += len[257 + sym] + e;
        dist_symbol(m->dist + 1, &sym, &e, &v);
        buf |= ((uint64_t)v << dlen[sym] | dcode[sym]) << cnt;
        cnt += dlen[sym] + e;
        flush_bytes(&p, &buf, &cnt);
    }
    put_literals(&p, &buf, &cnt, s, b->tail, len, code);
    buf |= (uint64_t)code[END_OF_BLOCK] << cnt;
    cnt += len[END_OF_BLOCK];
    flush_bytes(&p, &buf, &cnt);
    w->p = p;
    w->buf = buf;
    w->cnt = cnt;
}

/* B as one dynamic Huffman block, BFINAL as FINAL. */
static void write_block(bit_writer *w, block *b, bool final)
{
    uint8_t len[LITLEN_SYMBOLS + DIST_SYMBOLS];
    uint16_t code[LITLEN_SYMBOLS], dcode[DIST_SYMBOLS];
    for (int s = 0; s < 256; s++)
        b->lit[s] = b->bytes[0][s] + b->bytes[1][s] + b->bytes[2][s] + b->bytes[3][s];
    b->lit[END_OF_BLOCK] = 1;
    code_lengths(b->lit, LITLEN_SYMBOLS, MAX_BITS, len);
    code_lengths(b->dist, DIST_SYMBOLS, MAX_BITS, len + LITLEN_SYMBOLS);
    canonical_codes(len, LITLEN_SYMBOLS, code);
    canonical_codes(len + LITLEN_SYMBOLS, DIST_SYMBOLS, dcode);
    const uint8_t *dlen = len + LITLEN_SYMBOLS;
    int hlit = LITLEN_SYMBOLS, hdist = DIST_SYMBOLS;
    while (!len[hlit - 1])
        hlit--;
    while (hdist > 1 && !dlen[hdist - 1])
        hdist--;
    write_header(w, len, hlit, hdist, final);
    write_symbols(w, b, len, code, dcode);
}

static inline uint32_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* How many bytes from A and B agree, at most MAX (B before A in one buffer). */
static inline int match_length(const uint8_t *a, const uint8_t *b, int max)
{
    int l = 0;
    for (; l + 8 <= max; l += 8) {
        uint64_t x = load64(a + l) ^ load64(b + l);
        if (x) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return l + __builtin_ctzll(x) / 8;
#else
            return l + __builtin_clzll(x) / 8;
#endif
        }
    }
    while (l < max && a[l] == b[l])
        l++;
    return l;
}

/* A match of L bytes at distance D into B's matches and counts, after *LITS literals. */
static inline void add_match(block *b, size_t *lits, int l, int d)
{
    int s, e, v;
    length_symbol(l, &s, &e, &v);
    b->lit[257 + s]++;
    dist_symbol(d, &s, &e, &v);
    b->dist[s]++;
    b->m[b->n++] = (match){(uint32_t)*lits, (uint16_t)l, (uint16_t)(d - 1)};
    *lits = 0;
}

static inline uint32_t hash4(uint32_t v)
{
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Whether any 4 consecutive bytes of X are zero. */
static inline bool zero_run4(uint64_t x)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t z = ~(((x & low7) + low7) | x | low7);   /* the top bit of each zero byte */
    return (z & z >> 8 & z >> 16 & z >> 24) != 0;
}

/* DATA[*AT..] into B until BLOCK_BYTES are taken (a match may run past). At each position
 * the near distances first, then (with TAB: the last position + 1 of each hash of 4 bytes,
 * 0 none) the hash's candidate; its matches shorter than FAR_MIN_MATCH further than FAR are
 * dropped (they cost more bits than their literals). Without the hash, five positions at a
 * time where no near distance can match (one test of 8 bytes each). */
static void find_items(const uint8_t *data, size_t len, size_t *at, const size_t near[2],
                       int32_t *tab, block *b)
{
    size_t p = *at, end = len - p > BLOCK_BYTES ? p + BLOCK_BYTES : len, lits = 0;
    size_t far_near = near[0] > near[1] ? near[0] : near[1];
    b->start = data + p;
    b->n = 0;
    while (p < end) {
        if (p + 8 <= len) {
            uint64_t v8 = load64(data + p);
            if (!tab && p >= far_near && !zero_run4(v8 ^ load64(data + p - near[0])) &&
                !zero_run4(v8 ^ load64(data + p - near[1]))) {
                uint32_t (*t)[256] = b->bytes;
                t[0][data[p]]++, t[1][data[p + 1]]++, t[2][data[p + 2]]++;
                t[3][data[p + 3]]++, t[0][data[p + 4]]++;
                p += 5;
                lits += 5;
                continue;
            }
            uint32_t v = (uint32_t)load32(data + p);
            size_t d = 0, hashed = 0;
            if (p >= near[0] && load32(data + p - near[0]) == v)
                d = near[0];
            else if (p >= near[1] && load32(data + p - near[1]) == v)
                d = near[1];
            else if (tab) {
                uint32_t h = hash4(v);
                size_t c = (size_t)tab[h];
                tab[h] = (int32_t)p + 1;
                if (c && p + 1 - c <= WINDOW && load32(data + c - 1) == v)
                    d = hashed = p + 1 - c;
            }
            if (d) {
                size_t room = len - p;
                int max = room < MAX_MATCH ? (int)room : MAX_MATCH;
                int l = MIN_MATCH + match_length(data + p + MIN_MATCH,
                                                 data + p - d + MIN_MATCH, max - MIN_MATCH);
                if (d <= FAR || l >= FAR_MIN_MATCH) {
                    for (size_t q = p + 1; hashed && q < p + (size_t)l && q + 8 <= len; q++)
                        tab[hash4(load32(data + q))] = (int32_t)q + 1;
                    add_match(b, &lits, l, (int)d);
                    p += (size_t)l;
                    continue;
                }
            }
        }
        b->bytes[p & 3][data[p]]++;
        p++;
        lits++;
    }
    b->tail = lits;
    *at = p;
}

/* DATA[*AT..] into B as literals alone, BLOCK_BYTES of them (fewer at the end). */
static void take_literals(const uint8_t *data, size_t len, size_t *at, block *b)
{
    size_t p = *at, end = len - p > BLOCK_BYTES ? p + BLOCK_BYTES : len;
    uint32_t (*t)[256] = b->bytes;
    b->start = data + p;
    b->n = 0;
    b->tail = end - p;
    for (; p + 4 <= end; p += 4)
        t[0][data[p]]++, t[1][data[p + 1]]++, t[2][data[p + 2]]++, t[3][data[p + 3]]++;
    for (; p < end; p++)
        t[0][data[p]]++;
    *at = end;
}

size_t deflate_fast_bound(size_t len)
{
    /* a block's items take at most 15 bits a byte (a literal; a match of 4 at most 48) */
    return (len / BLOCK_BYTES + 2) * HEADER_BYTES + len * MAX_BITS / 8 + 16;
}

struct deflate_fast_work {
    block b;
    match m[BLOCK_MATCHES];
    int32_t tab[HASH_SIZE];
};

deflate_fast_work *deflate_fast_work_new(void)
{
    return malloc(sizeof(deflate_fast_work));
}

void deflate_fast_work_free(deflate_fast_work *w)
{
    free(w);
}

size_t deflate_fast(deflate_fast_work *work, const uint8_t *data, size_t len,
                    const size_t near[2], int mode, bool final, uint8_t *out)
{
    block *b = &work->b;
    b->m = work->m;
    int32_t *tab = mode == DEFLATE_FAST_HASH ? work->tab : NULL;
    if (tab)
        memset(tab, 0, sizeof work->tab);
    bit_writer w = {out, 0, 0};
    size_t at = 0;
    do {
        memset(b->lit, 0, sizeof b->lit);
        memset(b->dist, 0, sizeof b->dist);
        memset(b->bytes, 0, sizeof b->bytes);
        if (mode == DEFLATE_FAST_LITERALS)
            take_literals(data, len, &at, b);
        else
            find_items(data, len, &at, near, tab, b);
        write_block(&w, b, final && at == len);
    } while (at < len);
    if (!final) {
        put_bits(&w, 0, 3);   /* an empty stored block: its header, the byte, LEN, NLEN */
        flush_bits(&w);
        static const uint8_t stored_empty[4] = {0x00, 0x00, 0xff, 0xff};
        memcpy(w.p, stored_empty, 4);
        w.p += 4;
    }
    flush_bits(&w);
    return (size_t)(w.p - out);
}
