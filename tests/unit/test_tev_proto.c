/* tev's packets: every type round-trips through tev_serialize and tev_parse; hostile bytes
 * (random, lying lengths, absurd sizes, truncations, offsets and strides outside the data,
 * unterminated strings, unknown types) are refused with a message and never read out of
 * bounds (CI runs this under ASan/UBSan); channel names map to R, G, B, A as EXR layers do.
 * With --seeds DIR it writes one valid packet of each type there for scripts/fuzz-tev. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tev_proto.h"
/* The fuzzer's property (parse, use, write back, parse again, compare; abort on a mismatch),
 * run here on every input it once failed. */
#include "fuzz/fuzz_tev.c"

#ifdef TEV_PROTO_SEEDS_ONLY
/* Built alone by scripts/fuzz-tev, without the test library. */
static int test_failures;
#define CHECK(cond, ...) ((cond) ? (void)0 : (void)test_failures++)
#else
#include "testutil.h"
#endif

#define S(lit) ((tev_str){lit, sizeof lit - 1})

static const tev_limits LIM = {(uint64_t)1 << 20, ((size_t)1 << 20) * 16 + ((size_t)1 << 20)};

/* Little-endian float bytes for a packet's data section. */
static uint8_t floats_buf[4096 * 4];

static const uint8_t *le_floats(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        for (int k = 0; k < 4; k++)
            floats_buf[4 * i + (size_t)k] = (uint8_t)(u >> (8 * k));
    }
    return floats_buf;
}

/* Vector-graphics commands: MoveTo(1,2), Text(3,4,"hi"), FontFace("mono"), Fill. */
static const uint8_t VG_BYTES[] = {
    10, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40,
    21, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40, 'h', 'i', 0,
    23, 'm', 'o', 'n', 'o', 0,
    3,
};

/* Example packet K (0 .. N_EXAMPLES-1) of every type and layout. */
#define N_EXAMPLES 11
static tev_packet example(int k)
{
    static float data[4 * 6 * 3];
    for (int i = 0; i < 4 * 6 * 3; i++)
        data[i] = (float)i * 0.5f - 3.0f;
    tev_packet p;
    memset(&p, 0, sizeof p);
    p.name = S("render.exr");
    p.selector = S("");
    p.grab_focus = k % 2 == 0 && k != 4;   /* CloseImage carries no flag */
    static const tev_packet_type types[N_EXAMPLES] = {
        TEV_OPEN_IMAGE, TEV_OPEN_IMAGE_V1, TEV_OPEN_IMAGE_V1, TEV_RELOAD_IMAGE, TEV_CLOSE_IMAGE,
        TEV_CREATE_IMAGE, TEV_UPDATE_IMAGE_V1, TEV_UPDATE_IMAGE_V2, TEV_UPDATE_IMAGE,
        TEV_UPDATE_IMAGE, TEV_VECTOR_GRAPHICS};
    p.type = types[k];
    switch (k) {
    case 0: p.name = S("/tmp/a b.exr"); p.selector = S("diffuse"); break;
    case 1: p.name = S("/tmp/x:y.exr"); p.selector = S("albedo"); break;
    case 2: p.name = S("C:/render.exr"); break;
    case 5:
        p.width = 640; p.height = 480; p.channel_count = 4;
        p.channels[0] = S("R"); p.channels[1] = S("G"); p.channels[2] = S("B");
        p.channels[3] = S("A");
        break;
    case 6: case 7: case 8: case 9:
        p.x = 16; p.y = 8; p.width = 3; p.height = 2;
        p.channel_count = k == 6 ? 1 : k == 8 ? 4 : 3;
        p.channels[0] = S("R"); p.channels[1] = S("G"); p.channels[2] = S("B");
        p.channels[3] = S("A");
        for (int c = 0; c < p.channel_count; c++) {
            p.offsets[c] = k == 8 ? c : c * 6;   /* 8: interleaved RGBA */
            p.strides[c] = k == 8 ? 4 : 1;
        }
        if (k == 9) {   /* last row first: a negative stride */
            p.offsets[0] = 5; p.strides[0] = -1;
            p.offsets[1] = 0; p.strides[1] = 0;
        }
        p.data_floats = k == 8 ? 24 : (size_t)p.channel_count * 6;
        p.data = le_floats(data, p.data_floats);
        break;
    case 10:
        p.append = true; p.command_count = 4;
        p.commands = VG_BYTES; p.commands_size = sizeof VG_BYTES;
        break;
    default: break;
    }
    return p;
}

