/* ITU-T H.273's code points (PNG cICP, AVIF/HEIF nclx, JPEG XL's enumerations) and the
 * chromaticities of the primaries they name: the one place for them, for every reader and
 * writer here and for ref/colour.c's named spaces. */
#ifndef HT_CICP_H
#define HT_CICP_H

enum {
    /* colour primaries (table 2) */
    CICP_BT709 = 1, CICP_UNSPECIFIED = 2, CICP_BT2020 = 9, CICP_P3_D65 = 12,
    /* transfer characteristics (table 3) */
    CICP_GAMMA22 = 4, CICP_GAMMA28 = 5, CICP_SRGB = 13, CICP_PQ = 16, CICP_HLG = 18,
    /* matrix coefficients (table 4) and the range flag */
    CICP_RGB = 0, CICP_FULL_RANGE = 1,
};

/* CIE 1931 x, y of R, G, B and the white, as initialisers of a double [4][2]: BT.709 (and
 * sRGB), BT.2020 (and BT.2100), SMPTE EG 432-1 (P3-D65). */
#define CICP_D65_XY {0.3127, 0.3290}
#define CICP_BT709_XY {{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}, CICP_D65_XY}
#define CICP_BT2020_XY {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, CICP_D65_XY}
#define CICP_P3_D65_XY {{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, CICP_D65_XY}

#endif
