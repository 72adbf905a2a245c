/* Fork-join work on threads: the calling thread and up to PARALLEL_MAX_WORKERS - 1 more,
 * for the loaders (image_exr.c, image_openexr.c) and the fast CPU tone mapping
 * (tonemap_fast.c). */
#ifndef HT_PARALLEL_H
#define HT_PARALLEL_H

/* The most workers parallel_run starts. */
#define PARALLEL_MAX_WORKERS 256

/* Runs FN(CTX, worker) for the workers 0..N-1 (N clamped to 1..PARALLEL_MAX_WORKERS), worker
 * 0 on the calling thread and each other on a thread of its own, all at once, and returns
 * when all have returned. A worker whose thread cannot be started runs on the calling thread
 * after worker 0: every worker runs, but not necessarily alongside the others, so FN must not
 * wait for another worker to start. */
void parallel_run(int n, void (*fn)(void *ctx, int worker), void *ctx);

#endif
