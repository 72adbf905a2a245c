/* A fast deflate (RFC 1951) encoder of our own: greedy matches at two fixed distances and
 * optionally from one hash table of 4-byte sequences (no chains, no lazy search), dynamic
 * Huffman blocks. It knows where its blocks
 * end, so a stream can be made non-final (for zlib_stripes' joined pieces) without walking
 * it, and on a 16-bit PNG's noisy low bytes it costs a fraction of libdeflate's level 1
 * (which hashes and tries every position twice over). The bytes depend on the input only. */
#ifndef HT_DEFLATE_FAST_H
#define HT_DEFLATE_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What deflate_fast works in (~400 KB), one per thread, reused between calls. */
typedef struct deflate_fast_work deflate_fast_work;

/* NULL when out of memory. */
deflate_fast_work *deflate_fast_work_new(void);
void deflate_fast_work_free(deflate_fast_work *w);

/* The most bytes deflate_fast writes for LEN bytes. */
size_t deflate_fast_bound(size_t len);

/* What deflate_fast looks for: matches at the near distances; those and the hash's; none,
 * every byte a literal (Huffman coding alone: on a 16-bit PNG's noisy low bytes within a
 * few per cent of the others' size at a fraction of their time). */
enum { DEFLATE_FAST_NEAR = 0, DEFLATE_FAST_HASH = 1, DEFLATE_FAST_LITERALS = 2 };

/* DATA's LEN bytes as a raw deflate stream into OUT (deflate_fast_bound bytes of room), in
 * WORK.
 * Matches are looked for at the two NEAR distances (at least 1; a PNG's bytes per sample and
 * per pixel: a grey or flat area, a gradient) at every position, and with MODE
 * DEFLATE_FAST_HASH (or true) at the last position that began with the same 4 bytes
 * (slower, and smaller on other repetition); with DEFLATE_FAST_LITERALS not at all. The
 * last block final when FINAL, else the stream ends on a byte as zlib's sync flush ends it
 * (an empty stored block), ready to be followed by another. Returns the bytes written. */
size_t deflate_fast(deflate_fast_work *work, const uint8_t *data, size_t len,
                    const size_t near[2], int mode, bool final, uint8_t *out);

#endif
