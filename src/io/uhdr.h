/* Ultra HDR gain-map JPEGs (Google's Ultra HDR v1, with ISO 21496-1's metadata beside it;
 * docs/hdr.md): what the writer (uhdr_write.c) and the reader (image_uhdr.c) share. A file is
 * the base JPEG (the SDR picture) with an XMP packet (hdrgm:Version and a GContainer directory),
 * ISO 21496-1's version and an MPF index (CIPA DC-007) in APP markers, followed by the gain map
 * JPEG (8-bit grey) with the gain map's XMP and ISO 21496-1 metadata.
 *
 * The renditions are linear and relative to SDR white: the base's decoded values (1: its white)
 * and the HDR rendition's luminance over HT_HDR_REF_WHITE (BT.2408: HDR reference white is SDR
 * white). With B the base and G the stored value / 255, at the display boost where the gain map
 * applies completely (weight 1):
 *   HDR = (B + offset_sdr) * 2^(map_min + (map_max - map_min) * G^(1 / gamma)) - offset_hdr. */
#ifndef HT_UHDR_H
#define HT_UHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The namespaces and signatures the markers start with. */
#define UHDR_XMP_SIG "http://ns.adobe.com/xap/1.0/"   /* APP1, with its NUL */
#define UHDR_ISO_SIG "urn:iso:std:iso:ts:21496:-1"    /* APP2, with its NUL */
#define UHDR_MPF_SIG "MPF"                            /* APP2, with its NUL */
#define UHDR_HDRGM_NS "http://ns.adobe.com/hdr-gain-map/1.0/"

/* The gain map's metadata (hdrgm's attributes; log2 values as hdrgm stores them). */
typedef struct uhdr_meta {
    double map_min, map_max;     /* log2 of the min and max content boost (min <= 0 <= max) */
    double gamma;                /* > 0 */
    double offset_sdr, offset_hdr;
    double cap_min, cap_max;     /* log2 of the display boost where the map starts to apply
                                    and where it applies completely (cap_min < cap_max) */
} uhdr_meta;

/* Whether META's values are in the ranges Ultra HDR v1 allows; false with the reason. */
bool uhdr_meta_valid(const uhdr_meta *m, char *err, size_t errlen);

#endif
