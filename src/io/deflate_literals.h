/* Deflate (RFC 1951) of literals alone: each block's bytes Huffman-coded by their own counts,
 * no matches searched. Several times faster than libdeflate's level 1 and, on data whose
 * matches save little (a 16-bit PNG's noisy low bytes), nearly as small; zlib_stripes takes
 * it for a piece when a sample says so. */
#ifndef HT_DEFLATE_LITERALS_H
#define HT_DEFLATE_LITERALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes deflate_literals writes for LEN bytes. */
size_t deflate_literals_bound(size_t len);

/* DATA's LEN bytes as dynamic Huffman blocks of literals into OUT (deflate_literals_bound
 * bytes of room); the last block final when FINAL, else the stream ends on a byte as zlib's
 * sync flush ends it (an empty stored block), ready to be followed by another. Returns the
 * bytes written. */
size_t deflate_literals(const uint8_t *data, size_t len, bool final, uint8_t *out);

/* The bytes one literal block of DATA's LEN bytes would take (its header counted roughly). */
size_t deflate_literals_estimate(const uint8_t *data, size_t len);

#endif
