/* Decoding one file on several threads (image_load_options.threads) gives what one thread
 * gives, bit for bit, with the same description: every sample image (every part of it), and
 * files written here in each compression tinyexr and OpenEXRCore both decode, float and half,
 * scanline and tiled, with chunks and tiles cut by the image's edges. A file with damaged
 * chunks fails with one message, naming it, whatever the thread count. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tinyexr.h>

#include "image.h"
#include "testutil.h"

static const int thread_counts[] = {2, 3, 8};

static bool same_text(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Compares everything image_load describes, and the pixels' bits (NaN payloads included). */
static void compare(const char *what, const hdr_image *a, const hdr_image *b)
{
    CHECK(a->width == b->width && a->height == b->height, "%s: size %dx%d vs %dx%d", what,
          a->width, a->height, b->width, b->height);
    if (a->width != b->width || a->height != b->height)
        return;
    size_t n = (size_t)a->width * (size_t)a->height * 4;
    if (memcmp(a->rgba, b->rgba, n * sizeof(float)) != 0) {
        size_t i = 0;
        while (memcmp(&a->rgba[i], &b->rgba[i], sizeof(float)) == 0)
            i++;
        CHECK(false, "%s: pixel %zu channel %zu: %a vs %a", what, i / 4, i % 4, a->rgba[i],
              b->rgba[i]);
    }
    CHECK(memcmp(a->data_window, b->data_window, sizeof a->data_window) == 0 &&
              memcmp(a->display_window, b->display_window, sizeof a->display_window) == 0,
          "%s: windows differ", what);
    CHECK(a->half_exact == b->half_exact && a->exposure == b->exposure, "%s: half_exact or "
          "exposure differ", what);
    CHECK(same_text(a->format, b->format) && same_text(a->channels, b->channels) &&
              same_text(a->compression, b->compression) &&
              same_text(a->rgb_source, b->rgb_source) && same_text(a->layer, b->layer) &&
              same_text(a->part_name, b->part_name),
          "%s: description differs: '%s' '%s' '%s' vs '%s' '%s' '%s'", what, a->channels,
          a->compression, a->rgb_source, b->channels, b->compression, b->rgb_source);
    CHECK(a->part == b->part && a->part_count == b->part_count &&
              (a->parts == NULL) == (b->parts == NULL),
          "%s: parts differ", what);
    for (int k = 0; a->parts && b->parts && k < a->part_count; k++) {
        const hdr_part_info *p = &a->parts[k], *q = &b->parts[k];
        CHECK(same_text(p->name, q->name) && same_text(p->type, q->type) &&
                  same_text(p->compression, q->compression) &&
                  memcmp(p->data_window, q->data_window, sizeof p->data_window) == 0 &&
                  same_text(p->channels, q->channels) && same_text(p->layers, q->layers),
              "%s: part %d's description differs", what, k);
    }
}

/* Loads PATH (part PART, NULL = default) with one thread and with each of thread_counts,
 * and compares. Returns the file's part count when PART is NULL, else 0. */
static int check_file(const char *path, const char *part)
{
    char what[600], err[HT_ERR_MAX];
    image_load_options o = {.part = part, .threads = 1};
    hdr_image one;
    if (!image_load(path, &o, &one, err, sizeof err)) {
        CHECK(false, "%s: one thread: %s", path, err);
        return 0;
    }
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
        snprintf(what, sizeof what, "%s part %s, %d threads", path, part ? part : "-",
                 thread_counts[t]);
        o.threads = thread_counts[t];
        hdr_image many;
        if (!image_load(path, &o, &many, err, sizeof err)) {
            CHECK(false, "%s: %s", what, err);
            continue;
        }
        compare(what, &one, &many);
        image_free(&many);
    }
    int parts = one.part_count;
    image_free(&one);
    return part ? 0 : parts;
}

/* Every sample image, every part of the multi-part ones. */
static void check_samples(void)
{
    const char *shared = getenv("HT_SHARED");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/exr-samples", shared ? shared : "");
    DIR *d = shared ? opendir(dir) : NULL;
    if (!d) {
        printf("no sample images: skipping them\n");
        return;
    }
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || (strcmp(e->d_name + len - 4, ".exr") && strcmp(e->d_name + len - 4, ".hdr")))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int parts = check_file(path, NULL);
        for (int k = 1; k < parts; k++) {
            char part[16];
            snprintf(part, sizeof part, "%d", k);
            check_file(path, part);
        }
        files++;
    }
    closedir(d);
    CHECK(files >= 10, "only %d sample images found in %s", files, dir);
}

