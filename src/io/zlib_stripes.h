/* One zlib stream (RFC 1950) made of pieces compressed independently on several threads, as
 * pigz does: each piece a libdeflate raw deflate stream, all but the last turned into a
 * non-final one ending on a byte (the last block's BFINAL bit cleared, an empty stored block
 * after it, as zlib's Z_SYNC_FLUSH ends), joined, with the Adler-32 of the whole. Any
 * inflater reads it. The pieces depend on the caller's split only, never on the threads, so
 * the bytes are the same on any machine. */
#ifndef HT_ZLIB_STRIPES_H
#define HT_ZLIB_STRIPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes piece K's LEN bytes (uncompressed) into OUT; called on any thread. */
typedef void (*zlib_piece_fn)(void *ctx, int k, uint8_t *out, size_t len);

/* The zlib stream of PIECES pieces of PIECE_LEN[k] bytes each (FILL makes them) at libdeflate
 * LEVEL, on THREADS threads (0: one per online CPU), into *Z (malloc'd, *ZLEN bytes). With
 * LITERALS, a piece whose first 64 KiB libdeflate shrinks hardly more than Huffman codes
 * alone would is written as literals alone (deflate_literals.h: several times faster, at
 * most ~5 % larger); the choice depends on the bytes only. False with the reason in err (out
 * of memory). */
bool zlib_stripes(int pieces, const size_t *piece_len, zlib_piece_fn fill, void *ctx,
                  int level, bool literals, int threads, uint8_t **z, size_t *zlen, char *err,
                  size_t errlen);

/* Compresses pieces of a zlib_stripes call under way on another thread, if one has pieces not
 * yet taken (an idle batch worker's help: the last frames' encodes then end on every core,
 * whatever threads they started with). False when there was none. */
bool zlib_stripes_help(void);

/* Where a raw deflate stream DATA (LEN bytes) ends: the bit (from the first byte's least
 * significant) at which its final block's header starts and the bit after that block's end
 * code. False when it is not a complete, valid deflate stream. */
bool deflate_final_block(const uint8_t *data, size_t len, size_t *final_bit, size_t *end_bit);

#endif
