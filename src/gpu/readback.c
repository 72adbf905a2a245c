#include "readback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gpu_resource.h"

typedef struct slot {
    gpu_buf pbo;        /* GL_PIXEL_PACK_BUFFER, GL_STREAM_READ: in memory the CPU maps fast */
    GLsync fence;       /* non-NULL: a read is pending */
    size_t bytes;
} slot;

struct gpu_readback {
    int n;
    slot *slots;
};

gpu_readback *gpu_readback_create(int slots)
{
    gpu_readback *r = calloc(1, sizeof *r);
    if (!r || !(r->slots = calloc((size_t)(slots > 0 ? slots : 1), sizeof *r->slots))) {
        free(r);
        return NULL;
    }
    r->n = slots > 0 ? slots : 1;
    return r;
}

void gpu_readback_destroy(gpu_readback **rp)
{
    if (!rp || !*rp)
        return;
    gpu_readback *r = *rp;
    for (int i = 0; i < r->n; i++) {
        if (r->slots[i].fence)
            glDeleteSync(r->slots[i].fence);
        gpu_buf_destroy(&r->slots[i].pbo);
    }
    free(r->slots);
    free(r);
    *rp = NULL;
}

/* A free slot with room for BYTES, its buffer bound to GL_PIXEL_PACK_BUFFER; -1 (reason in
 * err) when there is none. */
static int take_slot(gpu_readback *r, size_t bytes, char *err, size_t errlen)
{
    int i = 0;
    while (i < r->n && r->slots[i].fence)
        i++;
    if (i == r->n) {
        snprintf(err, errlen, "all %d read-back slots are in use", r->n);
        return -1;
    }
    r->slots[i].bytes = bytes;
    gpu_buf_recreate_as(&r->slots[i].pbo, GL_PIXEL_PACK_BUFFER, bytes, GL_STREAM_READ);
    return i;
}

/* Fences SLOT's copy, queued just before. */
static void fence_slot(slot *s)
{
    s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();   /* the fence must reach the GPU, or a wait or poll on it could never end */
}

int gpu_readback_start(gpu_readback *r, unsigned texture, int width, int height, int bits,
                       char *err, size_t errlen)
{
    int i = take_slot(r, (size_t)width * height * 3 * (bits == 16 ? 2 : 1), err, errlen);
    if (i < 0)
        return -1;
    glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB, bits == 16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE,
                  NULL);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    fence_slot(&r->slots[i]);
    return i;
}

int gpu_readback_start_buffer(gpu_readback *r, unsigned buffer, size_t bytes, char *err,
                              size_t errlen)
{
    int i = take_slot(r, bytes, err, errlen);
    if (i < 0)
        return -1;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, r->slots[i].pbo.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    fence_slot(&r->slots[i]);
    return i;
}

bool gpu_readback_ready(gpu_readback *r, int i)
{
    if (i < 0 || i >= r->n || !r->slots[i].fence)
        return false;
    GLenum st = glClientWaitSync(r->slots[i].fence, 0, 0);
    return st == GL_ALREADY_SIGNALED || st == GL_CONDITION_SATISFIED;
}

void gpu_readback_cancel(gpu_readback *r, int i)
{
    if (i < 0 || i >= r->n || !r->slots[i].fence)
        return;
    glDeleteSync(r->slots[i].fence);
    r->slots[i].fence = NULL;
}

bool gpu_readback_wait(gpu_readback *r, int i)
{
    if (i < 0 || i >= r->n || !r->slots[i].fence)
        return false;
    GLenum st;
    do
        st = glClientWaitSync(r->slots[i].fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u);
    while (st == GL_TIMEOUT_EXPIRED);
    return st != GL_WAIT_FAILED;
}

bool gpu_readback_finish(gpu_readback *r, int i, void *out, char *err, size_t errlen)
{
    if (i < 0 || i >= r->n || !r->slots[i].fence) {
        snprintf(err, errlen, "read-back slot %d holds no read", i);
        return false;
    }
    slot *s = &r->slots[i];
    bool waited = gpu_readback_wait(r, i);
    glDeleteSync(s->fence);
    s->fence = NULL;
    if (!waited) {
        snprintf(err, errlen, "waiting for the GPU failed");
        return false;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo.id);
    const void *px = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)s->bytes,
                                      GL_MAP_READ_BIT);
    bool ok = px != NULL;
    if (ok)
        memcpy(out, px, s->bytes);
    else
        snprintf(err, errlen, "cannot map the read-back buffer");
    if (px)
        glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return ok;
}
