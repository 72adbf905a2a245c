/* An encode's pieces shared with idle threads: an encoder splitting a frame (PNG's deflate
 * stripes, JPEG's stripes) runs its workers through help_pool_run, and a thread with nothing
 * else to do (an idle batch worker) takes one piece of any encode under way by
 * help_pool_help: the last frames' encodes then end on every core, whatever threads they
 * started with. */
#ifndef HT_HELP_POOL_H
#define HT_HELP_POOL_H

#include <stdbool.h>

typedef struct help_job help_job;
struct help_job {
    /* Whether a piece is left to take (called under the pool's lock: atomics only). */
    bool (*open)(help_job *j);
    /* Does at most one piece (on a helper's thread). */
    void (*piece)(help_job *j);
    help_job *link;   /* the pool's: the next job under way */
    int helpers;      /* the pool's: help_pool_help's threads in this job */
};

/* Runs FN(J, worker) for WORKERS workers (parallel_run), J open to help_pool_help meanwhile;
 * returns when every worker has returned and no helper is left in J. */
void help_pool_run(help_job *j, int workers, void (*fn)(void *j, int worker));

/* One piece of a job under way on another thread, if one has a piece left; false when none. */
bool help_pool_help(void);

#endif
