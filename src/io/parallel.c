#include "parallel.h"

#include <pthread.h>
#include <stdbool.h>

typedef struct parallel_worker {
    void (*fn)(void *ctx, int worker);
    void *ctx;
    int worker;
} parallel_worker;

static void *worker_main(void *arg)
{
    parallel_worker *w = arg;
    w->fn(w->ctx, w->worker);
    return NULL;
}

void parallel_run(int n, void (*fn)(void *ctx, int worker), void *ctx)
{
    pthread_t tid[PARALLEL_MAX_WORKERS];
    parallel_worker w[PARALLEL_MAX_WORKERS];
    bool started[PARALLEL_MAX_WORKERS] = {false};
    n = n < 1 ? 1 : n > PARALLEL_MAX_WORKERS ? PARALLEL_MAX_WORKERS : n;
    for (int i = 1; i < n; i++) {
        w[i] = (parallel_worker){fn, ctx, i};
        started[i] = pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0;
    }
    fn(ctx, 0);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            fn(ctx, i);
    }
}
