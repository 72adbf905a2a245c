/* Image sequences (sequence.h patterns) in export, stats and analyze, with temporal
 * adaptation (adapt.h): frames are tone-mapped in order, each with the state its earlier
 * frames left. Missing or unreadable frames are reported by number and skipped (the state
 * holds); the command goes on and exits 1 at the end. */
#ifndef HT_SEQ_CMD_H
#define HT_SEQ_CMD_H

#include <stdbool.h>

#include "backend.h"
#include "options.h"

/* True when IN names a sequence: a pattern (seq_is_pattern) that is not itself a file. */
bool seq_cmd_is_sequence(const char *in);

/* export SEQ: every frame of O's --frames (default: from the first file to the last) into
 * OUT (a pattern taking the frame number, or "-": one stream; the pattern's folder is made),
 * through batch_export_hooked with BE. O is checked and resolved as for one input
 * (o->format). Returns the exit status. */
int seq_export(cmd_backend *be, const ht_options *o, const char *seq, const char *out);

/* stats SEQ with BE: each frame's report (commands_print_stats) with the adapted curve; with
 * --json one object per line, with "frame" and "adapt" first. Returns the exit status. */
int seq_stats(cmd_backend *be, const ht_options *o, const char *seq);

/* hdrtone analyze SEQ [--frames A-B] -o DIR: each frame's analysis (adapt_frame_write) into
 * DIR/analysis.NNNNNNNNN.txt; an unreadable frame's says so. */
int cmd_analyze(int argc, char **argv);

#endif
