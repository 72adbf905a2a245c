/* hdrtone bench --playback SEQ: the viewer's playback without a window. */
#ifndef HT_BENCH_PLAYBACK_H
#define HT_BENCH_PLAYBACK_H

#include "backend.h"
#include "options.h"

/* Plays the sequence FILES[0] (a pattern, with O's --frames, --adapt, --fps) once through as
 * the viewer does, as fast as it goes: frames decoded ahead on worker threads
 * (seq_decoder.h), each uploaded and tone-mapped with the temporal adaptation on the GPU of
 * BE's headless context (each step waited for with glFinish). Prints on stdout the frames per
 * second and per stage the time per frame (JSON with o->json). Returns 0, 1 when a frame
 * failed or there is no GPU, 2 for a usage error. */
int bench_playback(cmd_backend *be, const ht_options *o, char **files, int n);

#endif
