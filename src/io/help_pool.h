/* An encode's pieces shared with idle threads: an encoder splitting a frame (PNG's deflate
 * stripes, JPEG's stripes) runs its workers through help_pool_run, and a thread with nothing
 * else to do (an idle batch worker) takes one piece of any encode under way by
 * help_pool_help: the last frames' encodes then end on every core, whatever threads they
 * started with. */
#ifndef HT_HELP_POOL_H
#define HT_HELP_POOL_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct help_job help_job;
struct help_job {
    /* Does pieces taken by help_pool_take(J, &MAX), up to MAX of them: INT_MAX on a worker,
     * 1 on a helper (whose own work may be waiting). */
    void (*run)(help_job *j, int max);
    int pieces;          /* how many; numbered 0 .. PIECES-1 */
    atomic_int next;     /* the next piece not taken */
    atomic_bool failed;  /* set by RUN when a piece fails: no piece is taken after */
    help_job *link;      /* the pool's: the next job under way */
    int helpers;         /* the pool's: help_pool_help's threads in this job */
};

/* Makes J a job of PIECES pieces done by RUN, none taken, not failed. */
void help_job_init(help_job *j, int pieces, void (*run)(help_job *j, int max));

/* The next piece of J for a RUN allowed *MAX more (counted down), or -1 when none is left,
 * *MAX is spent or J failed. */
int help_pool_take(help_job *j, int *max);

/* Runs J's RUN on THREADS threads (< 1: one per online CPU; no more than J's pieces;
 * parallel_run), J open to help_pool_help meanwhile; returns when every worker has returned
 * and no helper is left in J. */
void help_pool_run(help_job *j, int threads);

/* One piece of a job under way on another thread, if one has a piece left; false when none. */
bool help_pool_help(void);

#endif