static bool str_eq(tev_str a, tev_str b)
{
    return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

static void test_round_trip(void)
{
    for (int k = 0; k < N_EXAMPLES; k++) {
        tev_packet p = example(k), q;
        uint8_t *bytes;
        size_t size;
        char err[512] = "";
        CHECK(tev_serialize(&p, &bytes, &size, err, sizeof err), "example %d: %s", k, err);
        CHECK(tev_parse(bytes, size, &LIM, &q, err, sizeof err), "example %d: %s", k, err);
        CHECK(q.type == p.type && q.grab_focus == p.grab_focus, "example %d: header", k);
        CHECK(str_eq(q.name, p.name) && str_eq(q.selector, p.selector),
              "example %d: name '%.*s' selector '%.*s'", k, (int)q.name.len, q.name.p,
              (int)q.selector.len, q.selector.p);
        CHECK(q.x == p.x && q.y == p.y && q.width == p.width && q.height == p.height,
              "example %d: rectangle", k);
        CHECK(q.channel_count == p.channel_count, "example %d: channels", k);
        for (int c = 0; c < p.channel_count && c < q.channel_count; c++) {
            CHECK(str_eq(q.channels[c], p.channels[c]), "example %d: channel %d", k, c);
            if (p.data)
                CHECK(q.offsets[c] == p.offsets[c] && q.strides[c] == p.strides[c],
                      "example %d: channel %d offset %" PRId64 " stride %" PRId64, k, c,
                      q.offsets[c], q.strides[c]);
        }
        for (int c = 0; p.data && c < p.channel_count; c++)
            for (size_t i = 0; i < 6; i++)
                CHECK(tev_sample(&q, c, i) == tev_sample(&p, c, i), "example %d: sample", k);
        CHECK(q.command_count == p.command_count && q.append == p.append &&
              q.commands_size == p.commands_size, "example %d: vector graphics", k);
        free(bytes);
    }
    /* The values themselves: interleaved RGBA pixel 5's B is float 5*4+2 of the data. */
    tev_packet p = example(8);
    CHECK(tev_sample(&p, 2, 5) == 22 * 0.5f - 3.0f, "interleaved sample");
    p = example(9);
    CHECK(tev_sample(&p, 0, 0) == 5 * 0.5f - 3.0f && tev_sample(&p, 0, 5) == -3.0f,
          "negative stride");
    /* Vector-graphics commands decode. */
    p = example(10);
    tev_vg_command cmd;
    size_t pos = tev_vg_command_at(&p, 0, &cmd);
    CHECK(cmd.type == 10 && cmd.float_count == 2 && cmd.values[1] == 2.0f, "MoveTo");
    pos = tev_vg_command_at(&p, pos, &cmd);
    CHECK(cmd.type == 21 && cmd.values[0] == 3.0f && str_eq(cmd.text, S("hi")), "Text");
    pos = tev_vg_command_at(&p, pos, &cmd);
    CHECK(cmd.type == 23 && str_eq(cmd.text, S("mono")), "FontFace");
    pos = tev_vg_command_at(&p, pos, &cmd);
    CHECK(cmd.type == 3 && pos == p.commands_size, "Fill, then the end");
}

/* Parses SIZE bytes expecting a refusal whose message contains WANT. */
static void refused(const uint8_t *b, size_t size, const char *want, const char *what)
{
    tev_packet p;
    char err[512] = "";
    bool ok = tev_parse(b, size, &LIM, &p, err, sizeof err);
    CHECK(!ok, "%s: accepted", what);
    CHECK(!ok && err[0] && strstr(err, want), "%s: message '%s' lacks '%s'", what, err, want);
    CHECK(p.type == 0 && p.name.p == NULL && p.data == NULL, "%s: output not zeroed", what);
}

static void put32(uint8_t *b, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        b[k] = (uint8_t)(v >> (8 * k));
}

/* Serializes example K with FN changing the packet first, and expects a refusal. */
static void refused_example(int k, void (*fn)(tev_packet *), const char *want,
                            const char *what)
{
    tev_packet p = example(k);
    fn(&p);
    uint8_t *bytes;
    size_t size;
    char err[512];
    if (!tev_serialize(&p, &bytes, &size, err, sizeof err)) {
        CHECK(false, "%s: cannot serialize: %s", what, err);
        return;
    }
    refused(bytes, size, want, what);
    free(bytes);
}

static void huge_image(tev_packet *p) { p->width = p->height = 65536; }
static void negative_width(tev_packet *p) { p->width = -3; }
static void zero_height(tev_packet *p) { p->height = 0; }
static void over_limit(tev_packet *p) { p->width = 1025; p->height = 1024; }
static void negative_x(tev_packet *p) { p->x = -1; }
static void far_x(tev_packet *p) { p->x = INT32_MAX - 1; }
static void offset_past(tev_packet *p) { p->offsets[2] = 24; }
static void offset_negative(tev_packet *p) { p->offsets[0] = -1; }
static void stride_past(tev_packet *p) { p->strides[1] = 5; }
static void stride_huge(tev_packet *p) { p->strides[0] = INT64_MAX; }
static void stride_min(tev_packet *p) { p->strides[0] = INT64_MIN; }
static void stride_backwards(tev_packet *p) { p->strides[0] = -2; }
static void offset_overflow(tev_packet *p) { p->offsets[1] = INT64_MAX - 2; p->strides[1] = 1; }
static void short_data(tev_packet *p) { p->data_floats -= 1; }

static void test_hostile_fields(void)
{
    refused_example(5, huge_image, "exceeds the limit", "65536^2 image");
    refused_example(5, negative_width, "not positive", "negative width");
    refused_example(5, zero_height, "not positive", "zero height");
    refused_example(5, over_limit, "exceeds the limit", "one pixel over the limit");
    refused_example(8, negative_x, "negative", "tile at x = -1");
    refused_example(8, far_x, "2^31", "tile past 2^31");
    refused_example(8, huge_image, "exceeds the limit", "huge tile");
    refused_example(8, offset_past, "outside the 24 floats", "offset past the data");
    refused_example(8, offset_negative, "outside", "negative offset");
    refused_example(8, stride_past, "outside", "stride past the data");
    refused_example(8, stride_huge, "overflows", "stride INT64_MAX");
    refused_example(8, stride_min, "overflows", "stride INT64_MIN");
    refused_example(8, stride_backwards, "outside", "negative stride below 0");
    refused_example(8, offset_overflow, "overflows", "offset + stride overflow");
    refused_example(7, short_data, "outside", "planar data short by one float");
    refused_example(6, short_data, "outside", "layout 3 data short");
}

/* Bytes laid out by hand as tev's IpcPacket::set* write them, independent of tev_serialize. */
static size_t hand_n;
static uint8_t hand[256];

static void hand_bytes(const void *src, size_t n)
{
    memcpy(hand + hand_n, src, n);
    hand_n += n;
}

static void hand_le(uint64_t v, int bytes)
{
    for (int k = 0; k < bytes; k++)
        hand[hand_n++] = (uint8_t)(v >> (8 * k));
}

static void test_tev_layout(void)
{
    tev_packet p;
    char err[512];
    hand_n = 0;
    hand_le(0, 4);
    hand_le(TEV_CREATE_IMAGE, 1);
    hand_le(1, 1);
    hand_bytes("img", 4);
    hand_le(3, 4);
    hand_le(2, 4);
    hand_le(2, 4);
    hand_bytes("R\0G", 4);
    put32(hand, (uint32_t)hand_n);
    CHECK(tev_parse(hand, hand_n, &LIM, &p, err, sizeof err), "tev CreateImage: %s", err);
    CHECK(p.grab_focus && str_eq(p.name, S("img")) && p.width == 3 && p.height == 2 &&
          p.channel_count == 2 && str_eq(p.channels[1], S("G")), "tev CreateImage fields");
    hand_n = 0;
    hand_le(0, 4);
    hand_le(TEV_UPDATE_IMAGE, 1);
    hand_le(0, 1);
    hand_bytes("img", 4);
    hand_le(2, 4);
    hand_bytes("R\0G", 4);
    hand_le(1, 4);   /* x y w h */
    hand_le(0, 4);
    hand_le(2, 4);
    hand_le(1, 4);
    hand_le(0, 8);   /* offsets */
    hand_le(1, 8);
    hand_le(2, 8);   /* strides */
    hand_le(2, 8);
    for (int i = 1; i <= 4; i++) {
        float f = (float)i;
        uint32_t u;
        memcpy(&u, &f, 4);
        hand_le(u, 4);
    }
    put32(hand, (uint32_t)hand_n);
    CHECK(tev_parse(hand, hand_n, &LIM, &p, err, sizeof err), "tev UpdateImage: %s", err);
    CHECK(!p.grab_focus && p.x == 1 && p.y == 0 && p.width == 2 && p.height == 1 &&
          p.data_floats == 4, "tev UpdateImage fields");
    CHECK(tev_sample(&p, 0, 0) == 1 && tev_sample(&p, 0, 1) == 3 && tev_sample(&p, 1, 0) == 2 &&
          tev_sample(&p, 1, 1) == 4, "tev UpdateImage samples");
}

static void test_hostile_bytes(void)
{
    uint8_t b[64];
    memset(b, 0, sizeof b);
    put32(b, 3);
    refused(b, 3, "no length field", "3 bytes");
    put32(b, 4);
    refused(b, 4, "shorter than the 5-byte header", "length 4");
    put32(b, 0xffffffffu);
    refused(b, 64, "exceeds the limit", "length 4 GiB");
    put32(b, 40);
    refused(b, 64, "does not match", "length 40 of 64 bytes");
    put32(b, 6);
    b[4] = 9;
    refused(b, 6, "unknown type 9", "type 9");
    b[4] = 255;
    refused(b, 6, "unknown type 255", "type 255");
    /* Strings that run to the end. */
    uint8_t close[] = {10, 0, 0, 0, TEV_CLOSE_IMAGE, 'a', 'b', 'c', 'd', 'e'};
    refused(close, sizeof close, "not NUL-terminated", "unterminated name");
    uint8_t open[] = {9, 0, 0, 0, TEV_OPEN_IMAGE, 1, 'a', 0, 'b'};
    refused(open, sizeof open, "channel selector is not NUL", "unterminated selector");
    /* Counts: channels -1, 10^9, 0; vector-graphics commands that are not there. */
    uint8_t create[] = {22, 0, 0, 0, TEV_CREATE_IMAGE, 0, 'x', 0, 1, 0, 0, 0, 1, 0, 0, 0,
                        0xff, 0xff, 0xff, 0xff, 'R', 0};
    refused(create, sizeof create, "channel count -1", "channel count -1");
    put32(create + 16, 1000000000);
    refused(create, sizeof create, "channel count 1000000000", "channel count 10^9");
    put32(create + 16, 0);
    refused(create, sizeof create, "channel count 0", "no channels");
    put32(create + 16, 2);
    refused(create, sizeof create, "channel name", "2 channels, 1 name");
    uint8_t vg[] = {16, 0, 0, 0, TEV_VECTOR_GRAPHICS, 0, 'x', 0, 1, 5, 0, 0, 0, 3, 3, 3};
    refused(vg, sizeof vg, "packet ends", "5 commands, 3 present");
    vg[15] = 99;
    put32(vg + 9, 3);
    refused(vg, sizeof vg, "unknown vector-graphics command type 99", "command 99");
    vg[15] = 10;
    refused(vg, sizeof vg, "packet ends", "MoveTo without its floats");
}

/* Every strict prefix of every example, its length field made to match, is refused. */
static void test_truncations(void)
{
    for (int k = 0; k < N_EXAMPLES; k++) {
        tev_packet p = example(k);
        uint8_t *bytes;
        size_t size;
        char err[512];
        if (!tev_serialize(&p, &bytes, &size, err, sizeof err))
            continue;
        for (size_t n = 0; n < size; n++) {
            uint8_t *cut = malloc(n ? n : 1);   /* exact size: ASan sees any overread */
            memcpy(cut, bytes, n);
            if (n >= 4)
                put32(cut, (uint32_t)n);
            tev_packet q;
            bool ok = tev_parse(cut, n, &LIM, &q, err, sizeof err);
            CHECK(!ok && err[0], "example %d cut to %zu bytes: accepted", k, n);
            free(cut);
        }
        free(bytes);
    }
}

/* Random and mutated bytes: any answer is fine, a crash or overread is not. */
static void test_random(void)
{
    uint32_t s = 12345;
    int accepted = 0;
    for (int iter = 0; iter < 20000; iter++) {
        tev_packet p = example(iter % N_EXAMPLES);
        uint8_t *bytes;
        size_t size;
        char err[512];
        if (!tev_serialize(&p, &bytes, &size, err, sizeof err))
            continue;
        int flips = 1 + iter % 4;
        for (int f = 0; f < flips; f++) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            size_t at = s % size;
            bytes[at] = iter % 3 == 0 ? (uint8_t)(s >> 8) : (uint8_t)(bytes[at] ^ (1u << (s % 8)));
        }
        if (iter % 7 == 0)
            put32(bytes, (uint32_t)size);
        tev_packet q;
        if (tev_parse(bytes, size, &LIM, &q, err, sizeof err)) {
            accepted++;
            for (int c = 0; q.data && c < q.channel_count; c++)
                (void)tev_sample(&q, c, (size_t)q.width * (size_t)q.height - 1);
        } else {
            CHECK(err[0], "mutation %d refused without a message", iter);
        }
        free(bytes);
    }
    CHECK(accepted > 0, "no mutation parsed at all");
}

