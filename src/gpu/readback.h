/* Asynchronous read-back of a tone-mapped texture: the copy into a pixel-buffer object is
 * queued behind the frame's passes with a fence, and collected later, so neither the CPU
 * waits for the GPU (it prepares the next frame meanwhile) nor the GPU for the CPU. */
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

/* Waits for SLOT's copy, writes its width*height*3 samples (bytes, or uint16_t for 16 bits)
 * to OUT, and frees the slot. False (reason in err) for a slot with no read. */
bool gpu_readback_finish(gpu_readback *r, int slot, void *out, char *err, size_t errlen);

#endif
