/* The upload ring: pixel-buffer objects with immutable storage, mapped once for good
 * (GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT), that decoder threads write half floats into.
 * A frame's upload is then glTexSubImage2D from the buffer (a DMA), and the GL thread copies
 * nothing; before, it copied 66 MB a 4K frame into a freshly mapped buffer (16-22 ms a frame
 * on the lent H200 machine: BENCHMARKS.md).
 *
 * The storage is asked with GL_MAP_READ_BIT and GL_CLIENT_STORAGE_BIT: drivers then place it
 * in cached system memory. A write-combined placement would make OpenEXR's writes (one
 * channel at a time, two bytes in every eight) partial-line writes, far slower than to cached
 * memory. */
#include "upload_ring.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <glad/gl.h>

#ifndef GL_MAP_PERSISTENT_BIT
#define GL_MAP_PERSISTENT_BIT 0x0040
#define GL_MAP_COHERENT_BIT 0x0080
#define GL_CLIENT_STORAGE_BIT 0x0200
#endif

/* glBufferStorage (GL 4.4, GL_ARB_buffer_storage): not in the GL 4.3 loader, looked up. */
typedef void (*buffer_storage_fn)(GLenum target, GLsizeiptr size, const void *data,
                                  GLbitfield flags);

/* A slot: free, or out (taken by a decoder, held by an image), and its upload's fence. */
typedef struct ring_slot {
    GLuint pbo;
    void *map;
    bool out;      /* handed out by get and not yet put back */
    GLsync fence;  /* an upload from it that may still be running (GL thread only) */
} ring_slot;

struct upload_ring {
    pthread_mutex_t mu;  /* guards everything below but the fences */
    pthread_cond_t made; /* the buffers were made, or will not be */
    void (*notify)(void *ctx); /* upload_ring_set_notify's */
    void *notify_ctx;
    size_t wanted;       /* with no buffers: the bytes a waiting decoder asked for */
    int wants;           /* buffers asked for by waiting decoders, not yet made */
    image_allocator alloc;
    int cap;             /* slots made at most */
    int n;               /* slots made (0: none yet, or no buffer storage) */
    size_t bytes;        /* of each slot */
    bool unsupported;    /* the driver has no buffer storage */
    unsigned long direct; /* uploads from slots (GL thread) */
    ring_slot *slots;    /* cap entries */
};

static void *ring_get(void *ctx, size_t bytes)
{
    upload_ring *r = ctx;
    void *p = NULL;
    bool asked = false;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        for (int i = 0; i < r->n && bytes == r->bytes && !p; i++)
            if (r->slots[i].map && !r->slots[i].out && !r->slots[i].fence) {
                r->slots[i].out = true;
                p = r->slots[i].map;
            }
        /* None free but room for one more: ask the GL thread for it (outside the lock, which
         * it takes to make it) and wait, rather than decode into the pool for the GL thread
         * to copy. Made one at a time as asked, so that the first frames' decodes wait for
         * one buffer each, not for the whole ring (~17 ms a 4K frame's on an H200 host). */
        if (p && asked && r->wants > 0)
            r->wants--;   /* a slot came free meanwhile: the one asked for is not needed */
        if (p || !r->notify || r->unsupported || r->n >= r->cap || (r->n && bytes != r->bytes))
            break;
        if (asked && r->wants > 0) {   /* asked, not yet made (or made and taken: ask again) */
            pthread_cond_wait(&r->made, &r->mu);
            continue;
        }
        void (*notify)(void *) = r->notify;
        void *nctx = r->notify_ctx;
        r->wanted = r->n ? r->bytes : r->wanted ? r->wanted : bytes;
        r->wants++;
        asked = true;
        pthread_mutex_unlock(&r->mu);
        notify(nctx);
        pthread_mutex_lock(&r->mu);
    }
    pthread_mutex_unlock(&r->mu);
    return p;
}

/* Slot holding P, or -1; under the lock. */
static int find(const upload_ring *r, const void *p)
{
    for (int i = 0; p && i < r->n; i++)
        if (r->slots[i].map == p)
            return i;
    return -1;
}

