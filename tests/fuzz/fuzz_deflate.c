/* libFuzzer harness: any bytes through our deflate encoder (src/io/deflate_fast.c), which
 * writes every PNG. The first byte picks the near distances and the hash; the rest is the
 * data. Property: the stream, inflated by libdeflate (an independent decoder), gives the data
 * back, within deflate_fast_bound; a non-final stream followed by a final one of the same
 * data inflates to the data twice (zlib_stripes' joined pieces). */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/io/deflate_fast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const size_t nears[4][2] = {{1, 3}, {2, 6}, {3, 4}, {1, 1}};
    const size_t *near = nears[data[0] & 3];
    int hash = (data[0] >> 2) % 3;   /* deflate_fast.h's modes */
    data++, size--;
    deflate_fast_work *w = deflate_fast_work_new();
    size_t bound = deflate_fast_bound(size);
    uint8_t *out = malloc(2 * bound), *back = malloc(2 * size + 1);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!w || !out || !back || !d)
        abort();
    size_t a = deflate_fast(w, data, size, near, hash, false, out);
    size_t b = deflate_fast(w, data, size, near, hash, true, out + a);
    size_t got = 0;
    if (a > bound || b > bound ||
        libdeflate_deflate_decompress(d, out, a + b, back, 2 * size + 1, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != 2 * size || memcmp(back, data, size) != 0 || memcmp(back + size, data, size) != 0)
        abort();
    libdeflate_free_decompressor(d);
    free(back);
    free(out);
    deflate_fast_work_free(w);
    return 0;
}
