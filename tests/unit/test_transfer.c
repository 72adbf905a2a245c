/* HDR output below the command line (docs/hdr.md):
 *  - transfer.h's curves at the points the standards and BT.2408 name (PQ: 100, 203, 1000 and
 *    10000 cd/m^2; HLG: 1/12 -> 0.5, 1 -> 1, the system gamma at 1000 and 2000 cd/m^2, 203
 *    cd/m^2 on a 1000 cd/m^2 display at 75 % HLG) and their inverses;
 *  - tonemap_encode_unit of PQ is V x Ldmax cd/m^2; HLG's tonemap_encode_prepare is the inverse
 *    of the OOTF (a grey keeps its channels equal, a colour its ratios);
 *  - transfer_light_levels on a picture whose MaxCLL and MaxFALL are known;
 *  - out_tags: a PNG's cICP, mDCv and cLLi bytes as PNG's third edition lays them out, an iCCP
 *    whose profile inflates back, JPEG APP2 ICC markers in pieces, Radiance's PRIMARIES= line;
 *  - a PQ and an HLG PNG read back (image_load_memory) as cd/m^2 within one 16-bit step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

#include "encode.h"
#include "out_tags.h"
#include "testutil.h"
#include "tonemap.h"
#include "transfer.h"

static void curves(void)
{
    /* ST 2084: signal of 100, 203, 1000 cd/m^2 (BT.2408 table 1: 51 %, 58 %, 75 %). */
    CHECK_NEAR(transfer_pq_encode(100.0 / HT_PQ_PEAK), 0.508078, 2e-6);
    CHECK_NEAR(transfer_pq_encode(203.0 / HT_PQ_PEAK), 0.580688, 2e-6);
    CHECK_NEAR(transfer_pq_encode(1000.0 / HT_PQ_PEAK), 0.751827, 2e-6);
    CHECK_NEAR(transfer_pq_encode(1.0), 1.0, 1e-12);
    CHECK_NEAR(transfer_pq_encode(0.0), pow(HT_PQ_C1, HT_PQ_M2), 1e-15);
    CHECK_EQ(transfer_pq_decode(0.0), 0.0);
    for (double y = 1e-7; y <= 1.0; y *= 1.7)
        CHECK_NEAR(transfer_pq_decode(transfer_pq_encode(y)) / y, 1.0, 1e-9);
    /* BT.2100 HLG. */
    CHECK_NEAR(transfer_hlg_oetf(1.0 / 12.0), 0.5, 1e-12);
    CHECK_NEAR(transfer_hlg_oetf(1.0), 1.0, 1e-7);
    CHECK_NEAR(transfer_hlg_gamma(1000.0), 1.2, 1e-12);
    CHECK_NEAR(transfer_hlg_gamma(2000.0), 1.2 + 0.42 * log10(2.0), 1e-12);
    for (double e = 0.0; e <= 1.0; e += 0.03125)
        CHECK_NEAR(transfer_hlg_oetf(transfer_hlg_inverse_oetf(e)), e, 1e-8);   /* c: 8 digits */
    double lum[3] = {0.2627, 0.6780, 0.0593}, grey[3] = {0.203, 0.203, 0.203};
    double f = transfer_hlg_ootf_factor(lum, grey, 1.2, 1);
    CHECK_NEAR(transfer_hlg_oetf(0.203 * f), 0.75, 0.002);   /* BT.2408: 203 cd/m^2 at 75 % */
    double rgb[3] = {0.7496, 0.7496, 0.7496};
    transfer_hlg_to_display(lum, 1000.0, rgb);
    CHECK_NEAR(rgb[1], 203.0, 1.0);
    CHECK_NEAR(transfer_srgb_decode(transfer_srgb_encode(0.2)), 0.2, 1e-12);
}