static void ring_put(void *ctx, void *p)
{
    upload_ring *r = ctx;
    pthread_mutex_lock(&r->mu);
    int i = find(r, p);
    if (i >= 0)
        r->slots[i].out = false; /* free once its fence, if any, has signalled */
    pthread_cond_broadcast(&r->made);   /* a decoder waiting for a buffer may take it */
    pthread_mutex_unlock(&r->mu);
}

upload_ring *upload_ring_create(int slots)
{
    upload_ring *r = calloc(1, sizeof *r);
    if (!r || !(r->slots = calloc((size_t)(slots > 0 ? slots : 1), sizeof *r->slots))) {
        free(r);
        return NULL;
    }
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->made, NULL);
    r->cap = slots > 0 ? slots : 1;
    r->alloc = (image_allocator){ring_get, ring_put, r};
    return r;
}

const image_allocator *upload_ring_allocator(upload_ring *r)
{
    return r ? &r->alloc : NULL;
}

/* Deletes the slots' buffers that no image holds; under the lock, GL thread. True when every
 * one went. */
static bool drop_buffers(upload_ring *r)
{
    bool all = true;
    for (int i = 0; i < r->n; i++) {
        ring_slot *s = &r->slots[i];
        if (s->fence) {
            glClientWaitSync(s->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u);
            glDeleteSync(s->fence);
            s->fence = NULL;
        }
        if (s->out) {
            all = false;
            continue;
        }
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, s->pbo);
        glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
        glDeleteBuffers(1, &s->pbo);
        *s = (ring_slot){0};
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (all)
        r->n = 0;
    return all;
}

void upload_ring_destroy(upload_ring **rp)
{
    if (!rp || !*rp)
        return;
    upload_ring *r = *rp;
    pthread_mutex_lock(&r->mu);
    bool all = drop_buffers(r);
    pthread_mutex_unlock(&r->mu);
    if (all) { /* else an image still points into a mapping: leak the ring rather */
        pthread_mutex_destroy(&r->mu);
        pthread_cond_destroy(&r->made);
        free(r->slots);
        free(r);
    }
    *rp = NULL;
}

/* The driver's glBufferStorage, or NULL (GL before 4.4 without GL_ARB_buffer_storage). */
static buffer_storage_fn buffer_storage(void)
{
    GLint major = 0, minor = 0, next = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    bool has = major > 4 || (major == 4 && minor >= 4);
    glGetIntegerv(GL_NUM_EXTENSIONS, &next);
    for (GLint i = 0; !has && i < next; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        has = e && strcmp(e, "GL_ARB_buffer_storage") == 0;
    }
    return has ? (buffer_storage_fn)eglGetProcAddress("glBufferStorage") : NULL;
}

/* A buffer of BYTES made with STORAGE and mapped, into *S; GL thread, no lock needed (only
 * this thread adds or drops slots). False when the driver gave none. */
static bool new_slot(buffer_storage_fn storage, size_t bytes, ring_slot *s)
{
    GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT |
                       GL_MAP_COHERENT_BIT | GL_CLIENT_STORAGE_BIT;
    *s = (ring_slot){0};
    glGenBuffers(1, &s->pbo);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, s->pbo);
    storage(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, NULL, flags);
    if (glGetError() != GL_NO_ERROR ||
        !(s->map = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)bytes, flags &
                                    ~GL_CLIENT_STORAGE_BIT))) {
        glDeleteBuffers(1, &s->pbo);
        *s = (ring_slot){0};
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    return s->map != NULL;
}

/* Adds slot S of BYTES; under the lock, R not full. */
static void add_slot(upload_ring *r, ring_slot s, size_t bytes)
{
    r->slots[r->n] = s;
    /* The frames decoded before the ring existed left their buffers in the pool: the next
     * ones come from the ring, those would only hold memory (a batch's peak). */
    if (r->n++ == 0)
        image_pool_drop(bytes);
    r->bytes = bytes;
}

/* Makes one more slot for frames of BYTES (the ring's size, or any when it has none) with
 * STORAGE; under the lock, GL thread, R not full. False when the driver gave none. */