static void test_channel_map(void)
{
    tev_channel_map m;
    char err[256];
    const char *rgba[] = {"A", "B", "G", "R"};
    CHECK(tev_channel_map_make(rgba, NULL, 4, NULL, &m, err, sizeof err) && m.rgba[0] == 3 &&
          m.rgba[1] == 2 && m.rgba[2] == 1 && m.rgba[3] == 0 && !m.grey, "plain RGBA");
    const char *aov[] = {"diffuse.R", "diffuse.G", "diffuse.B", "P.x", "P.y", "P.z", "Z",
                         "N.X", "N.Y", "N.Z"};
    CHECK(tev_channel_map_make(aov, NULL, 10, NULL, &m, err, sizeof err) &&
          strcmp(m.layer, "diffuse") == 0 && m.rgba[0] == 0 && m.rgba[2] == 2 &&
          m.rgba[3] == -1 && strcmp(m.source, "diffuse.R,diffuse.G,diffuse.B") == 0,
          "default layer diffuse: '%s' '%s'", m.layer, m.source);
    CHECK(tev_channel_map_make(aov, NULL, 10, "P.", &m, err, sizeof err) &&
          m.rgba[0] == 3 && m.rgba[1] == 4 && m.rgba[2] == 5 &&
          strcmp(m.source, "P.x,P.y,P.z as R,G,B") == 0, "layer P: %s", m.source);
    /* As in an EXR file: N.Y is a Y channel, so layer N shows grey. */
    CHECK(tev_channel_map_make(aov, NULL, 10, "N", &m, err, sizeof err) && m.grey &&
          m.rgba[0] == 8 && strcmp(m.source, "N.Y (R=G=B=Y)") == 0, "layer N: %s", m.source);
    CHECK(tev_channel_map_make(aov, NULL, 10, "", &m, err, sizeof err) && m.grey &&
          m.rgba[0] == 6, "un-prefixed Z as grey: %s", m.source);
    CHECK(!tev_channel_map_make(aov, NULL, 10, "specular", &m, err, sizeof err) &&
          strstr(err, "no layer 'specular'"), "missing layer: %s", err);
    const char *grey[] = {"Y", "A"};
    CHECK(tev_channel_map_make(grey, NULL, 2, NULL, &m, err, sizeof err) && m.grey &&
          m.rgba[0] == 0 && m.rgba[3] == 1, "Y with alpha");
    const char *two[] = {"u", "v"};
    CHECK(tev_channel_map_make(two, NULL, 2, NULL, &m, err, sizeof err) && m.rgba[0] == 0 &&
          m.rgba[1] == 1 && m.rgba[2] == -1, "two channels as R,G");
    /* Names with lengths (as parsed), not NUL-terminated. */
    const char *cut[] = {"R....", "G!"};
    size_t lens[] = {1, 1};
    CHECK(tev_channel_map_make(cut, lens, 2, NULL, &m, err, sizeof err) && m.rgba[0] == 0 &&
          m.rgba[1] == 1, "names by length");
    CHECK(!tev_channel_map_make(cut, lens, 0, NULL, &m, err, sizeof err), "no channels");
}

