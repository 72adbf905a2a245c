/* The fenced read-back of the GPU layer, for every reader (batch export, libhdrtone, the
 * viewer): the copy of a tone-mapped texture or of a buffer (the frame's analysis) into a
 * buffer of a ring is queued behind the frame's passes with a fence, and collected later, by
 * a poll that never waits or by a wait, so neither the CPU waits for the GPU (it prepares
 * the next frame meanwhile) nor the GPU for the CPU. */
#ifndef HT_READBACK_H
#define HT_READBACK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gpu_readback gpu_readback;

/* A ring of SLOTS pixel-buffer objects (made on first use, grown to the largest frame). NULL
 * when out of memory. Needs a current GL context, as every call below. */
gpu_readback *gpu_readback_create(int slots);
/* Accepts NULL; sets *r to NULL. Waits for nothing: pending reads are dropped. */
void gpu_readback_destroy(gpu_readback **r);

/* Queues the copy of TEXTURE (WIDTH x HEIGHT, RGBA8 when BITS is 8, RGBA16 when 16) as RGB
 * rows (top row first) into a free slot and returns the slot, or -1 (reason in err) when
 * every slot holds a read not yet finished. */
int gpu_readback_start(gpu_readback *r, unsigned texture, int width, int height, int bits,
                       char *err, size_t errlen);

/* Queues the copy of the first BYTES bytes of the buffer BUFFER into a free slot and returns
 * the slot, or -1 (reason in err) when every slot holds a read not yet finished. */
int gpu_readback_start_buffer(gpu_readback *r, unsigned buffer, size_t bytes, char *err,
                              size_t errlen);

/* Whether SLOT's copy is complete, without waiting (false for a slot with no read). */
bool gpu_readback_ready(gpu_readback *r, int slot);

/* Drops SLOT's read, complete or not (no wait): the slot is free again. */
void gpu_readback_cancel(gpu_readback *r, int slot);

/* Waits for SLOT's copy to be complete, keeping it for gpu_readback_finish. False for a slot
 * with no read, or when the wait failed. */
bool gpu_readback_wait(gpu_readback *r, int slot);

/* Waits for SLOT's copy (none once gpu_readback_ready said so), writes what it copied (a
 * texture's width*height*3 samples, bytes or uint16_t for 16 bits; a buffer's bytes) to OUT,
 * and frees the slot. False (reason in err) for a slot with no read. */
bool gpu_readback_finish(gpu_readback *r, int slot, void *out, char *err, size_t errlen);

#endif
