/* Textures and buffers of the GPU layer that follow what they must hold: each recreate keeps
 * the object while its size and format stay and makes it anew when they change (libplacebo's
 * pl_tex_recreate, mpv's ra_tex_resize). */
#ifndef HT_GPU_RESOURCE_H
#define HT_GPU_RESOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* A texture and what it was made as (all zero: none). */
typedef struct gpu_tex {
    unsigned id;
    int width, height;
    unsigned format;   /* GL internal format, e.g. GL_RGBA8 */
    int samples;       /* 1: GL_TEXTURE_2D, filters NEAREST; > 1: GL_TEXTURE_2D_MULTISAMPLE with
                          fixed sample locations (a flat region resolves to exactly its value) */
} gpu_tex;

/* Makes *T a WIDTH x HEIGHT texture of FORMAT and SAMPLES: keeps it when it already is one,
 * else deletes it and makes a new one (contents undefined). Leaves it bound to its target on
 * the active texture unit. True when it made a new one. */
bool gpu_tex_recreate(gpu_tex *t, int width, int height, unsigned format, int samples);
/* Deletes the texture; *T becomes all zero. */
void gpu_tex_destroy(gpu_tex *t);

/* A buffer and the bytes of its storage (all zero: none). */
typedef struct gpu_buf {
    unsigned id;
    size_t size;
} gpu_buf;

/* Makes *B a buffer of at least SIZE bytes: keeps it when it holds enough (buffers never
 * shrink), else gives it new storage of SIZE bytes under the same name (contents undefined);
 * creates it when it has none. Leaves it bound to GL_SHADER_STORAGE_BUFFER. True when it gave
 * it new storage. */
bool gpu_buf_recreate(gpu_buf *b, size_t size);
/* The same bound to TARGET with the usage hint USAGE (GL_STREAM_READ for a read-back). */
bool gpu_buf_recreate_as(gpu_buf *b, unsigned target, size_t size, unsigned usage);
/* Deletes the buffer; *B becomes all zero. */
void gpu_buf_destroy(gpu_buf *b);

#endif
