/* make_bench_exr IN.exr OUT.exr WIDTH HEIGHT piz|zip|none|dwaa
 * Writes a large half-float RGB EXR for the export benchmarks (BENCHMARKS.md): IN scaled
 * bilinearly to WIDTH x HEIGHT with faint deterministic noise (so it compresses like a photo,
 * not like flat colour), in the given compression (dwaa through OpenEXR's own writer, at its
 * default level 45: tinyexr cannot write it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyexr.h>

#include "image.h"
#include "map_write.h"

#ifdef HT_HAVE_OPENEXR
#include <ImfCRgbaFile.h>

/* Writes the planes CH (B, G, R) as half RGB with DWAA compression. */
static int write_dwaa(const char *path, float *const ch[3], int w, int h)
{
    ImfRgba *px = malloc(sizeof *px * (size_t)w * h);
    ImfHeader *hdr = ImfNewHeader();
    if (!px || !hdr)
        return 1;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        ImfFloatToHalf(ch[2][i], &px[i].r);
        ImfFloatToHalf(ch[1][i], &px[i].g);
        ImfFloatToHalf(ch[0][i], &px[i].b);
        ImfFloatToHalf(1.0f, &px[i].a);
    }
    ImfHeaderSetDataWindow(hdr, 0, 0, w - 1, h - 1);
    ImfHeaderSetDisplayWindow(hdr, 0, 0, w - 1, h - 1);
    ImfHeaderSetCompression(hdr, IMF_DWAA_COMPRESSION);
    ImfOutputFile *out = ImfOpenOutputFile(path, hdr, IMF_WRITE_RGB);
    int rc = !out || !ImfOutputSetFrameBuffer(out, px, 1, (size_t)w) ||
             !ImfOutputWritePixels(out, h);
    if (rc)
        fprintf(stderr, "%s: %s\n", path, ImfErrorMessage());
    if (out)
        ImfCloseOutputFile(out);
    ImfDeleteHeader(hdr);
    free(px);
    return rc;
}
#endif

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s IN.exr OUT.exr WIDTH HEIGHT piz|zip|none|dwaa\n", argv[0]);
        return 2;
    }
    char err[HT_ERR_MAX];
    hdr_image in = {0};
    if (!image_load(argv[1], NULL, &in, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int w = atoi(argv[3]), h = atoi(argv[4]);
    int comp = strcmp(argv[5], "piz") == 0    ? TINYEXR_COMPRESSIONTYPE_PIZ
               : strcmp(argv[5], "none") == 0 ? TINYEXR_COMPRESSIONTYPE_NONE
                                              : TINYEXR_COMPRESSIONTYPE_ZIP;
    if (w < 1 || h < 1) {
        fprintf(stderr, "bad size\n");
        return 2;
    }
    float *ch[3];
    for (int c = 0; c < 3; c++)
        if (!(ch[c] = malloc(sizeof(float) * (size_t)w * h)))
            return 1;
    unsigned s = 12345;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float fx = (x + 0.5f) * in.width / w - 0.5f, fy = (y + 0.5f) * in.height / h - 0.5f;
            int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
            float ax = fx - x0, ay = fy - y0;
            int xa = x0 < 0 ? 0 : x0, ya = y0 < 0 ? 0 : y0;
            int xb = x0 + 1 >= in.width ? in.width - 1 : x0 + 1, yb = y0 + 1 >= in.height ? in.height - 1 : y0 + 1;
            s ^= s << 13, s ^= s >> 17, s ^= s << 5;
            float noise = 1.0f + 0.02f * ((s >> 8) / 16777216.0f - 0.5f);
            for (int c = 0; c < 3; c++) {
                const float *p = in.rgba + c;
                float v = (1 - ay) * ((1 - ax) * p[4 * ((size_t)ya * in.width + xa)] + ax * p[4 * ((size_t)ya * in.width + xb)]) +
                          ay * ((1 - ax) * p[4 * ((size_t)yb * in.width + xa)] + ax * p[4 * ((size_t)yb * in.width + xb)]);
                ch[2 - c][(size_t)y * w + x] = v * noise;   /* stored B, G, R */
            }
        }
#ifdef HT_HAVE_OPENEXR
    if (strcmp(argv[5], "dwaa") == 0)
        return write_dwaa(argv[2], ch, w, h);
#endif
    const char *names[3] = {"B", "G", "R"};
    if (!exr_write_planes(argv[2], (const float *const *)ch, names, 3, w, h, true, comp, err,
                          sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (int c = 0; c < 3; c++)
        free(ch[c]);
    image_free(&in);
    return 0;
}
