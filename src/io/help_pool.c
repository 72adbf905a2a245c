/* help_pool.h: the jobs under way in a list under one lock. */
#include "help_pool.h"

#include <pthread.h>

#include "parallel.h"

static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helpers_done = PTHREAD_COND_INITIALIZER;
static help_job *open_jobs;

bool help_pool_help(void)
{
    pthread_mutex_lock(&open_mu);
    help_job *j = open_jobs;
    while (j && !j->open(j))
        j = j->link;
    if (j)
        j->helpers++;
    pthread_mutex_unlock(&open_mu);
    if (!j)
        return false;
    j->piece(j);   /* one piece: the helper's own work may be waiting */
    pthread_mutex_lock(&open_mu);
    j->helpers--;
    pthread_cond_broadcast(&helpers_done);
    pthread_mutex_unlock(&open_mu);
    return true;
}

void help_pool_run(help_job *j, int workers, void (*fn)(void *j, int worker))
{
    pthread_mutex_lock(&open_mu);
    j->helpers = 0;
    j->link = open_jobs;
    open_jobs = j;
    pthread_mutex_unlock(&open_mu);
    parallel_run(workers, fn, j);
    pthread_mutex_lock(&open_mu);
    help_job **at = &open_jobs;
    while (*at != j)
        at = &(*at)->link;
    *at = j->link;
    while (j->helpers > 0)
        pthread_cond_wait(&helpers_done, &open_mu);
    pthread_mutex_unlock(&open_mu);
}