/* Inputs scripts/fuzz-tev found, each once a failure. */
static void test_fuzz_findings(void)
{
    /* OpenImage (0) "/tmp/x:y?.exr:" with an empty selector was written back without its
     * final ':', so the path came back split at the first colon. */
    static const uint8_t open_v1_colon[] = {
        0x1a, 0, 0, 0, 0, 0, '/', 't', 'm', 'p', '/', 'x', ':', 'y', 0xfe, 0xac, '.', 'e',
        'x', 'r', ':', 0, 0, 0, 0, 0, 0, 0, 1, 'a', 'l', 'b', 'e', 'd', 'o', 0};
    LLVMFuzzerTestOneInput(open_v1_colon, sizeof open_v1_colon);
}

static int write_seeds(const char *dir)
{
    for (int k = 0; k < N_EXAMPLES; k++) {
        tev_packet p = example(k);
        uint8_t *bytes;
        size_t size;
        char err[512], path[1024];
        if (!tev_serialize(&p, &bytes, &size, err, sizeof err))
            return 1;
        snprintf(path, sizeof path, "%s/seed-%02d", dir, k);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0)
            return 1;
        free(bytes);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
        return write_seeds(argv[2]);
#ifdef TEV_PROTO_SEEDS_ONLY
    return 2;
#else
    test_round_trip();
    test_tev_layout();
    test_hostile_fields();
    test_hostile_bytes();
    test_truncations();
    test_random();
    test_channel_map();
    test_fuzz_findings();
    return test_finish("test_tev_proto");
#endif
}
