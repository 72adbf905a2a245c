/* deflate_literals.h: dynamic Huffman blocks holding literals only. */
#include "deflate_literals.h"

#include <string.h>

enum {
    BLOCK_BYTES = 128 << 10,   /* a block's bytes: a code adapted to each eighth of a 4K stripe */
    LIT_SYMBOLS = 257,         /* the bytes and the end of block (no lengths) */
    DIST_CODES = 2,            /* two unused distance codes of 1 bit: a complete code */
    CL_SYMBOLS = 19,
    MAX_LIT_BITS = 15,
    MAX_CL_BITS = 7,
    END_OF_BLOCK = 256,
    HEADER_BYTES = 300,        /* a block header's bound: 17 bits + 19 x 3 + 259 x 7 */
};

/* Bits written least significant first into P. */
typedef struct bit_writer {
    uint8_t *p;
    uint64_t buf;
    int cnt;
} bit_writer;

static inline void put_bits(bit_writer *w, uint32_t v, int n)
{
    w->buf |= (uint64_t)v << w->cnt;
    w->cnt += n;
    if (w->cnt >= 32) {
        for (int i = 0; i < 4; i++)
            w->p[i] = (uint8_t)(w->buf >> (8 * i));
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

/* Huffman code lengths of at most LIMIT bits for the N counts FREQ (0: no code); at least
 * two symbols get one, so the code is complete. Where the optimal code is too long, the
 * counts are halved (kept non-zero) and it is built again. */
static void code_lengths(const uint32_t *freq_in, int n, int limit, uint8_t *len)
{
    uint32_t freq[LIT_SYMBOLS];
    memcpy(freq, freq_in, (size_t)n * sizeof *freq);
    int used = 0;
    for (int s = 0; s < n; s++)
        used += freq[s] > 0;
    for (int s = 0; used < 2 && s < n; s++)
        if (!freq[s])
            freq[s] = 1, used++;
    for (;;) {
        /* leaves sorted by count (insertion: at most 257), then the two-queue method */
        int sym[LIT_SYMBOLS], m = 0;
        for (int s = 0; s < n; s++) {
            if (!freq[s])
                continue;
            int i = m++;
            for (; i > 0 && freq[sym[i - 1]] > freq[s]; i--)
                sym[i] = sym[i - 1];
            sym[i] = s;
        }
        uint64_t w[2 * LIT_SYMBOLS];
        int parent[2 * LIT_SYMBOLS], leaf = 0, inner = m, next = m;
        for (int i = 0; i < m; i++)
            w[i] = freq[sym[i]];
        for (; next < 2 * m - 1; next++) {
            int pick[2];
            for (int k = 0; k < 2; k++)
                pick[k] = leaf < m && (inner >= next || w[leaf] <= w[inner]) ? leaf++ : inner++;
            w[next] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next;
        }
        int depth[2 * LIT_SYMBOLS], longest = 0;
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
    int count[MAX_LIT_BITS + 1] = {0}, next[MAX_LIT_BITS + 1];
    for (int s = 0; s < n; s++)
        count[len[s]]++;
    count[0] = 0;
    for (int l = 1, c = 0; l <= MAX_LIT_BITS; l++)
        next[l] = c = (c + count[l - 1]) << 1;
    for (int s = 0; s < n; s++) {
        int l = len[s], c = l ? next[l]++ : 0, rev = 0;
        for (int i = 0; i < l; i++)
            rev |= ((c >> i) & 1) << (l - 1 - i);
        code[s] = (uint16_t)rev;
    }
}

static void histogram(const uint8_t *data, size_t len, uint32_t *freq)
{
    uint32_t f[4][256] = {{0}};   /* four tables: no store waits on the one before */
    size_t i = 0;
    for (; i + 4 <= len; i += 4)
        f[0][data[i]]++, f[1][data[i + 1]]++, f[2][data[i + 2]]++, f[3][data[i + 3]]++;
    for (; i < len; i++)
        f[0][data[i]]++;
    for (int s = 0; s < 256; s++)
        freq[s] = f[0][s] + f[1][s] + f[2][s] + f[3][s];
    freq[END_OF_BLOCK] = 1;
}

/* One block of LEN bytes of DATA, BFINAL as FINAL. */
static void write_block(bit_writer *w, const uint8_t *data, size_t len, bool final)
{
    static const uint8_t order[CL_SYMBOLS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                              11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint32_t freq[LIT_SYMBOLS], cl_freq[CL_SYMBOLS] = {0};
    uint8_t len_all[LIT_SYMBOLS + DIST_CODES], cl_len[CL_SYMBOLS];
    uint16_t code[LIT_SYMBOLS], cl_code[CL_SYMBOLS];
    histogram(data, len, freq);
    code_lengths(freq, LIT_SYMBOLS, MAX_LIT_BITS, len_all);
    len_all[LIT_SYMBOLS] = len_all[LIT_SYMBOLS + 1] = 1;
    canonical_codes(len_all, LIT_SYMBOLS, code);
    for (int s = 0; s < LIT_SYMBOLS + DIST_CODES; s++)   /* lengths sent plainly, no runs */
        cl_freq[len_all[s]]++;
    code_lengths(cl_freq, CL_SYMBOLS, MAX_CL_BITS, cl_len);
    canonical_codes(cl_len, CL_SYMBOLS, cl_code);
    int hclen = CL_SYMBOLS;
    while (hclen > 4 && !cl_len[order[hclen - 1]])
        hclen--;
    put_bits(w, final ? 1 : 0, 1);
    put_bits(w, 2, 2);   /* dynamic Huffman */
    put_bits(w, LIT_SYMBOLS - 257, 5);
    put_bits(w, DIST_CODES - 1, 5);
    put_bits(w, (uint32_t)hclen - 4, 4);
    for (int i = 0; i < hclen; i++)
        put_bits(w, cl_len[order[i]], 3);
    for (int s = 0; s < LIT_SYMBOLS + DIST_CODES; s++)
        put_bits(w, cl_code[len_all[s]], cl_len[len_all[s]]);
    for (size_t i = 0; i < len; i++)
        put_bits(w, code[data[i]], len_all[data[i]]);
    put_bits(w, code[END_OF_BLOCK], len_all[END_OF_BLOCK]);
}

size_t deflate_literals_bound(size_t len)
{
    /* a block's literals take at most 15 bits each */
    return (len / BLOCK_BYTES + 1) * HEADER_BYTES + len * MAX_LIT_BITS / 8 + 16;
}

size_t deflate_literals(const uint8_t *data, size_t len, bool final, uint8_t *out)
{
    bit_writer w = {out, 0, 0};
    size_t at = 0;
    do {
        size_t n = len - at < BLOCK_BYTES ? len - at : BLOCK_BYTES;
        write_block(&w, data + at, n, final && at + n == len);
        at += n;
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

size_t deflate_literals_estimate(const uint8_t *data, size_t len)
{
    uint32_t freq[LIT_SYMBOLS];
    uint8_t bits[LIT_SYMBOLS];
    histogram(data, len, freq);
    code_lengths(freq, LIT_SYMBOLS, MAX_LIT_BITS, bits);
    uint64_t total = 0;
    for (int s = 0; s < LIT_SYMBOLS; s++)
        total += (uint64_t)freq[s] * bits[s];
    return (size_t)(total / 8) + HEADER_BYTES / 2;
}
