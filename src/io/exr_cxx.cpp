/* OpenEXR's C++ library decoding a validated file from memory straight into the interleaved
 * RGBA half buffer the GPU uploads (image_openexr_half, image_internal.h), and the floor that
 * `bench --decode` measures hdrtone against (image_exr_floor).
 *
 * The library reads the bytes exr_validate has walked, through a memory stream that hands it
 * pointers into them (no copy, no second read of the file, nothing that could have changed
 * since the validation). Its PIZ decoder is the fastest of the three and its DWA the only one
 * (BENCHMARKS.md, "Decoding straight to half floats"; image_exr.c's cxx_whole says why the
 * others go to OpenEXRCore), and asking for HALF slices of HALF channels makes it write the
 * file's own values: no conversion at all. Every exception stays in here, as a reason. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfInputPart.h>
#include <ImfMultiPartInputFile.h>
#include <ImfThreading.h>
#include <exception>
#include <stdexcept>
#include <string>

extern "C" {
#include "image_internal.h"
}

namespace {

/* The file in memory as an Imf::IStream: memory-mapped, so the library reads through
 * pointers into it instead of copying each chunk out. */
class memory_stream : public Imf::IStream {
  public:
    memory_stream(const uint8_t *data, size_t size)
        : Imf::IStream("(memory)"), data_(data), size_(size), pos_(0)
    {
    }
    bool isMemoryMapped() const override { return true; }
    char *readMemoryMapped(int n) override
    {
        check(n);
        char *p = (char *)data_ + pos_;
        pos_ += (uint64_t)n;
        return p;
    }
    bool read(char c[], int n) override
    {
        check(n);
        memcpy(c, data_ + pos_, (size_t)n);
        pos_ += (uint64_t)n;
        return pos_ < size_;
    }
    uint64_t tellg() override { return pos_; }
    void seekg(uint64_t pos) override { pos_ = pos; }

  private:
    void check(int n) const
    {
        if (n < 0 || pos_ > size_ || (uint64_t)n > size_ - pos_)
            throw std::runtime_error("read past the end of the file");
    }
    const uint8_t *data_;
    uint64_t size_, pos_;
};

/* The library's worker pool, sized once to the most threads one load uses: each load asks
 * for its own count, and the pool's size must not change under a decode in flight. */
pthread_once_t pool_once = PTHREAD_ONCE_INIT;
void pool_init() { Imf::setGlobalThreadCount(HT_MAX_LOAD_THREADS); }

/* A channel name no channel of HEADER has, from BASE: for a slice the library only fills. */
std::string absent_name(const Imf::Header &header, const char *base)
{
    std::string name = base;
    while (header.channels().findChannel(name))
        name += "_";
    return name;
}

/* Reads IP's data window into OUT (its frame buffer) in bands of rows from the top, telling PR
 * after each: a band is whole chunks (none decoded twice), a multiple of the thread count and
 * about a sixteenth of the image; at least two per thread (no thread idles long at a band's
 * end) but the first, one per thread, so that the first rows come early on many cores (16
 * threads of 32-row PIZ chunks: 512 rows, not 1024 of a 4K picture's 2160). */
void read_bands(Imf::InputPart &ip, const image_progress *pr, int chunk, const uint16_t *out,
                int threads)
{
    Imath::Box2i dw = ip.header().dataWindow();
    int64_t rows = (int64_t)dw.max.y - dw.min.y + 1, w = (int64_t)dw.max.x - dw.min.x + 1;
    chunk = chunk < 1 ? 1 : chunk;
    int64_t step = chunk * (threads > 1 ? threads : 1), band = (rows + 15) / 16;
    band = (band + step - 1) / step * step;
    for (int64_t y = 0, n = band; y < rows; y += n, n = band < 2 * step ? 2 * step : band) {
        int64_t end = y + n < rows ? y + n : rows;
        ip.readPixels((int)(dw.min.y + y), (int)(dw.min.y + end - 1));
        pr->rows(pr->ctx, out, (int)w, (int)end, (int)rows);
    }
}

/* Reads level 0 of part PART of IN into OUT (W x H x 4 halves): slot k from channel
 * NAMES[k], or, without one, filled with 0 (colour) or 1 (alpha) unless SLOTS < 4 (the floor:
 * slots SLOTS.. untouched). */