static bool make_one(upload_ring *r, buffer_storage_fn storage, size_t bytes)
{
    ring_slot s;
    if (!new_slot(storage, bytes, &s))
        return false;
    add_slot(r, s, bytes);
    return true;
}

/* Makes the slots for frames of BYTES (fewer: what the driver gave); under the lock, GL
 * thread, none made. */
static void make_buffers(upload_ring *r, size_t bytes)
{
    buffer_storage_fn storage = buffer_storage();
    r->unsupported = !storage;
    while (storage && r->n < r->cap && make_one(r, storage, bytes))
        ;
}

void upload_ring_prepare(upload_ring *r, size_t bytes)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    for (int i = 0; i < r->n; i++) {
        ring_slot *s = &r->slots[i];
        if (s->fence && glClientWaitSync(s->fence, 0, 0) != GL_TIMEOUT_EXPIRED) {
            glDeleteSync(s->fence);
            s->fence = NULL;
            pthread_cond_broadcast(&r->made);
        }
    }
    /* A ring whose decoders ask for buffers (upload_ring_set_notify) gets them one by one. */
    if (!r->notify && !r->unsupported && bytes != r->bytes && (r->n == 0 || drop_buffers(r)))
        make_buffers(r, bytes);
    pthread_mutex_unlock(&r->mu);
}

void upload_ring_set_notify(upload_ring *r, void (*notify)(void *ctx), void *ctx)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    r->notify = notify;
    r->notify_ctx = ctx;
    pthread_cond_broadcast(&r->made);   /* without NOTIFY, waiting decoders take NULL */
    pthread_mutex_unlock(&r->mu);
}

void upload_ring_serve(upload_ring *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    buffer_storage_fn storage = r->wants && !r->unsupported ? buffer_storage() : NULL;
    r->unsupported |= r->wants && !storage;
    /* One at a time, the lock let go after each, so that a waiting decoder starts on it. */
    while (storage && r->wants > 0 && r->n < r->cap) {
        if (!make_one(r, storage, r->wanted)) {
            r->unsupported = r->n == 0;   /* none made: the decoders use the pool */
            break;
        }
        r->wants--;
        pthread_cond_broadcast(&r->made);
        pthread_mutex_unlock(&r->mu);
        pthread_mutex_lock(&r->mu);
    }
    r->wants = 0;
    pthread_cond_broadcast(&r->made);
    pthread_mutex_unlock(&r->mu);
}

bool upload_ring_make_ahead(upload_ring *r)
{
    if (!r)
        return false;
    pthread_mutex_lock(&r->mu);
    bool room = r->n > 0 && r->n < r->cap && !r->wants && !r->unsupported;
    size_t bytes = r->bytes;
    pthread_mutex_unlock(&r->mu);
    /* Made outside the lock (~20 ms): a decoder woken for a buffer takes it meanwhile. Held
     * through the making, it starved the first frame's decoder 144-192 ms on the H200
     * machine (BENCHMARKS.md, "Short PIZ batches, every round"). */
    buffer_storage_fn storage = room ? buffer_storage() : NULL;
    ring_slot s;
    if (!storage || !new_slot(storage, bytes, &s))
        return false;
    pthread_mutex_lock(&r->mu);
    add_slot(r, s, bytes);   /* still room: only this thread adds slots */
    pthread_cond_broadcast(&r->made);
    pthread_mutex_unlock(&r->mu);
    return true;
}

bool upload_ring_bind(upload_ring *r, const void *p)
{
    if (!r)
        return false;
    pthread_mutex_lock(&r->mu);
    int i = find(r, p);
    if (i >= 0)
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, r->slots[i].pbo);
    pthread_mutex_unlock(&r->mu);
    return i >= 0;
}

void upload_ring_uploaded(upload_ring *r, const void *p)
{
    pthread_mutex_lock(&r->mu);
    int i = find(r, p);
    if (i >= 0 && !r->slots[i].fence)
        r->slots[i].fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    r->direct += i >= 0;
    pthread_mutex_unlock(&r->mu);
}

unsigned long upload_ring_direct(const upload_ring *r)
{
    return r ? r->direct : 0;
}
