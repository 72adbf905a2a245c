/* Batch export: many inputs in one process, decoding and encoding overlapped with the GPU. */
#ifndef HT_BATCH_H
#define HT_BATCH_H

#include "options.h"

/* Tone-maps INPUTS[i] into the PNG OUTPUTS[i] for i < N with o->jobs worker threads (at least
 * one decoder and one encoder); the main thread does the tone mapping (it owns the GL
 * context). Shows progress on stderr when it is a terminal. Returns 0 when every input was
 * exported, 1 otherwise (each failure reported on stderr, naming the file). */
int batch_export(const ht_options *o, const char **inputs, const char **outputs, int n);

#endif
