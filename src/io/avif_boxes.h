/* Editing the boxes of an AVIF file that libavif wrote. */
#ifndef HT_AVIF_BOXES_H
#define HT_AVIF_BOXES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "encode.h"

/* OUT (malloc'd) = the N bytes of AVIF file D with a `clli` property (MAX_CLL and MAX_FALL in
 * cd/m^2, at most 65535) associated with its primary item, the item locations moved to
 * match. False (OUT untouched) when D's boxes are not laid out as libavif writes them, or
 * out of memory. */
bool avif_add_clli(const uint8_t *d, size_t n, unsigned max_cll, unsigned max_fall,
                   encode_buffer *out);

#endif
