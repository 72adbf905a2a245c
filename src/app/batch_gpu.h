/* The GPU stage of a batch export, pipelined: while the CPU uploads and tone-maps frame N,
 * the GPU copies frame N-1's output into a pixel-buffer object, collected afterwards. */
#ifndef HT_BATCH_GPU_H
#define HT_BATCH_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "batch.h"
#include "options.h"

typedef struct batch_gpu batch_gpu;

/* BE's pipeline (backend_pipeline) and a read-back ring; the GL thread's time goes into
 * GL_S's BATCH_GL_upload, _passes, _readback_wait and _readback_copy (batch.h). NULL, reason
 * in err. */
batch_gpu *batch_gpu_create(cmd_backend *be, double *gl_s, char *err, size_t errlen);
/* Accepts NULL; sets *g to NULL. */
void batch_gpu_destroy(batch_gpu **g);

/* Uploads IMG (its half floats when it has them: pipeline_upload), frees IMG,
 * tone-maps it with O (o->depth 8 or 16) and queues the read-back; *slot gets its ticket for
 * batch_gpu_finish. An image in several textures is read back at once into OUT instead
 * (width*height*3 samples) and *slot is -1. An image the GPU cannot take O's options on
 * (backend_gpu_upload) is tone-mapped by the CPU reference into OUT (IMG needs its floats
 * then), *slot -1, and NOTE says why (else NOTE is ""). False, reason in err. */
bool batch_gpu_start(batch_gpu *g, const ht_options *o, hdr_image *img, void *out, int *slot,
                     char *note, size_t notelen, char *err, size_t errlen);

/* batch_gpu_start that first tone-maps IMG with SDR (an 8-bit picture's options) from the
 * same upload: an Ultra HDR JPEG's base beside the HDR rendition O asks for. Its read-back is
 * queued too (*sdr_slot, for batch_gpu_finish into width*height*3 bytes), or where the HDR
 * rendition's is not (*slot -1) made at once into SDR_OUT (*sdr_slot -1). SDR NULL:
 * batch_gpu_start. */
bool batch_gpu_start2(batch_gpu *g, const ht_options *o, const ht_options *sdr, hdr_image *img,
                      void *out, uint8_t *sdr_out, int *slot, int *sdr_slot, char *note,
                      size_t notelen, char *err, size_t errlen);

/* The upload allocator of BE's pipeline for FRAMES frames in flight
 * (pipeline_upload_allocator), for the decoders' image_load_options.half_alloc; makes the GL
 * context on the calling thread, the one that tone-maps, when there is none. A decoder asking
 * it before its buffers exist calls NOTIFY(CTX) and waits for batch_gpu_serve
 * (pipeline_upload_notify). NULL when there is no GPU (the decoders then use the pool, and
 * the GPU's failure shows when tone-mapping). */
const image_allocator *batch_gpu_allocator(cmd_backend *be, int frames,
                                           void (*notify)(void *ctx), void *ctx);

/* What batch_gpu_serve does with the upload buffers. */
typedef enum {
    BATCH_RING_SERVE,   /* makes those the decoders wait for (pipeline_upload_serve) */
    BATCH_RING_AHEAD,   /* one more before it is asked for (pipeline_upload_make_ahead) */
    BATCH_RING_STOP     /* no more waiting, NOTIFY forgotten (before the batch's end) */
} batch_ring_op;

/* GL thread: OP on BE's upload buffers; whether BATCH_RING_AHEAD made one. */
bool batch_gpu_serve(cmd_backend *be, batch_ring_op op);

/* The uploads that copied nothing so far (pipeline_direct_uploads); 0 for NULL. */
unsigned long batch_gpu_direct_uploads(const batch_gpu *g);

/* Waits for the read-back SLOT and writes its pixels to OUT. False, reason in err. */
bool batch_gpu_finish(batch_gpu *g, int slot, void *out, char *err, size_t errlen);

#endif
