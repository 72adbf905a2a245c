/* Reused pixel buffers and the reused file buffer of each thread.
 *
 * A 4K frame's half floats (66 MB) and file (20-50 MB) are above glibc's mmap threshold: a
 * fresh malloc maps fresh pages, and the kernel faults each one in on first touch (~16,000
 * faults a 4K frame, ~190 ms of kernel time a frame on the lent GPU machine, BENCHMARKS.md). Frames
 * of a stream have one size, so a buffer given back is the next frame's buffer, its pages
 * already there. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "image_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Free buffers kept at most, and their total size: a batch holds (jobs + 2) frames at most,
 * and what it gives back is what its decoders take next. */
#define POOL_SLOTS 16
#define POOL_MAX_BYTES ((size_t)3 << 30)

/* Buffers below this come from malloc's own free lists without faults. */
#define POOL_MIN_BYTES ((size_t)1 << 20)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static struct {
    pthread_mutex_t mu;
    void *buf[POOL_SLOTS];
    size_t size[POOL_SLOTS];
    int n;
    size_t bytes;
} pool = {PTHREAD_MUTEX_INITIALIZER, {NULL}, {0}, 0, 0};

/* Asks the kernel for REGION's pages in one call (huge pages where it can) instead of one
 * fault per 4 KiB page on first touch; a kernel without these advices leaves it to the
 * faults. */
static void prefault(void *p, size_t bytes)
{
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
    if (e <= a)
        return;
    madvise((void *)a, e - a, MADV_HUGEPAGE);
    madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

void *image_pool_get(size_t bytes)
{
    if (bytes >= POOL_MIN_BYTES) {
        pthread_mutex_lock(&pool.mu);
        for (int i = pool.n - 1; i >= 0; i--)
            if (pool.size[i] == bytes) {
                void *p = pool.buf[i];
                pool.bytes -= bytes;
                pool.n--;
                pool.buf[i] = pool.buf[pool.n];
                pool.size[i] = pool.size[pool.n];
                pthread_mutex_unlock(&pool.mu);
                return p;
            }
        pthread_mutex_unlock(&pool.mu);
    }
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes >= POOL_MIN_BYTES)
        prefault(p, bytes);
    return p;
}

void image_pool_put(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes >= POOL_MIN_BYTES) {
        pthread_mutex_lock(&pool.mu);
        /* Full: the oldest goes (slot 0), the newest stays. */
        while (pool.n > 0 && (pool.n == POOL_SLOTS || pool.bytes + bytes > POOL_MAX_BYTES)) {
            free(pool.buf[0]);
            pool.bytes -= pool.size[0];
            pool.n--;
            memmove(pool.buf, pool.buf + 1, (size_t)pool.n * sizeof *pool.buf);
            memmove(pool.size, pool.size + 1, (size_t)pool.n * sizeof *pool.size);
        }
        if (bytes <= POOL_MAX_BYTES) {
            pool.buf[pool.n] = p;
            pool.size[pool.n++] = bytes;
            pool.bytes += bytes;
            p = NULL;
        }
        pthread_mutex_unlock(&pool.mu);
    }
    free(p);
}

void image_pool_drop(size_t bytes)
{
    pthread_mutex_lock(&pool.mu);
    for (int i = pool.n - 1; i >= 0; i--)
        if (pool.size[i] == bytes) {
            free(pool.buf[i]);
            pool.bytes -= bytes;
            pool.n--;
            memmove(pool.buf + i, pool.buf + i + 1, (size_t)(pool.n - i) * sizeof *pool.buf);
            memmove(pool.size + i, pool.size + i + 1, (size_t)(pool.n - i) * sizeof *pool.size);
        }
    pthread_mutex_unlock(&pool.mu);
}

/* ---- each thread's file buffer ---- */

typedef struct file_buf {
    uint8_t *p;
    size_t cap;
} file_buf;

static pthread_key_t file_key;
static pthread_once_t file_once = PTHREAD_ONCE_INIT;

static void file_buf_free(void *arg)
{
    file_buf *b = arg;
    free(b->p);
    free(b);
}

static void file_key_init(void) { pthread_key_create(&file_key, file_buf_free); }

uint8_t *image_thread_buffer(size_t bytes)
{
    pthread_once(&file_once, file_key_init);
    file_buf *b = pthread_getspecific(file_key);
    if (!b) {
        if (!(b = calloc(1, sizeof *b)))
            return NULL;
        if (pthread_setspecific(file_key, b) != 0) {
            free(b);
            return NULL;
        }
    }
    if (bytes > b->cap) {
        free(b->p);
        b->cap = 0;
        if (!(b->p = malloc(bytes)))
            return NULL;
        b->cap = bytes;
        prefault(b->p, bytes);
    }
    return b->p;
}
