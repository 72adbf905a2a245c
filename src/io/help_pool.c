/* help_pool.h: the jobs under way in a list under one lock. */
#include "help_pool.h"

#include <limits.h>
#include <pthread.h>
#include <unistd.h>

#include "parallel.h"

static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helpers_done = PTHREAD_COND_INITIALIZER;
static help_job *open_jobs;

void help_job_init(help_job *j, int pieces, void (*run)(help_job *j, int max))
{
    j->run = run;
    j->pieces = pieces;
    atomic_init(&j->next, 0);
    atomic_init(&j->failed, false);
    j->link = NULL;
    j->helpers = 0;
}

int help_pool_take(help_job *j, int *max)
{
    if (atomic_load(&j->failed) || *max <= 0)
        return -1;
    --*max;
    int k = atomic_fetch_add(&j->next, 1);
    return k < j->pieces ? k : -1;
}

/* Whether J has a piece left to take (under the pool's lock: atomics only). */
static bool job_open(help_job *j)
{
    return atomic_load(&j->next) < j->pieces && !atomic_load(&j->failed);
}

bool help_pool_help(void)
{
    pthread_mutex_lock(&open_mu);
    help_job *j = open_jobs;
    while (j && !job_open(j))
        j = j->link;
    if (j)
        j->helpers++;
    pthread_mutex_unlock(&open_mu);
    if (!j)
        return false;
    j->run(j, 1);   /* one piece: the helper's own work may be waiting */
    pthread_mutex_lock(&open_mu);
    j->helpers--;
    pthread_cond_broadcast(&helpers_done);
    pthread_mutex_unlock(&open_mu);
    return true;
}

static void job_worker(void *ctx, int worker)
{
    (void)worker;
    help_job *j = ctx;
    j->run(j, INT_MAX);
}

void help_pool_run(help_job *j, int threads)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long workers = threads > 0 ? threads : cpus > 0 ? cpus : 1;
    pthread_mutex_lock(&open_mu);
    j->helpers = 0;
    j->link = open_jobs;
    open_jobs = j;
    pthread_mutex_unlock(&open_mu);
    parallel_run(workers < j->pieces ? (int)workers : j->pieces, job_worker, j);
    pthread_mutex_lock(&open_mu);
    help_job **at = &open_jobs;
    while (*at != j)
        at = &(*at)->link;
    *at = j->link;
    while (j->helpers > 0)
        pthread_cond_wait(&helpers_done, &open_mu);
    pthread_mutex_unlock(&open_mu);
}
