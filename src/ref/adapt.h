/* Temporal adaptation of an image sequence (export/stats SEQ --adapt, docs/sequences.md).
 *
 * What adapts is the operator's own input: each frame's analysis (adapt_frame: its log
 * luminance range, log-average and the curve step's weights over its bins) moves an
 * adaptation state, blended in log space: the range ends and the log-average linearly, the
 * normalised weights as densities over log luminance, resampled onto the blended range.
 * The curve is then made from the state by the still operator's own curve step
 * (tonemap_cpu_curve). A static scene leaves the state where it is, and a scene held long
 * enough makes the state equal its analysis exactly (adapt_update snaps a state within
 * rounding of it), when the frame's output is the still image's, byte for byte.
 *
 * Frame N's state depends only on the analyses of frames <= N and the options, so the
 * analyses may be computed anywhere (hdrtone analyze writes them: adapt_frame_write) and
 * replayed in order. */
#ifndef HT_ADAPT_H
#define HT_ADAPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tonemap.h"

enum { HT_ADAPT_NONE = 0, HT_ADAPT_EXP = 1, HT_ADAPT_HUMAN = 2 };

/* --adapt, --fps, --cut-threshold. */
typedef struct adapt_params {
    int mode;          /* HT_ADAPT_* */
    double seconds;    /* HT_ADAPT_EXP: the time constant T */
    double fps;        /* frames per second: a frame lasts 1/fps */
    double cut_stops;  /* > 0: a frame whose log-average is more than this many stops (log2)
                          from the state's starts afresh (a scene cut); 0: never */
} adapt_params;

/* Parses "none", "exp:SECONDS" (SECONDS > 0) or "human" into a->mode and a->seconds. */
bool adapt_parse(const char *s, adapt_params *a, char *err, size_t errlen);

/* One frame's analysis: what the state needs of it. */
typedef struct adapt_frame {
    int frame;        /* the frame number */
    bool valid;       /* a frame with histogram samples; false (unreadable, or nothing to
                         count) leaves the state as it is */
    int bins;
    double bw_min, bw_max;   /* the histogram's range, ln cd/m^2 */
    double ln_avg;           /* mean ln Lw of the counted samples */
    double f[HT_MAX_BINS];   /* the curve step's weights (tonemap_cpu_weights) */
} adapt_frame;

/* The analysis of frame FRAME from its still analysis R (tonemap_cpu_analyze's, or the
 * GPU's read back). */
void adapt_frame_of(const tonemap_result *r, int frame, adapt_frame *f);
/* An unreadable frame's analysis: it leaves the state as it is. */
void adapt_frame_invalid(int frame, int bins, adapt_frame *f);

typedef struct adapt_state {
    bool valid;       /* has seen a valid frame */
    bool exact;       /* equals the last valid frame's analysis: its output is the still's */
    int last_frame;   /* the last valid frame (the time since it is the step's) */
    int bins;
    double bw_min, bw_max, ln_avg;
    double w[HT_MAX_BINS];   /* the weights normalised to sum 1 */
    double rate;             /* the fraction of the way the last update moved (1: reset) */
} adapt_state;

/* An empty state (the first valid frame sets it). */
void adapt_init(adapt_state *s);

/* The fraction of the way from the state to frame F that a step of DT seconds moves:
 * 1 - exp(-DT/tau), tau = T for exp:T, the eye's time constant for human (adapt.c). */
double adapt_rate(const adapt_params *a, const adapt_state *s, const adapt_frame *f, double dt);

/* Moves the state towards F (frames in increasing order; an invalid F changes nothing). */
void adapt_update(const adapt_params *a, adapt_state *s, const adapt_frame *f);

/* The frame's tone-mapping result under the state: R holds the frame's still analysis on
 * entry; unless the state is exact its range, log-average, histogram (the state's weights
 * scaled to the frame's samples, rounded) and curve become the state's. An invalid state
 * leaves R as it is. */
void adapt_result(const adapt_state *s, const tonemap_params *p, tonemap_result *r);

/* A fingerprint of what an analysis depends on (P's fields), written into analysis files
 * so that a replay with other options is refused. */
uint64_t adapt_fingerprint(const tonemap_params *p);

/* The file of frame FRAME's analysis in DIR: DIR/analysis.NNNNNNNNN.txt. False when it does
 * not fit in LEN bytes. */
bool adapt_frame_path(const char *dir, int frame, char *out, size_t len);

/* Writes F to PATH (text; every number exact) with FINGERPRINT; atomic (a temporary file
 * renamed). False with "PATH: reason" in err. */
bool adapt_frame_write(const char *path, const adapt_frame *f, uint64_t fingerprint, char *err,
                       size_t errlen);

/* Reads PATH into F; false with "PATH: reason" in err when it cannot be read, is not an
 * analysis file, or was made with another FINGERPRINT. */
bool adapt_frame_read(const char *path, adapt_frame *f, uint64_t fingerprint, char *err,
                      size_t errlen);

#endif