/* The 4 W x H PLANES cut into level-0 tiles of TW x TH, as tinyexr writes them: each tile's
 * channels TW x TH floats, the edge tiles narrower or shorter. */
static EXRTile *make_tiles(float *const planes[4], int w, int h, int tw, int th, int *count)
{
    int ntx = (w + tw - 1) / tw, nty = (h + th - 1) / th;
    EXRTile *tiles = calloc((size_t)ntx * (size_t)nty, sizeof *tiles);
    for (int ty = 0; ty < nty; ty++)
        for (int tx = 0; tx < ntx; tx++) {
            EXRTile *t = &tiles[ty * ntx + tx];
            t->offset_x = tx;
            t->offset_y = ty;
            t->width = w - tx * tw < tw ? w - tx * tw : tw;
            t->height = h - ty * th < th ? h - ty * th : th;
            t->images = calloc(4, sizeof *t->images);
            for (int c = 0; c < 4; c++) {
                float *v = calloc((size_t)tw * (size_t)th, sizeof *v);
                for (int y = 0; y < t->height; y++)
                    memcpy(v + (size_t)y * (size_t)tw,
                           planes[c] + (size_t)(ty * th + y) * (size_t)w + (size_t)(tx * tw),
                           (size_t)t->width * sizeof *v);
                t->images[c] = (unsigned char *)v;
            }
        }
    *count = ntx * nty;
    return tiles;
}

/* Writes an R,G,B,A file of W x H with tinyexr (tiles of 64 x 32 when TILED); false when
 * tinyexr cannot write it. */
static bool write_exr(const char *path, int w, int h, int compression, bool half, bool tiled)
{
    float *ch[4];
    unsigned seed = 7u + (unsigned)compression;
    for (int c = 0; c < 4; c++) {
        ch[c] = malloc(sizeof(float) * (size_t)w * (size_t)h);
        for (int i = 0; i < w * h; i++) {
            float r = test_rand(&seed);
            /* Smooth with noise, some negatives and large values: every coder has work. */
            ch[c][i] = (float)((i % w) * (c + 1)) / (float)w * 40.0f + r * r * r * 3.0f - 0.2f;
        }
    }
    ch[0][5] = 70000.0f; /* beyond half's range: Inf when half */
    EXRHeader hd;
    InitEXRHeader(&hd);
    EXRImage im;
    InitEXRImage(&im);
    EXRChannelInfo info[4];
    int types[4], req[4];
    const char *names[4] = {"A", "B", "G", "R"};
    float *planes[4] = {ch[3], ch[2], ch[1], ch[0]};
    for (int c = 0; c < 4; c++) {
        memset(&info[c], 0, sizeof info[c]);
        snprintf(info[c].name, sizeof info[c].name, "%s", names[c]);
        types[c] = TINYEXR_PIXELTYPE_FLOAT;
        req[c] = half ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
    }
    hd.num_channels = 4;
    hd.channels = info;
    hd.pixel_types = types;
    hd.requested_pixel_types = req;
    hd.compression_type = compression;
    hd.data_window.max_x = w - 1; /* tinyexr counts tiles in it */
    hd.data_window.max_y = h - 1;
    hd.display_window = hd.data_window;
    if (tiled) {
        hd.tiled = 1;
        hd.tile_size_x = 64;
        hd.tile_size_y = 32;
        hd.tile_level_mode = TINYEXR_TILE_ONE_LEVEL;
    }
    im.num_channels = 4;
    im.width = w;
    im.height = h;
    if (tiled)
        im.tiles = make_tiles(planes, w, h, hd.tile_size_x, hd.tile_size_y, &im.num_tiles);
    else
        im.images = (unsigned char **)planes;
    const char *terr = NULL;
    bool ok = SaveEXRImageToFile(&im, &hd, path, &terr) == TINYEXR_SUCCESS;
    if (!ok) {
        fprintf(stderr, "%s: tinyexr cannot write it: %s\n", path, terr ? terr : "?");
        FreeEXRErrorMessage(terr);
    }
    for (int t = 0; t < im.num_tiles; t++) {
        for (int c = 0; c < 4; c++)
            free(im.tiles[t].images[c]);
        free(im.tiles[t].images);
    }
    free(im.tiles);
    for (int c = 0; c < 4; c++)
        free(ch[c]);
    return ok;
}

