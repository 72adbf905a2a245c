/* OpenImageIO behind the C interface of oiio.h, built as the module oiio_module.h describes
 * (its functions reach the program only through the table at the end).
 *
 * The bytes are already in memory (image.c read them once, for the magic bytes and for every
 * other loader): plugins that take an IOProxy read them through one without a copy; the others
 * (libraw, libheif, OpenJPEG, WebP in 2.4) only open paths, so those get an anonymous
 * in-memory file (memfd) and its /proc/self/fd path. The plugin is named by image.c, never
 * guessed by OpenImageIO from an extension or by trying every plugin in turn. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imageio.h>
#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "oiio_module.h"
}

using namespace OIIO;

struct oiio_file {
    std::unique_ptr<ImageInput> in;
    std::unique_ptr<Filesystem::IOMemReader> proxy;
    int memfd = -1;
    int subimage = 0;
    ImageSpec spec;
    ~oiio_file()
    {
        if (in)
            in->close();
        in.reset();
        if (memfd >= 0)
            close(memfd);
    }
};

namespace {

void say(char *why, size_t wl, const std::string &s)
{
    std::string t = s.empty() ? std::string("the decoder failed without a reason") : s;
    size_t nl = t.find('\n'); /* OpenImageIO may stack several lines: the first is the cause */
    if (nl != std::string::npos)
        t.resize(nl);
    for (size_t at; (at = t.find("\"/proc/self/fd/")) != std::string::npos;) {
        size_t end = t.find('"', at + 1); /* memory_file's name: not the user's file */
        t.replace(at, end == std::string::npos ? std::string::npos : end + 1 - at, "the file");
    }
    snprintf(why, wl, "%s", t.c_str());
}

/* F() with OpenImageIO's exceptions caught: their reason into WHY; FAILED when one is thrown.
 * Nothing may throw across the C interface. */
template <class R, class F> R guarded(char *why, size_t wl, R failed, F f)
{
    try {
        return f();
    } catch (const std::exception &e) {
        say(why, wl, e.what());
    } catch (...) {
        say(why, wl, "the decoder failed");
    }
    return failed;
}

/* The file as an anonymous in-memory file, for plugins that only open paths. */
int memory_file(const uint8_t *data, size_t size)
{
    int fd = memfd_create("hdrtone-image", MFD_CLOEXEC);
    for (size_t off = 0; fd >= 0 && off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)n;
    }
    return fd;
}

/* What libraw is asked for: scene-linear, white-balanced by the camera's own multipliers,
 * through the camera's colour matrix (always, not only for DNG), to linear Rec. 709; highlights
 * clipped, no brightening. */
void raw_config(ImageSpec &config)
{
    config.attribute("raw:ColorSpace", "sRGB-linear");
    config.attribute("raw:use_camera_wb", 1);
    config.attribute("raw:use_camera_matrix", 3);
    config.attribute("raw:auto_bright", 0);
    config.attribute("raw:HighlightMode", 0);
    config.attribute("raw:apply_scene_linear_scale", 0);
}

void fill_spec(const oiio_file *f, int subimages, oiio_spec *s)
{
    const ImageSpec &sp = f->spec;
    memset(s, 0, sizeof *s);
    s->width = sp.width;
    s->height = sp.height;
    s->x = sp.x;
    s->y = sp.y;
    s->full_width = sp.full_width;
    s->full_height = sp.full_height;
    s->full_x = sp.full_x;
    s->full_y = sp.full_y;
    s->nchannels = sp.nchannels;
    s->subimages = subimages;
    s->bits = sp.get_int_attribute("oiio:BitsPerSample", (int)sp.format.size() * 8);
    s->is_float = sp.format.is_floating_point();
    s->type_bits = (int)sp.format.size() * 8;
    std::string ch;
    for (int c = 0; c < sp.nchannels && c < 16; c++)
        ch += std::string(c ? "," : "") + std::string(sp.channel_name(c));
    ch += std::string(" (") + sp.format.c_str() + ")";
    snprintf(s->channels, sizeof s->channels, "%s", ch.c_str());
    snprintf(s->compression, sizeof s->compression, "%s",
             sp.get_string_attribute("compression").c_str());
    snprintf(s->colorspace, sizeof s->colorspace, "%s",
             sp.get_string_attribute("oiio:ColorSpace").c_str());
}

