/* Persistently mapped pixel-buffer objects that decoders write frames into, so that the GL
 * thread uploads a frame without copying it (BENCHMARKS.md). */
#ifndef HT_UPLOAD_RING_H
#define HT_UPLOAD_RING_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

typedef struct upload_ring upload_ring;

/* A ring of up to SLOTS buffers, made on the GL thread at the first frame's size
 * (upload_ring_prepare), handed out by its allocator to decoder threads. NULL when out of
 * memory. Creating it needs no GL. */
upload_ring *upload_ring_create(int slots);

/* Deletes the buffers and frees *R (accepts NULL; sets it to NULL). GL thread; every image
 * whose half floats came from the ring must have been freed (a slot still out is left
 * mapped, not deleted). */
void upload_ring_destroy(upload_ring **r);

/* The allocator that hands out free slots of R (image_load_options.half_alloc): its get
 * returns NULL until the buffers exist, when none is free, or for another size; any
 * thread. */
const image_allocator *upload_ring_allocator(upload_ring *r);

/* GL thread, before uploading a frame of BYTES half floats: makes the buffers for frames of
 * that size when there are none (or none of that size and none is out), with
 * glBufferStorage mapped persistently, where the driver has GL 4.4 or GL_ARB_buffer_storage
 * (else the allocator hands out nothing, and uploads copy as before); and frees the slots
 * whose upload has finished and whose image was freed. */
void upload_ring_prepare(upload_ring *r, size_t bytes);

/* Makes R's allocator, asked for a frame before R has buffers, call NOTIFY(CTX) (on the
 * decoder's thread) and wait until the GL thread has called upload_ring_serve, instead of
 * returning NULL (the frame then decoded into the pool and copied on the GL thread). NOTIFY
 * NULL: no more waiting (decoders waiting then get NULL). Any thread. */
void upload_ring_set_notify(upload_ring *r, void (*notify)(void *ctx), void *ctx);

/* GL thread: makes the buffers at the size a waiting decoder asked for (when R has none) and
 * wakes the decoders waiting for them. Accepts NULL. */
void upload_ring_serve(upload_ring *r);

/* GL thread, while it would otherwise wait: one more buffer of R's size before a decoder asks
 * for it, when R has made some, none is asked for and it has room. Whether it made one
 * (false: nothing to do now). Making a 4K frame's takes ~20 ms on an H200 host, on the GL
 * thread: made one at a time as asked, a batch's first frames each waited for theirs. */
bool upload_ring_make_ahead(upload_ring *r);

/* GL thread: when P is a slot of R, binds its buffer to GL_PIXEL_UNPACK_BUFFER and returns
 * true; the caller then uploads from offset 0 and calls upload_ring_uploaded. */
bool upload_ring_bind(upload_ring *r, const void *p);

/* GL thread: the upload from slot P has been issued; the slot is free again once the GPU has
 * read it and its image was freed. */
void upload_ring_uploaded(upload_ring *r, const void *p);

/* Uploads made from R's slots so far (0 for NULL). */
unsigned long upload_ring_direct(const upload_ring *r);

#endif
