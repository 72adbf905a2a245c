/* Writes fuzz_icc's smoke-run seeds into DIR: ICC profiles made by lcms2 (sRGB, P3-D65 with a
 * parametric curve, grey gamma 2.2, and the kinds that are refused: Lab, an abstract one), and
 * small PNGs and JPEGs carrying each colour tag (iCCP, cICP, sRGB, gAMA and cHRM, APP2 in one
 * segment and in two). Made at test time from code, as make_corpus.c makes the loaders'.
 *   make_icc_corpus DIR */
#include <lcms2.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

enum { W = 5, H = 3, MAXF = 1 << 16 };

static char dir[4096];

static int save(const char *name, const uint8_t *d, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(d, 1, n, f) != n;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "make_icc_corpus: cannot write %s\n", path);
    return bad;
}

/* PROFILE's bytes into BUF (MAXF); their count, 0 when it does not fit. */
static size_t profile_bytes(cmsHPROFILE p, uint8_t *buf)
{
    cmsUInt32Number n = 0;
    if (!p || !cmsSaveProfileToMem(p, NULL, &n) || n > MAXF || !cmsSaveProfileToMem(p, buf, &n))
        n = 0;
    if (p)
        cmsCloseProfile(p);
    return n;
}

static cmsHPROFILE p3(void)
{
    static const double srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE prim = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
    cmsToneCurve *c = cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *cs[3] = {c, c, c};
    cmsHPROFILE p = c ? cmsCreateRGBProfile(&white, &prim, cs) : NULL;
    cmsFreeToneCurve(c);
    return p;
}