oiio_file *open_file(const uint8_t *data, size_t size, const char *plugin, int subimage,
                     oiio_spec *spec, char *why, size_t wl)
{
    std::unique_ptr<oiio_file> f(new oiio_file);
    f->in = ImageInput::create(plugin);
    if (!f->in) {
        say(why, wl, std::string("this build's OpenImageIO has no ") + plugin + " reader");
        return nullptr;
    }
    ImageSpec config;
    if (strcmp(plugin, "raw") == 0)
        raw_config(config);
    std::string name;
    if (f->in->supports("ioproxy")) {
        f->proxy.reset(new Filesystem::IOMemReader(data, size));
        f->in->set_ioproxy(f->proxy.get());
        name = std::string("memory.") + plugin;
    } else {
        if ((f->memfd = memory_file(data, size)) < 0) {
            say(why, wl, "cannot make an in-memory file for the decoder");
            return nullptr;
        }
        name = "/proc/self/fd/" + std::to_string(f->memfd);
    }
    if (!f->in->open(name, f->spec, config)) {
        say(why, wl, f->in->geterror());
        return nullptr;
    }
    /* Only TIFF pages and HEIF images are counted: a probing seek past the last image leaves
     * some single-image plugins (WebP) unable to decode the first. */
    int subimages = 1;
    if (strcmp(plugin, "tiff") == 0 || strcmp(plugin, "heif") == 0) {
        ImageSpec probe;
        while (subimages < 4096 && f->in->seek_subimage(subimages, 0, probe))
            subimages++;
        f->in->geterror(); /* the failed seek's message is not an error of this file */
    }
    if (subimage < 0 || subimage >= subimages) {
        say(why, wl, "no page " + std::to_string(subimage) + " (the file holds " +
                         std::to_string(subimages) + ")");
        return nullptr;
    }
    if (!f->in->seek_subimage(subimage, 0, f->spec)) {
        say(why, wl, f->in->geterror());
        return nullptr;
    }
    f->subimage = subimage;
    fill_spec(f.get(), subimages, spec);
    return f.release();
}

} // namespace

extern "C" oiio_file *oiio_open(const uint8_t *data, size_t size, const char *plugin,
                                int subimage, oiio_spec *spec, char *why, size_t wl)
{
    return guarded<oiio_file *>(why, wl, nullptr, [&] {
        return open_file(data, size, plugin, subimage, spec, why, wl);
    });
}

namespace {

/* What ImageInput::read_image allocates to convert (OpenImageIO 2.4's read_scanlines): a
 * buffer of max(64 MB of scanlines, 256 scanlines), rounded up to the file's rows per strip,
 * whatever the image's height. A fuzzed file 1M pixels wide and one high made it 4 GB
 * (scripts/fuzz formats ran out of memory); rows per strip come from the header. */
size_t conversion_buffer(const ImageSpec &sp)
{
    size_t line = sp.scanline_bytes(true);
    size_t rows = line ? std::max<size_t>(((size_t)1 << 26) / line, 1) : 1;
    rows = std::max<size_t>(rows, 256);
    int64_t rps = sp.get_int_attribute("tiff:RowsPerStrip", 64);
    if (rps > 0)
        rows = (rows + (size_t)rps - 1) / (size_t)rps * (size_t)rps;
    return rows * line;
}

/* The first NCH channels as packed floats one native scanline at a time: each scanline read
 * straight into ROW (no conversion buffer in the library), then converted here. */
bool read_by_rows(oiio_file *f, int nch, float *rgba)
{
    const ImageSpec &sp = f->spec;
    size_t n = (size_t)sp.width * (size_t)sp.nchannels;
    std::vector<unsigned char> row(sp.scanline_bytes(true));
    std::vector<float> values(n);
    for (int y = 0; y < sp.height; y++) {
        if (!f->in->read_scanline(sp.y + y, sp.z, TypeDesc::UNKNOWN, row.data()) ||
            !convert_pixel_values(sp.format, row.data(), TypeDesc::FLOAT, values.data(),
                                  (int)n))
            return false;
        float *out = rgba + (size_t)y * sp.width * nch;
        for (int x = 0; x < sp.width; x++)
            for (int c = 0; c < nch; c++)
                out[(size_t)x * nch + c] = values[(size_t)x * sp.nchannels + c];
    }
    return true;
}

} // namespace