static void encodings(void)
{
    tonemap_params p;
    tonemap_params_default(&p);
    p.transfer = HT_TRANSFER_PQ;
    p.ldmax = 1000;
    CHECK_NEAR(tonemap_encode_unit(&p, 1.0), transfer_pq_encode(0.1), 1e-15);
    CHECK_NEAR(tonemap_encode_unit(&p, 2.0), transfer_pq_encode(0.1), 1e-15);   /* clipped */
    CHECK_NEAR(tonemap_encode_unit(&p, 0.203), transfer_pq_encode(0.0203), 1e-15);
    p.transfer = HT_TRANSFER_HLG;
    p.display_space = HT_DISPLAY_SPACE_REC2020;
    double grey[3] = {0.2, 0.2, 0.2}, col[3] = {0.5, 0.1, 0.05};
    tonemap_encode_prepare(&p, grey);
    CHECK_NEAR(grey[0], pow(0.2, 1 / 1.2), 1e-12);   /* a grey: Ys = Yd^(1/gamma) */
    CHECK(grey[0] == grey[1] && grey[1] == grey[2], "grey not grey");
    tonemap_encode_prepare(&p, col);
    CHECK_NEAR(col[0] / col[1], 5.0, 1e-12);
    p.transfer = HT_TRANSFER_PQ;
    double keep[3] = {0.5, 0.1, 0.05};
    tonemap_encode_prepare(&p, keep);
    CHECK_EQ(keep[0], 0.5);
}

static void light_levels(void)
{
    /* Two pixels: PQ codes of 1000 cd/m^2 red and a 100 cd/m^2 grey. */
    uint16_t a = (uint16_t)lround(transfer_pq_encode(0.1) * 65535);
    uint16_t b = (uint16_t)lround(transfer_pq_encode(0.01) * 65535);
    uint16_t px[6] = {a, 0, 0, b, b, b};
    double lum[3] = {0.2627, 0.6780, 0.0593}, cll, fall;
    CHECK(transfer_light_levels(px, 2, HT_TRANSFER_PQ, 1000, lum, &cll, &fall), "levels");
    CHECK_NEAR(cll, 1000.0, 0.1);
    CHECK_NEAR(fall, 550.0, 0.1);
    uint16_t white[3] = {65535, 65535, 65535};
    CHECK(transfer_light_levels(white, 1, HT_TRANSFER_HLG, 1000, lum, &cll, &fall), "levels");
    CHECK_NEAR(cll, 1000.0, 1e-6);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The body of chunk TYPE of PNG D (N bytes) and its length, or NULL. */
static const uint8_t *find_chunk(const uint8_t *d, size_t n, const char *type, uint32_t *len)
{
    for (size_t p = 8; p + 12 <= n; p += 12 + be32(d + p))
        if (memcmp(d + p + 4, type, 4) == 0) {
            *len = be32(d + p);
            return d + p + 8;
        }
    return NULL;
}

static void png_tags(void)
{
    uint16_t px[4 * 3];
    for (int i = 0; i < 12; i++)
        px[i] = (uint16_t)(i * 5000);
    encode_tags t = {.cicp = {9, 16, 0, 1}, .ldmax = 1000, .ldmin = 0.1, .max_cll = 812.5,
                     .max_fall = 64.25,
                     .xy = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.3290}}};
    encode_image im = {px, 2, 2, 3, 16, 0.0, &t};
    encode_buffer out;
    char err[256];
    CHECK(encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err), "%s", err);
    uint32_t len = 0;
    const uint8_t *c = find_chunk(out.data, out.len, "cICP", &len);
    CHECK(c && len == 4 && memcmp(c, t.cicp, 4) == 0, "cICP");
    c = find_chunk(out.data, out.len, "mDCv", &len);
    CHECK(c && len == 24, "mDCv");
    if (c) {
        CHECK_EQ(c[0] << 8 | c[1], 35400);   /* red x 0.708 in 0.00002 */
        CHECK_EQ(c[14] << 8 | c[15], 16450); /* white y 0.3290 */
        CHECK_EQ(be32(c + 16), 10000000);    /* 1000 cd/m^2 in 0.0001 */
        CHECK_EQ(be32(c + 20), 1000);
    }
    c = find_chunk(out.data, out.len, "cLLi", &len);
    CHECK(c && len == 8 && be32(c) == 8125000 && be32(c + 4) == 642500, "cLLi");
    CHECK(!find_chunk(out.data, out.len, "sRGB", &len), "an sRGB chunk with PQ");
    /* Read back: the PQ codes as cd/m^2. */
    hdr_image img;
    CHECK(image_load_memory("pq.png", out.data, out.len, NULL, &img, err, sizeof err), "%s",
          err);
    for (int i = 0; i < 12 && img.rgba; i++) {
        double want = HT_PQ_PEAK * transfer_pq_decode(px[i] / 65535.0);
        CHECK_NEAR(img.rgba[4 * (i / 3) + i % 3], want, want * 1e-6 + 1e-6);
    }
    CHECK_EQ(img.colour.source, IMAGE_COLOUR_CICP);
    CHECK_NEAR(img.colour.xy[0][0], 0.708, 1e-12);
    image_free(&img);
    free(out.data);
}

