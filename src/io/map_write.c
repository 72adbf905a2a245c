#include "map_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyexr.h>

#include "png_export.h"

bool map_write_exr(const char *path, const float *map, int w, int h, char *err, size_t errlen)
{
    EXRHeader header;
    EXRImage image;
    InitEXRHeader(&header);
    InitEXRImage(&image);
    EXRChannelInfo channel;
    memset(&channel, 0, sizeof channel);
    snprintf(channel.name, sizeof channel.name, "Y");
    int type = TINYEXR_PIXELTYPE_FLOAT;
    const float *planes[1] = {map};
    image.images = (unsigned char **)planes;
    image.width = w;
    image.height = h;
    image.num_channels = 1;
    header.num_channels = 1;
    header.channels = &channel;
    header.pixel_types = &type;
    header.requested_pixel_types = &type;
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;
    unsigned char *mem = NULL;
    const char *why = NULL;
    size_t len = SaveEXRImageToMemory(&image, &header, &mem, &why);
    if (len == 0) {
        snprintf(err, errlen, "%s: cannot encode the EXR (%s)", path, why ? why : "tinyexr");
        if (why)
            FreeEXRErrorMessage(why);
        return false;
    }
    bool ok = file_write_atomic(path, mem, len, err, errlen);
    free(mem);
    return ok;
}