static cmsHPROFILE grey22(void)
{
    cmsToneCurve *c = cmsBuildGamma(NULL, 2.2);
    cmsHPROFILE p = c ? cmsCreateGrayProfile(cmsD50_xyY(), c) : NULL;
    cmsFreeToneCurve(c);
    return p;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* Appends chunk TYPE with BODY (N bytes) to OUT at *LEN. */
static void chunk(uint8_t *out, size_t *len, const char *type, const uint8_t *body, size_t n)
{
    put32(out + *len, (uint32_t)n);
    memcpy(out + *len + 4, type, 4);
    if (n)
        memcpy(out + *len + 8, body, n);
    put32(out + *len + 8 + n, libdeflate_crc32(0, out + *len + 4, n + 4));
    *len += n + 12;
}

/* A W x H PNG, grey or RGB, 8 or 16 bits, with the chunk TYPE (BODY, N bytes; NULL: none). */
static int png(const char *name, int grey, int bits, const char *type, const uint8_t *body,
               size_t n)
{
    static uint8_t out[MAXF * 2], raw[H * (1 + W * 6)], z[4096];
    size_t len = 8, rl = 0;
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    uint8_t ihdr[13] = {0, 0, 0, W, 0, 0, 0, H, (uint8_t)bits, grey ? 0 : 2, 0, 0, 0};
    chunk(out, &len, "IHDR", ihdr, 13);
    if (type)
        chunk(out, &len, type, body, n);
    for (int y = 0; y < H; y++) {
        raw[rl++] = 0;
        for (int i = 0; i < W * (grey ? 1 : 3) * bits / 8; i++)
            raw[rl++] = (uint8_t)(37 * (y * W * 3 + i) + 11);
    }
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    size_t zn = c ? libdeflate_zlib_compress(c, raw, rl, z, sizeof z) : 0;
    libdeflate_free_compressor(c);
    chunk(out, &len, "IDAT", z, zn);
    chunk(out, &len, "IEND", NULL, 0);
    return !zn || save(name, out, len);
}

/* PNG's iCCP of PROFILE into BODY; its length. */
static size_t iccp(const uint8_t *profile, size_t n, uint8_t *body)
{
    memcpy(body, "icc\0\0", 5);
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    size_t zn = c ? libdeflate_zlib_compress(c, profile, n, body + 5, MAXF - 5) : 0;
    libdeflate_free_compressor(c);
    return zn + 5;
}

/* A W x H JPEG with PROFILE in SEGMENTS APP2 segments. */
static int jpeg(const char *name, const uint8_t *profile, size_t n, int segments)
{
    static uint8_t px[W * H * 3], out[MAXF * 2];
    for (int i = 0; i < W * H * 3; i++)
        px[i] = (uint8_t)(29 * i + 3);
    tjhandle tj = tjInitCompress();
    unsigned char *jpg = NULL;
    unsigned long jn = 0;
    if (!tj || tjCompress2(tj, px, W, 0, H, TJPF_RGB, &jpg, &jn, TJSAMP_444, 90, 0) != 0) {
        fprintf(stderr, "make_icc_corpus: JPEG: %s\n", tjGetErrorStr());
        return 1;
    }
    size_t len = 2, per = (n + (size_t)segments - 1) / (size_t)segments;
    memcpy(out, jpg, 2);
    for (int s = 0; s < segments; s++) {
        size_t part = n - (size_t)s * per < per ? n - (size_t)s * per : per;
        out[len] = 0xFF, out[len + 1] = 0xE2;
        out[len + 2] = (uint8_t)((part + 16) >> 8), out[len + 3] = (uint8_t)(part + 16);
        memcpy(out + len + 4, "ICC_PROFILE\0", 12);
        out[len + 16] = (uint8_t)(s + 1), out[len + 17] = (uint8_t)segments;
        memcpy(out + len + 18, profile + (size_t)s * per, part);
        len += part + 18;
    }
    memcpy(out + len, jpg + 2, jn - 2);
    len += jn - 2;
    tjFree(jpg);
    tjDestroy(tj);
    return save(name, out, len);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_icc_corpus DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    static uint8_t prof[5][MAXF], body[MAXF];
    size_t n[5] = {profile_bytes(cmsCreate_sRGBProfile(), prof[0]), profile_bytes(p3(), prof[1]),
                   profile_bytes(grey22(), prof[2]),
                   profile_bytes(cmsCreateLab4Profile(NULL), prof[3]),
                   profile_bytes(cmsCreateBCHSWabstractProfile(9, 0, 1, 0, 0, 6504, 6504),
                                 prof[4])};
    static const char *names[5] = {"srgb.icc", "p3.icc", "grey.icc", "lab.icc", "abstract.icc"};
    int bad = 0;
    for (int i = 0; i < 5; i++)
        bad |= !n[i] || save(names[i], prof[i], n[i]);
    static const uint8_t cicp[4] = {9, 13, 0, 1}, srgb[1] = {0}, gama[4] = {0, 0, 0xB1, 0x8F};
    static const uint8_t chrm[32] = {0, 0, 0x7A, 0x26, 0, 0, 0x80, 0x84, 0, 0, 0xFA, 0,
                                     0, 0, 0x80, 0xE8, 0, 0, 0x75, 0x30, 0, 0, 0xEA, 0x60,
                                     0, 0, 0x3A, 0x98, 0, 0, 0x17, 0x70};
    bad |= png("iccp.png", 0, 8, "iCCP", body, iccp(prof[1], n[1], body));
    bad |= png("iccp16.png", 0, 16, "iCCP", body, iccp(prof[0], n[0], body));
    bad |= png("iccp_grey.png", 1, 8, "iCCP", body, iccp(prof[2], n[2], body));
    bad |= png("cicp.png", 0, 16, "cICP", cicp, 4);
    bad |= png("srgb.png", 0, 8, "sRGB", srgb, 1);
    bad |= png("gama.png", 0, 8, "gAMA", gama, 4);
    bad |= png("chrm.png", 0, 8, "cHRM", chrm, 32);
    bad |= jpeg("app2.jpg", prof[1], n[1], 1);
    bad |= jpeg("app2_split.jpg", prof[0], n[0], 2);
    return bad;
}
