/* The gpu layer's fenced read-back (readback.h), which batch export, libhdrtone and the
 * viewer share: a buffer's bytes and a texture's RGB rows come back exactly; the poll never
 * waits and turns true once the GPU is done; a full ring refuses a read with a reason, a
 * cancelled slot is free again, and a slot with no read is refused. */
#include <string.h>

#include <glad/gl.h>

#include "readback.h"
#include "testutil.h"

enum { SLOTS = 2, BYTES = 4099, W = 5, H = 3 };

/* A buffer of BYTES bytes, byte i = (i * 7 + SEED) & 255. */
static unsigned make_buffer(unsigned seed, unsigned char *want)
{
    unsigned b;
    for (int i = 0; i < BYTES; i++)
        want[i] = (unsigned char)(i * 7 + seed);
    glGenBuffers(1, &b);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
    glBufferData(GL_SHADER_STORAGE_BUFFER, BYTES, want, GL_STATIC_DRAW);
    return b;
}

static void check_buffers(gpu_readback *r)
{
    char err[256];
    unsigned char want[2][BYTES], got[BYTES];
    unsigned buf[2] = {make_buffer(1, want[0]), make_buffer(99, want[1])};
    int a = gpu_readback_start_buffer(r, buf[0], BYTES, err, sizeof err);
    int b = gpu_readback_start_buffer(r, buf[1], BYTES, err, sizeof err);
    CHECK(a >= 0 && b >= 0 && a != b, "two slots: %d, %d (%s)", a, b, err);
    err[0] = '\0';
    CHECK(gpu_readback_start_buffer(r, buf[0], BYTES, err, sizeof err) == -1 &&
              strstr(err, "in use"),
          "a full ring: '%s'", err);
    glFinish();
    CHECK(gpu_readback_ready(r, a) && gpu_readback_ready(r, b), "not ready after glFinish");
    CHECK(gpu_readback_finish(r, b, got, err, sizeof err) && memcmp(got, want[1], BYTES) == 0,
          "buffer 2's bytes (%s)", err);
    CHECK(!gpu_readback_ready(r, b), "a collected slot still ready");
    CHECK(!gpu_readback_finish(r, b, got, err, sizeof err) && strstr(err, "holds no read"),
          "a slot with no read: '%s'", err);
    gpu_readback_cancel(r, a);
    int c = gpu_readback_start_buffer(r, buf[0], BYTES, err, sizeof err);
    CHECK(c >= 0, "the cancelled slot is not free (%s)", err);
    CHECK(gpu_readback_finish(r, c, got, err, sizeof err) && memcmp(got, want[0], BYTES) == 0,
          "buffer 1's bytes after a wait (%s)", err);
    glDeleteBuffers(2, buf);
}

static void check_texture(gpu_readback *r)
{
    char err[256];
    unsigned char rgba[W * H * 4], got[W * H * 3];
    for (int i = 0; i < W * H * 4; i++)
        rgba[i] = (unsigned char)(i * 13 + 5);
    unsigned tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    int s = gpu_readback_start(r, tex, W, H, 8, err, sizeof err);
    CHECK(s >= 0, "texture read: %s", err);
    CHECK(gpu_readback_finish(r, s, got, err, sizeof err), "texture finish: %s", err);
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 3; c++)   /* RGB rows, odd width, no padding, alpha dropped */
            CHECK_EQ(got[3 * i + c], rgba[4 * i + c]);
    glDeleteTextures(1, &tex);
}

int main(void)
{
    test_require_gl();
    gpu_readback *r = gpu_readback_create(SLOTS);
    CHECK(r != NULL, "gpu_readback_create");
    if (r) {
        check_buffers(r);
        check_texture(r);
    }
    gpu_readback_destroy(&r);
    CHECK(r == NULL, "destroy sets the pointer to NULL");
    gpu_readback_destroy(&r);   /* accepts NULL */
    return test_finish("test_readback");
}