void read_part(Imf::MultiPartInputFile &in, int part, const char *const names[4],
               uint16_t *out, int slots = 4, const image_progress *pr = NULL, int chunk = 1,
               int threads = 1)
{
    Imf::InputPart ip(in, part);
    const Imf::Header &h = ip.header();
    Imath::Box2i dw = h.dataWindow();
    size_t w = (size_t)((int64_t)dw.max.x - dw.min.x + 1);
    size_t xs = 4 * sizeof *out, ys = xs * w;
    /* The library addresses the buffer in absolute pixel coordinates. */
    uintptr_t base = (uintptr_t)out - ((uintptr_t)(intptr_t)dw.min.x * xs +
                                       (uintptr_t)(intptr_t)dw.min.y * ys);
    Imf::FrameBuffer fb;
    static const char *const fill_names[4] = {" fill R", " fill G", " fill B", " fill A"};
    for (int k = 0; k < slots; k++) {
        std::string name = names[k] ? names[k] : absent_name(h, fill_names[k]);
        fb.insert(name, Imf::Slice(Imf::HALF, (char *)(base + (uintptr_t)k * sizeof *out), xs,
                                   ys, 1, 1, k == 3 ? 1.0 : 0.0));
    }
    ip.setFrameBuffer(fb);
    if (!pr) {
        ip.readPixels(dw.min.y, dw.max.y);
        return;
    }
    read_bands(ip, pr, chunk, out, threads);
}

/* Runs FN, turning any exception into "OpenEXR library: ..." in WHY. */
template <typename F> bool guarded(F fn, char *why, size_t wl)
{
    try {
        fn();
        return true;
    } catch (const std::exception &e) {
        snprintf(why, wl, "OpenEXR library: %s", e.what());
    } catch (...) {
        snprintf(why, wl, "OpenEXR library: unknown failure");
    }
    return false;
}

} // namespace

namespace {

/* Calls READ(file) on the file in DATA decoded on THREADS threads (clamped to 1 ..
 * HT_MAX_LOAD_THREADS), exceptions turned into WHY. */
template <class F>
bool with_file(const uint8_t *data, size_t size, int threads, char *why, size_t wl, F read)
{
    pthread_once(&pool_once, pool_init);
    int t = threads < 1 ? 1 : threads > HT_MAX_LOAD_THREADS ? HT_MAX_LOAD_THREADS : threads;
    return guarded(
        [&] {
            memory_stream s(data, size);
            /* No offset-table reconstruction: exr_validate checked the table. 0 threads =
             * the calling thread alone. */
            Imf::MultiPartInputFile in(s, t > 1 ? t : 0, false);
            read(in);
        },
        why, wl);
}

} // namespace

extern "C" bool image_openexr_half_progress(const uint8_t *data, size_t size, int part,
                                            const char *const names[4], int threads,
                                            uint16_t *out, const image_progress *pr,
                                            int chunk_rows, char *why, size_t wl)
{
    return with_file(data, size, threads, why, wl, [&](Imf::MultiPartInputFile &in) {
        read_part(in, part, names, out, 4, pr, chunk_rows, threads);
    });
}

extern "C" bool image_openexr_half(const uint8_t *data, size_t size, int part,
                                   const char *const names[4], int threads, uint16_t *out,
                                   char *why, size_t wl)
{
    return image_openexr_half_progress(data, size, part, names, threads, out, NULL, 1, why,
                                       wl);
}

extern "C" bool image_exr_floor_threads(const uint8_t *data, size_t size, int threads,
                                        uint16_t *out, char *why, size_t wl)
{
    static const char *const rgb[4] = {"R", "G", "B", "A"}, *const y[4] = {"Y", 0, 0, 0};
    return with_file(data, size, threads, why, wl, [&](Imf::MultiPartInputFile &in) {
        bool has_rgb = in.header(0).channels().findChannel("R");
        read_part(in, 0, has_rgb ? rgb : y, out, has_rgb ? 3 : 1);
    });
}

extern "C" bool image_exr_floor(const uint8_t *data, size_t size, uint16_t *out, char *why,
                                size_t wl)
{
    return image_exr_floor_threads(data, size, 1, out, why, wl);
}
