/* Frames of an image sequence decoded ahead on worker threads into a small cache, for the
 * viewer's playback (viewer_seq.c) and bench --playback: the frame asked for first, then the
 * ones after it, looping at the end. No GL calls of its own (the upload ring's buffers are
 * made through the pipeline, on the taker's thread). */
#ifndef HT_SEQ_DECODER_H
#define HT_SEQ_DECODER_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"
#include "pipeline.h"
#include "sequence.h"

typedef struct seq_decoder seq_decoder;

/* Decoder threads for playback: half the online CPUs, 2 to 8 (each decode also splits its file
 * among the cores: image_load_options.threads). */
int seq_decoder_workers(void);

/* The most frames a player of THREADS decoders holds at once, the upload ring's slots
 * (pipeline_upload_allocator): the cache's, decoding ones included, and the ones taken out
 * of it (seq_decoder.c, SEQ_WAITING and SEQ_TAKEN). */
int seq_decoder_frames(int threads);

/* Starts THREADS decoders of the frames FIRST .. FIRST + COUNT - 1 of P (seq_frames_open's,
 * missing ones included), loaded with LO (its strings are copied), from index 0 on: half_exact
 * frames come with their half floats (what the GPU uploads) and, unless LO->half_only, their
 * floats too. With PIPE, every frame's half floats are decoded into PIPE's upload ring
 * (pipeline_upload_allocator, seq_decoder_frames buffers; LO->half_alloc ignored), the first
 * frames' too: a decoder asking for a buffer not made yet waits, and seq_decoder_take(_due),
 * on PIPE's GL thread, makes it; PIPE NULL: LO->half_alloc as given. NULL with the reason in
 * err. */
seq_decoder *seq_decoder_start(pipeline *pipe, const seq_pattern *p, int first, int count,
                               const image_load_options *lo, int threads, char *err,
                               size_t errlen);

/* Outcomes of seq_decoder_take. */
enum { SEQ_TAKE_NOT_YET, SEQ_TAKE_OK, SEQ_TAKE_FAILED };

/* Takes frame index I out of the cache into *img (SEQ_TAKE_OK; the caller frees it), or its
 * load error into ERR (SEQ_TAKE_FAILED); BLOCK waits for it, else SEQ_TAKE_NOT_YET when it
 * is not decoded yet. Either way the decoders turn to I and the frames after it. */
int seq_decoder_take(seq_decoder *d, int i, bool block, hdr_image *img, char *err,
                     size_t errlen);

/* For a player on a clock: takes the latest frame of the indices FROM .. DUE (looping) that
 * is decoded (or failed) without waiting, its index in *index, as seq_decoder_take does;
 * SEQ_TAKE_NOT_YET when none is. The decoders turn to DUE, and a frame of FROM .. DUE still
 * being decoded is kept for the next call: one that lands late is shown late, not thrown
 * away (taking only DUE, a player slower to decode than its clock showed a fraction of what
 * the decoders made). */
int seq_decoder_take_due(seq_decoder *d, int from, int due, hdr_image *img, int *index,
                         char *err, size_t errlen);

/* Stops the threads (a decoder waiting for a ring buffer then decodes into the pool) and
 * frees *d (accepts NULL); sets *d to NULL. */
void seq_decoder_stop(seq_decoder **d);

#endif
