/* One zlib stream (RFC 1950) made of pieces compressed independently on several threads, as
 * pigz does: each piece a raw deflate stream (deflate_fast.h), all but the last non-final
 * and ending on a byte (an empty stored block after the last block, as zlib's Z_SYNC_FLUSH
 * ends), joined, with the Adler-32 of the whole. Any inflater reads it. The pieces depend
 * on the caller's split only, never on the threads, so the bytes are the same on any
 * machine. Idle threads may help with the pieces (help_pool.h). */
#ifndef HT_ZLIB_STRIPES_H
#define HT_ZLIB_STRIPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes piece K's LEN bytes (uncompressed) into OUT; called on any thread. */
typedef void (*zlib_piece_fn)(void *ctx, int k, uint8_t *out, size_t len);

/* The zlib stream of PIECES pieces of PIECE_LEN[k] bytes each (FILL makes them) by
 * deflate_fast with the near distances NEAR0 and NEAR1 (a PNG's bytes per sample and per
 * pixel), its hash taken for a piece where its first 16 KiB says it saves 5 % or more, else
 * literals alone where they cost at most 2 % more there than the near matches; on
 * THREADS threads (0: one per online CPU), into *Z (malloc'd, *ZLEN bytes). The choice
 * depends on the bytes only. False with the reason in err (out of memory). */
bool zlib_stripes(int pieces, const size_t *piece_len, zlib_piece_fn fill, void *ctx,
                  size_t near0, size_t near1, int threads, uint8_t **z, size_t *zlen,
                  char *err, size_t errlen);

/* zlib_stripes with room around the stream: *Z holds HEAD bytes (not written), the stream's
 * *ZLEN bytes, then TAIL bytes (not written): a file's bytes before and after it, put there
 * by the caller without copying the stream again. */
bool zlib_stripes_room(int pieces, const size_t *piece_len, zlib_piece_fn fill, void *ctx,
                       size_t near0, size_t near1, int threads, size_t head, size_t tail,
                       uint8_t **z, size_t *zlen, char *err, size_t errlen);

#endif
