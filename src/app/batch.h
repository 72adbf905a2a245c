/* Batch export: many inputs in one process, decoding and encoding overlapped with the GPU. */
#ifndef HT_BATCH_H
#define HT_BATCH_H

#include "options.h"

/* Tone-maps INPUTS[i] into OUTPUTS[i] for i < N, in o->format (ENCODE_AUTO: PNG; the caller
 * checks that it accepts the pixels), o->depth and o->quality, with o->jobs worker threads
 * (at least one decoder and one encoder); the main thread does the tone mapping (it owns the
 * GL context). Outputs "-" (all
 * of them) make one stream on standard output, frames in input order, all of the first
 * frame's size. Shows progress on stderr when it is a terminal. Returns 0 when every input
 * was exported, 1 otherwise (each failure reported on stderr, naming the file). */
int batch_export(const ht_options *o, const char **inputs, const char **outputs, int n);

#endif
