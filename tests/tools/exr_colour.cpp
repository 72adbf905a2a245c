// Writes a float RGB OpenEXR file with colour attributes through OpenEXR's own C++ library,
// so the colour tests read files that nobody here encoded by hand:
//   exr_colour OUT.exr W H [rx ry gx gy bx by wx wy [ax ay]] < W*H*3 float32 (row-major RGB)
// With 8 numbers: a chromaticities attribute; with 10: an adoptedNeutral too. Values are
// written as given, also degenerate ones (the loaders' refusals are tested with them).
#include <ImfChannelList.h>
#include <ImfChromaticities.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfStandardAttributes.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 12 && argc != 14) {
        std::fprintf(stderr, "usage: exr_colour OUT.exr W H [8 or 10 chromaticities]\n");
        return 2;
    }
    int w = std::atoi(argv[2]), h = std::atoi(argv[3]);
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        std::fprintf(stderr, "exr_colour: bad size %s x %s\n", argv[2], argv[3]);
        return 2;
    }
    std::vector<float> px((size_t)w * h * 3);
    if (std::fread(px.data(), sizeof(float), px.size(), stdin) != px.size()) {
        std::fprintf(stderr, "exr_colour: stdin holds fewer than %zu floats\n", px.size());
        return 1;
    }
    try {
        Imf::Header hdr(w, h);
        hdr.compression() = Imf::ZIP_COMPRESSION;
        if (argc >= 12) {
            float c[8];
            for (int i = 0; i < 8; i++)
                c[i] = std::strtof(argv[4 + i], nullptr);
            Imf::addChromaticities(hdr, Imf::Chromaticities(Imath::V2f(c[0], c[1]),
                                                            Imath::V2f(c[2], c[3]),
                                                            Imath::V2f(c[4], c[5]),
                                                            Imath::V2f(c[6], c[7])));
        }
        if (argc == 14)
            Imf::addAdoptedNeutral(hdr, Imath::V2f(std::strtof(argv[12], nullptr),
                                                   std::strtof(argv[13], nullptr)));
        const char *names[3] = {"R", "G", "B"};
        Imf::FrameBuffer fb;
        for (int c = 0; c < 3; c++) {
            hdr.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
            fb.insert(names[c], Imf::Slice(Imf::FLOAT, (char *)(px.data() + c),
                                           3 * sizeof(float), (size_t)w * 3 * sizeof(float)));
        }
        Imf::OutputFile out(argv[1], hdr);
        out.setFrameBuffer(fb);
        out.writePixels(h);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "exr_colour: %s: %s\n", argv[1], e.what());
        return 1;
    }
    return 0;
}