/* Files written here: every compression both decoders read, half and float, scanline and
 * tiled, of a size that cuts chunks and tiles. */
static void check_written(const char *tmp)
{
    static const struct {
        int id;
        const char *name;
    } comps[] = {{TINYEXR_COMPRESSIONTYPE_NONE, "none"}, {TINYEXR_COMPRESSIONTYPE_RLE, "rle"},
                 {TINYEXR_COMPRESSIONTYPE_ZIPS, "zips"}, {TINYEXR_COMPRESSIONTYPE_ZIP, "zip"},
                 {TINYEXR_COMPRESSIONTYPE_PIZ, "piz"}};
    for (size_t c = 0; c < sizeof comps / sizeof *comps; c++)
        for (int half = 0; half < 2; half++)
            for (int tiled = 0; tiled < 2; tiled++) {
                char path[512];
                snprintf(path, sizeof path, "%s/%s_%s_%s.exr", tmp, comps[c].name,
                         half ? "half" : "float", tiled ? "tiled" : "scan");
                bool ok = write_exr(path, 333, 181, comps[c].id, half, tiled);
                CHECK(ok, "%s: not written", path);
                if (ok)
                    check_file(path, NULL);
                remove(path);
            }
}

/* make_bench_exr's files (the benchmarks' photo-like halves), PIZ and ZIP. */
static void check_bench_files(const char *tmp)
{
    const char *tool = getenv("HT_MAKE_BENCH_EXR");
    const char *src = getenv("HT_SOURCE_DIR");
    if (!tool || !src) {
        printf("HT_MAKE_BENCH_EXR or HT_SOURCE_DIR unset: skipping make_bench_exr files\n");
        return;
    }
    const char *comps[] = {"piz", "zip"};
    for (int c = 0; c < 2; c++) {
        char path[512], cmd[2048];
        snprintf(path, sizeof path, "%s/bench_%s.exr", tmp, comps[c]);
        snprintf(cmd, sizeof cmd, "'%s' '%s/assets/default.exr' '%s' 1283 719 %s >/dev/null",
                 tool, src, path, comps[c]);
        bool ok = system(cmd) == 0;
        CHECK(ok, "%s failed", cmd);
        if (ok)
            check_file(path, NULL);
        remove(path);
    }
}

/* A PIZ file with several damaged chunks: one message, naming the file, the same for every
 * thread count above one (the first damaged chunk's, as one thread meets it). */
static void check_damaged(const char *tmp)
{
    char path[512];
    snprintf(path, sizeof path, "%s/damaged.exr", tmp);
    if (!write_exr(path, 400, 640, TINYEXR_COMPRESSIONTYPE_PIZ, true, false))
        return;
    FILE *f = fopen(path, "r+b");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    /* Scribble over the second half of the file: many chunks' compressed data. */
    for (long at = size / 2; at < size - 16; at += 997) {
        fseek(f, at, SEEK_SET);
        fwrite("\xff\xff\xff\xff\x00\x13\x77\xff", 1, 8, f);
    }
    fclose(f);
    char first[HT_ERR_MAX] = "";
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
        image_load_options o = {.threads = thread_counts[t]};
        hdr_image img;
        char err[HT_ERR_MAX] = "";
        bool ok = image_load(path, &o, &img, err, sizeof err);
        if (ok) { /* the scribbles may happen to decode; then they must agree */
            image_free(&img);
            continue;
        }
        CHECK(strncmp(err, path, strlen(path)) == 0 && !strchr(err, '\n'),
              "%d threads: message '%s'", thread_counts[t], err);
        if (!first[0])
            snprintf(first, sizeof first, "%s", err);
        CHECK(same_text(err, first), "%d threads: '%s', before '%s'", thread_counts[t], err,
              first);
    }
    CHECK(first[0], "damaged.exr loaded with every thread count");
    printf("damaged file: %s\n", first);
    remove(path);
}

int main(void)
{
    char tmp[] = "/tmp/ht_threadsXXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    check_written(tmp);
    check_bench_files(tmp);
    check_damaged(tmp);
    check_samples();
    rmdir(tmp);
    return test_finish("test_load_threads");
}
