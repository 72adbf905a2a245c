/* hdrtone bench --export FILE...: the export pipeline timed stage by stage. */
#ifndef HT_BENCH_EXPORT_H
#define HT_BENCH_EXPORT_H

#include "backend.h"
#include "options.h"

/* Exports FILES[0..N) as `export` would with BE and O (format, depth, quality, jobs) into
 * a temporary folder (a stream format into /dev/null), removes the outputs, and prints on
 * stdout the frames per second and, per stage, the time per frame and the busy fraction of
 * its threads (JSON with o->json). Returns export's status (2: usage). */
int bench_export(cmd_backend *be, const ht_options *o, char **files, int n);

#endif