static void icc_tags(void)
{
    static const double p3[4][2] = {{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060},
                                    {0.3127, 0.3290}};
    uint8_t *icc;
    size_t icc_len;
    char err[256];
    CHECK(out_profile_make(p3, 0.0, "test P3", &icc, &icc_len, err, sizeof err), "%s", err);
    CHECK(icc_len > 128 && be32(icc) == icc_len && memcmp(icc + 36, "acsp", 4) == 0, "ICC");
    uint8_t px[6 * 3] = {0};
    encode_tags t = {.cicp = {12, 13, 0, 1}, .icc = icc, .icc_len = icc_len};
    encode_image im = {px, 3, 2, 3, 8, 0.0, &t};
    encode_buffer out;
    CHECK(encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err), "%s", err);
    uint32_t len = 0;
    const uint8_t *c = find_chunk(out.data, out.len, "iCCP", &len);
    CHECK(c && len > 13 && memcmp(c, "ICC profile\0\0", 13) == 0, "iCCP header");
    if (c) {
        struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
        uint8_t *back = malloc(icc_len);
        size_t got = 0;
        CHECK(d && back && libdeflate_zlib_decompress(d, c + 13, len - 13, back, icc_len,
                                                      &got) == LIBDEFLATE_SUCCESS &&
                  got == icc_len && memcmp(back, icc, icc_len) == 0,
              "iCCP does not inflate to the profile");
        free(back);
        libdeflate_free_decompressor(d);
    }
    free(out.data);
    /* JPEG: APP2 "ICC_PROFILE" pieces right after SOI and JFIF's APP0. */
    CHECK(encode_image_to(ENCODE_JPEG, 90, &im, &out, err, sizeof err), "%s", err);
    size_t at = 4 + (size_t)(out.data[4] << 8 | out.data[5]);
    CHECK(out.data[at] == 0xFF && out.data[at + 1] == 0xE2 &&
              memcmp(out.data + at + 4, "ICC_PROFILE\0\1\1", 14) == 0 &&
              memcmp(out.data + at + 18, icc, icc_len) == 0,
          "JPEG APP2");
    free(out.data);
    /* A profile of three pieces, each numbered. */
    size_t big = 150000;
    uint8_t *fake = calloc(big, 1);
    encode_buffer j = {malloc(4), 4};
    memcpy(j.data, "\xFF\xD8\xFF\xD9", 4);
    CHECK(fake && out_tags_jpeg_icc(&j, fake, big, err, sizeof err), "%s", err);
    CHECK_EQ(j.len, 4 + big + 3 * 18);
    CHECK(j.data[2 + 16] == 1 && j.data[2 + 17] == 3 && j.data[2 + 18 + 65519 + 16] == 2,
          "pieces");
    free(j.data);
    free(fake);
    encode_tags r = {.xy = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.3290}}};
    char line[160];
    CHECK(out_tags_primaries_line(&r, line, sizeof line) > 0 &&
              strcmp(line, "PRIMARIES= 0.7080 0.2920 0.1700 0.7970 0.1310 0.0460 0.3127 "
                           "0.3290\n") == 0,
          "PRIMARIES= line: %s", line);
    free(icc);
}

static void hlg_read_back(void)
{
    /* White and a 75 % grey: 1000 cd/m^2 (the mDCv's peak) and ~203 cd/m^2. */
    uint16_t g = (uint16_t)lround(0.7496 * 65535), px[6] = {65535, 65535, 65535, g, g, g};
    encode_tags t = {.cicp = {9, 18, 0, 1}, .ldmax = 1000, .ldmin = 0.1,
                     .xy = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.3290}}};
    encode_image im = {px, 2, 1, 3, 16, 0.0, &t};
    encode_buffer out;
    char err[256];
    hdr_image img;
    CHECK(encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err), "%s", err);
    CHECK(image_load_memory("hlg.png", out.data, out.len, NULL, &img, err, sizeof err), "%s",
          err);
    if (img.rgba) {
        CHECK_NEAR(img.rgba[0], 1000.0, 1e-3);
        CHECK_NEAR(img.rgba[5], 203.0, 1.0);
    }
    image_free(&img);
    free(out.data);
}

int main(void)
{
    curves();
    encodings();
    light_levels();
    png_tags();
    icc_tags();
    hlg_read_back();
    return test_finish("test_transfer");
}
