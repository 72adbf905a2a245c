#include "map_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyexr.h>

#include "png_export.h"

bool exr_write_planes(const char *path, const float *const *planes, const char *const *names,
                      int n, int w, int h, bool half, int compression, char *err, size_t errlen)
{
    EXRHeader header;
    EXRImage image;
    InitEXRHeader(&header);
    InitEXRImage(&image);
    EXRChannelInfo channel[4];
    int type[4], stored[4];
    memset(channel, 0, sizeof channel);
    for (int i = 0; i < n && i < 4; i++) {
        snprintf(channel[i].name, sizeof channel[i].name, "%s", names[i]);
        type[i] = TINYEXR_PIXELTYPE_FLOAT;
        stored[i] = half ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
    }
    image.images = (unsigned char **)planes;
    image.width = w;
    image.height = h;
    image.num_channels = n < 4 ? n : 4;
    header.num_channels = image.num_channels;
    header.channels = channel;
    header.pixel_types = type;
    header.requested_pixel_types = stored;
    header.compression_type = compression;
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

bool map_write_exr(const char *path, const float *map, int w, int h, char *err, size_t errlen)
{
    const float *planes[1] = {map};
    const char *names[1] = {"Y"};
    return exr_write_planes(path, planes, names, 1, w, h, false, TINYEXR_COMPRESSIONTYPE_ZIP, err,
                            errlen);
}
