/* Where an export's encode time goes, term by term (bench --export --json's
 * "encode_terms_ms_per_frame"): each term's thread CPU time and wall time, summed over every
 * thread of the process that ran it (a PNG's stripes run on several). Process-wide totals,
 * reset by the caller before what it measures (one batch at a time). */
#ifndef HT_ENCODE_TERMS_H
#define HT_ENCODE_TERMS_H

#include <stdint.h>

#define ENCODE_TERMS(X)                                                                   \
    X(light)     /* the output's tags: an HDR output's light levels (cLLi) most of it */ \
    X(filter)    /* a PNG stripe's rows filtered (16-bit: to big-endian too) */            \
    X(adler)     /* a stripe's Adler-32 */                                                 \
    X(deflate)   /* a stripe's deflate (deflate_fast) */                                   \
    X(copy)      /* a stripe's stream out of its thread's buffer */                        \
    X(join)      /* the stripes joined into one zlib stream */                             \
    X(assemble)  /* the PNG's chunks around it */                                          \
    X(uhdr)      /* an Ultra HDR JPEG's whole encode (encode_ultrahdr) */                  \
    X(write)     /* the file written (file_write_atomic: write, fsync, rename) */
#define ENCODE_TERM_ENUM_(n) ENCODE_TERM_##n,
enum { ENCODE_TERMS(ENCODE_TERM_ENUM_) ENCODE_TERM_COUNT };
#undef ENCODE_TERM_ENUM_
extern const char *const encode_term_names[ENCODE_TERM_COUNT];

/* A moment on the calling thread: its CPU clock and the monotonic clock, ns. */
typedef struct encode_mark {
    uint64_t cpu, wall;
} encode_mark;

encode_mark encode_mark_now(void);

/* Adds the time since SINCE (a mark of this thread) to TERM; returns now's mark, the next
 * term's start. */
encode_mark encode_term_add(int term, encode_mark since);

/* Zeroes every term. */
void encode_terms_reset(void);

/* Each term's seconds so far: CPU and wall. */
void encode_terms_read(double cpu_s[ENCODE_TERM_COUNT], double wall_s[ENCODE_TERM_COUNT]);

#endif
