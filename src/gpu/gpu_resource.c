#include "gpu_resource.h"

#include <glad/gl.h>

bool gpu_tex_recreate(gpu_tex *t, int width, int height, unsigned format, int samples)
{
    GLenum target = samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D;
    if (t->id && t->width == width && t->height == height && t->format == format &&
        t->samples == samples) {
        glBindTexture(target, t->id);
        return false;
    }
    gpu_tex_destroy(t);
    glGenTextures(1, &t->id);
    glBindTexture(target, t->id);
    if (samples > 1) {
        glTexStorage2DMultisample(target, samples, format, width, height, GL_TRUE);
    } else {
        glTexStorage2D(target, 1, format, width, height);
        glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    *t = (gpu_tex){t->id, width, height, format, samples};
    return true;
}

void gpu_tex_destroy(gpu_tex *t)
{
    if (t->id)
        glDeleteTextures(1, &t->id);
    *t = (gpu_tex){0};
}

bool gpu_buf_recreate_as(gpu_buf *b, unsigned target, size_t size, unsigned usage)
{
    bool fresh = !b->id;
    if (fresh)
        glGenBuffers(1, &b->id);
    glBindBuffer(target, b->id);
    if (!fresh && size <= b->size)
        return false;
    glBufferData(target, (GLsizeiptr)size, NULL, usage);
    b->size = size;
    return true;
}

bool gpu_buf_recreate(gpu_buf *b, size_t size)
{
    return gpu_buf_recreate_as(b, GL_SHADER_STORAGE_BUFFER, size, GL_DYNAMIC_COPY);
}

void gpu_buf_destroy(gpu_buf *b)
{
    if (b->id)
        glDeleteBuffers(1, &b->id);
    *b = (gpu_buf){0};
}