namespace {

/* A read's outcome. A plugin may return true on a strip it could not read (libtiff on a file
 * cut short) with the error only recorded: a recorded error is a failure. */
bool read_done(oiio_file *f, bool ok, char *why, size_t wl)
{
    if (ok && !f->in->has_error())
        return true;
    say(why, wl, f->in->geterror());
    return false;
}

} // namespace

extern "C" bool oiio_read_rgba(oiio_file *f, float *rgba, int threads, char *why, size_t wl)
{
    return guarded(why, wl, false, [&] {
        const ImageSpec &sp = f->spec;
        int nch = sp.nchannels < 4 ? sp.nchannels : 4;
        f->in->threads(threads);
        /* Above this the library's conversion buffer is refused or avoided: its own 64 MB
         * of scanlines rounded up to a strip, or the whole image (one strip of a 4K float
         * TIFF: 130 MB), and no more. */
        const size_t cap = std::max((size_t)80 << 20, (size_t)sp.image_bytes(true));
        bool by_rows = conversion_buffer(sp) > cap;
        if (by_rows && (sp.tile_width > 0 || !sp.channelformats.empty() ||
                        sp.scanline_bytes(true) > cap)) {
            say(why, wl, "its scanlines are too long for the decoder (" +
                             std::to_string(sp.scanline_bytes(true)) + " bytes each)");
            return false;
        }
        return read_done(f,
                         by_rows ? read_by_rows(f, nch, rgba)
                                 : f->in->read_image(f->subimage, 0, 0, nch, TypeDesc::FLOAT,
                                                     rgba),
                         why, wl);
    });
}

extern "C" bool oiio_read_native(oiio_file *f, float *out, char *why, size_t wl)
{
    return guarded(why, wl, false, [&] {
        f->in->threads(0);
        return read_done(f,
                         f->in->read_image(f->subimage, 0, 0, f->spec.nchannels,
                                           TypeDesc::FLOAT, out),
                         why, wl);
    });
}

extern "C" void oiio_each_attribute(const oiio_file *f,
                                    void (*each)(void *, const char *, const char *), void *ctx)
{
    try {
        for (const ParamValue &p : f->spec.extra_attribs) {
            if (p.name() == "ICCProfile")
                continue;
            std::string v = p.get_string(64);
            each(ctx, p.name().c_str(), v.c_str());
        }
    } catch (...) {
        /* metadata is a description: a value that cannot be formatted is left out */
    }
}

extern "C" const uint8_t *oiio_icc_profile(const oiio_file *f, size_t *size)
{
    const ParamValue *p = f->spec.find_attribute("ICCProfile");
    if (!p || p->type().basetype != TypeDesc::UINT8 || p->datasize() == 0)
        return nullptr;
    *size = (size_t)p->datasize();
    return (const uint8_t *)p->data();
}

extern "C" void oiio_close(oiio_file *f)
{
    try {
        delete f;
    } catch (...) {
    }
}

extern "C" const char *oiio_version(void)
{
    return OIIO_VERSION_STRING;
}

extern "C" const char *oiio_libraries(void)
{
    static const std::string libs = []() -> std::string {
        try {
            return OIIO::get_string_attribute("library_list");
        } catch (...) {
            return "";
        }
    }();
    return libs.c_str();
}

extern "C" __attribute__((visibility("default"))) const oiio_module hdrtone_oiio_module = {
    OIIO_MODULE_ABI, oiio_open, oiio_read_rgba, oiio_read_native, oiio_each_attribute,
    oiio_icc_profile, oiio_close, oiio_version, oiio_libraries,
};
