/* The table through which the OpenImageIO module (hdrtone-oiio.so, built from oiio_cxx.cpp)
 * serves oiio.h. OpenImageIO links ~280 libraries (GDAL, OpenVDB, FFmpeg, OpenCV, ...), whose
 * loading and constructors cost every process ~0.2 s before main(); in a module it is loaded
 * by oiio_load.c on the first file that needs it, so EXR, Radiance, PFM, PNG, JPEG, JPEG XL
 * and HEIF start without it. */
#ifndef HT_OIIO_MODULE_H
#define HT_OIIO_MODULE_H

#include "oiio.h"

/* Bumped whenever the table or oiio.h's contracts change: a stale module is refused. */
#define OIIO_MODULE_ABI 1

typedef struct oiio_module {
    int abi;
    oiio_file *(*open)(const uint8_t *, size_t, const char *, int, oiio_spec *, char *, size_t);
    bool (*read_rgba)(oiio_file *, float *, int, char *, size_t);
    bool (*read_native)(oiio_file *, float *, char *, size_t);
    void (*each_attribute)(const oiio_file *, void (*)(void *, const char *, const char *),
                           void *);
    const uint8_t *(*icc_profile)(const oiio_file *, size_t *);
    void (*close)(oiio_file *);
    const char *(*version)(void);
    const char *(*libraries)(void);
} oiio_module;

/* The one symbol the module exports. */
#define OIIO_MODULE_SYMBOL "hdrtone_oiio_module"
#define OIIO_MODULE_FILE "hdrtone-oiio.so"

#endif
