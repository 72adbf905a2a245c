/* libFuzzer harness: any bytes through tev's packet parser, read as a stream of packets the
 * way the server frames them. Each packet that parses is written back, parsed again and
 * compared, its data and vector-graphics commands are read in full and its channel names
 * mapped, so a bound the parser forgot shows as an out-of-bounds read here. Every build
 * links it with tests/fuzz/driver.c for a smoke run; scripts/fuzz with libFuzzer. */
#include <stdlib.h>
#include <string.h>

#include "tev_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_str(tev_str a, tev_str b)
{
    if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
        abort();
}

/* Parses the serialized form of P and checks it says the same. */
static void round_trip(const tev_packet *p, const tev_limits *lim)
{
    uint8_t *bytes;
    size_t size;
    char err[256];
    if (!tev_serialize(p, &bytes, &size, err, sizeof err))
        abort();
    tev_packet q;
    if (!tev_parse(bytes, size, lim, &q, err, sizeof err))
        abort();
    if (q.type != p->type || q.grab_focus != p->grab_focus || q.width != p->width ||
        q.height != p->height || q.x != p->x || q.y != p->y ||
        q.channel_count != p->channel_count || q.append != p->append ||
        q.command_count != p->command_count || q.commands_size != p->commands_size ||
        q.data_floats != p->data_floats)
        abort();
    same_str(q.name, p->name);
    same_str(q.selector, p->selector);
    for (int c = 0; c < p->channel_count; c++) {
        same_str(q.channels[c], p->channels[c]);
        if (q.offsets[c] != p->offsets[c] || q.strides[c] != p->strides[c])
            abort();
    }
    if (p->data_floats && memcmp(q.data, p->data, p->data_floats * 4) != 0)
        abort();
    free(bytes);
}

static void use(const tev_packet *p)
{
    volatile float sink = 0;
    size_t pixels = (size_t)p->width * (size_t)p->height;
    if (p->data)
        for (int c = 0; c < p->channel_count; c++)
            for (size_t i = 0; i < pixels; i++)
                sink += tev_sample(p, c, i);
    tev_vg_command cmd;
    int n = 0;
    for (size_t pos = 0; pos < p->commands_size; n++)
        pos = tev_vg_command_at(p, pos, &cmd);
    if (n != p->command_count)
        abort();
    if (p->channel_count > 0) {
        const char *names[TEV_MAX_CHANNELS];
        size_t lens[TEV_MAX_CHANNELS];
        for (int c = 0; c < p->channel_count; c++) {
            names[c] = p->channels[c].p;
            lens[c] = p->channels[c].len;
        }
        tev_channel_map map;
        char err[256];
        if (!tev_channel_map_make(names, lens, p->channel_count, NULL, &map, err, sizeof err))
            abort();
        tev_channel_map_make(names, lens, p->channel_count, "a", &map, err, sizeof err);
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A small pixel limit keeps the fuzzer on parsing, not on reading huge honest tiles. */
    tev_limits lim = {(uint64_t)1 << 14, tev_max_packet((uint64_t)1 << 14)};
    char err[512];
    while (size >= 4) {
        uint32_t len;
        if (!tev_check_length(data, size, &lim, &len, err, sizeof err) || len > size)
            break;
        tev_packet p;
        if (tev_parse(data, len, &lim, &p, err, sizeof err)) {
            use(&p);
            round_trip(&p, &lim);
        }
        data += len;
        size -= len;
    }
    return 0;
}
