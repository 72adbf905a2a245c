/* export's linear output (hdr, pfm): the CPU reference's values before the display encoding,
 * as Radiance's pcond stores them. */
#ifndef HT_EXPORT_LINEAR_H
#define HT_EXPORT_LINEAR_H

#include "options.h"

/* Tone-maps INPUTS[i] into OUTPUTS[i] ("-": standard output) for i < N with the CPU
 * reference (tonemap_cpu_apply_linear), in o->format (hdr with pcond's EXPOSURE line,
 * tonemap_exposure_pcond; or pfm), one input after the other; files written atomically.
 * Returns 0 when every input was exported, 1 otherwise (each failure reported on stderr,
 * naming the file). */
int export_linear(const ht_options *o, const char **inputs, const char **outputs, int n);

#endif
