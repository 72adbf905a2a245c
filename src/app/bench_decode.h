/* hdrtone bench --decode FILE...: hdrtone's decode against OpenEXR's own, file by file. */
#ifndef HT_BENCH_DECODE_H
#define HT_BENCH_DECODE_H

#include "options.h"

/* For each of FILES[0..N): hdrtone's load of it on one thread (read, validation, decode into
 * the half floats the GPU uploads, as export does) and the floor (image_exr_floor: the
 * library alone into a reused buffer) in the same run, median milliseconds and their ratio,
 * each OpenEXR decoder that can read it, and the page faults a load takes; JSON with
 * o->json. Returns 0, 1 when a file fails to load or a decoder's halves differ from the
 * others', 2 for a usage error. */
int bench_decode(const ht_options *o, char **files, int n);

/* The floor's median milliseconds for one frame of PATH (image_exr_floor on one thread, after
 * a load that validated the bytes), or -1 when PATH is no OpenEXR file hdrtone loads or the
 * library fails on it. */
double bench_decode_floor_ms(const char *path);
/* The same on THREADS of the library's (0: one per online CPU). */
double bench_decode_floor_threads_ms(const char *path, int threads);

#endif
