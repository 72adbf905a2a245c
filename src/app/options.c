#include "options.h"

#include "compare_cmd.h"

#include "encode.h"
#include "flip.h"
#include "human.h"
#include "image.h"
#include "legend.h"
#include "options_table.h"
#include "settings.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const ht_enum options_backends[] = {
    {HT_BACKEND_GPU, "gpu", "GPU pipeline"},
    {HT_BACKEND_CPU, "cpu", "CPU"},
    {HT_BACKEND_AUTO, "auto", "automatic"},
    {0, NULL, NULL},
};

static const ht_enum CHROMAS[] = {{444, "444", "4:4:4"}, {420, "420", "4:2:0"}, {0, NULL, NULL}};

const ht_enum options_grey_kernels[] = {
    {HT_GREY_GLOBAL, "global", "global atomics"},
    {HT_GREY_SHARED, "shared", "a shared histogram per group"},
    {HT_GREY_PRIVATE, "private", "private 8-bit counters per thread"},
    {0, NULL, NULL},
};

const ht_enum options_curve_formats[] = {
    {HT_CURVE_STATS, "stats", "stats"},
    {HT_CURVE_PCOND, "pcond", "pcond -x"},
    {0, NULL, NULL},
};

#define FORMAT_ROW_(id, name) {ENCODE_##id, #name, #name},
const ht_enum options_formats[] = {
    {ENCODE_AUTO, "auto", "by the output's extension"},
    ENCODE_FORMATS(FORMAT_ROW_)
    {0, NULL, NULL},
};
#undef FORMAT_ROW_

static const ht_enum OFF_ON[] = {{0, "off", "off"}, {1, "on", "on"}, {0, NULL, NULL}};

#define OFF(field) offsetof(ht_options, field)
/* The display modes' options: the viewer and export. */
#define VIEWS (HT_CMD_VIEW | HT_CMD_EXPORT)
#define TM (HT_CMD_ALL & ~HT_CMD_COMPARE)   /* the commands that tone-map */
#define HUMAN (HT_CMD_VIEW | HT_CMD_EXPORT | HT_CMD_STATS | HT_CMD_BENCH)   /* human.h's options */
/* Sequences: exported, measured, played (the viewer) and benchmarked (bench --playback). */
#define SEQ (HT_CMD_VIEW | HT_CMD_EXPORT | HT_CMD_STATS | HT_CMD_BENCH)
/* The rows of the two kinds that need no range, choices or short name. */
#define FLAG(name, cmds, field, help) \
    {name, 0, OPT_FLAG, cmds, OFF(field), 0, 0, NULL, NULL, help, 0}
#define STRING(name, cmds, field, metavar, help) \
    {name, 0, OPT_STRING, cmds, OFF(field), 0, 0, NULL, metavar, help, 0}
/* A row of a setting of settings.h (its name and limits are there). */
#define SETTING(id, kind, cmds, field, metavar, help) \
    {NULL, 0, kind, cmds, OFF(field), 0, 0, NULL, metavar, help, HT_SET_##id}
static const opt_def OPTIONS[] = {
    SETTING(BINS, OPT_INT, TM, tm.bins, "N",
     "histogram bins over the luminance range"),
    SETTING(LMIN, OPT_DOUBLE, TM, tm.lmin, "CD",
     "lower end of the world luminance range in cd/m^2 (with --lmax; default: automatic)"),
    SETTING(LMAX, OPT_DOUBLE, TM, tm.lmax, "CD",
     "upper end of the world luminance range in cd/m^2 (with --lmin; default: automatic)"),
    SETTING(LDMAX, OPT_DOUBLE, TM, tm.ldmax, "CD",
     "display white, cd/m^2; it changes the picture only with --ceiling human (the other "
     "mappings' output is relative to it)"),
    SETTING(DRANGE, OPT_DOUBLE, TM, tm.drange, "R",
     "display dynamic range Ldmax/Ldmin"),
    {"ceiling", 0, OPT_CHOICE, TM, OFF(tm.ceiling), 0, 0, tonemap_ceilings, "KIND",
     "histogram ceiling: linear (Ward '97), human (contrast sensitivity, pcond -s) or none "
     "(plain equalisation)", 0},
    {"transfer", 0, OPT_TRANSFER, TM, OFF(tm.transfer), 0, 0, NULL, "srgb|gamma[:G]",
     "display encoding: the sRGB curve or a plain gamma (G default 2.2)", 0},
    {"scale", 0, OPT_DOUBLE, TM, OFF(tm.scale), 1e-30, 1e30, NULL, "S",
     "cd/m^2 per image unit; overrides the file's units (Radiance: 179 lm/W, OpenEXR: "
     "whiteLuminance, else relative) in the luminance figures and false colour", 0},
    {"view", 0, OPT_CHOICE, VIEWS, OFF(display.mode), 0, 0, display_modes, "MODE",
     "what is shown: the tone mapping, a plain exposure (no tone mapping), a false-colour "
     "luminance map as Radiance's falsecolor draws it (in cd/m^2, see --scale), one channel "
     "alone over its own range (see --channel), or an OCIO display/view (see --ocio)", 0},
    SETTING(EXPOSURE, OPT_DOUBLE, VIEWS, display.exposure, "EV",
     "--view exposure: value x 2^EV + offset, then the display encoding (--transfer; with "
     "--hdr, value 1 at 203 cd/m^2, BT.2408's reference white); "
     "--view ocio: value x 2^EV into the OCIO view"),
    SETTING(OFFSET, OPT_DOUBLE, VIEWS, display.offset, "X",
     "--view exposure: added after the exposure"),
    SETTING(FC_MAX, OPT_DOUBLE_AUTO, VIEWS, display.fc_max, "CD|auto",
     "--view falsecolor: top of the scale in cd/m^2, or auto (falsecolor -s)"),
    SETTING(FC_LOG, OPT_INT, VIEWS, display.fc_decades, "N",
     "--view falsecolor: logarithmic over N decades below the top, 0 linear (falsecolor -log)"),
    SETTING(FC_STEPS, OPT_INT, VIEWS, display.fc_steps, "N",
     "--view falsecolor: steps of the legend, bands and contours (falsecolor -n)"),
    {"fc-style", 0, OPT_CHOICE, VIEWS, OFF(display.fc_style), 0, 0, display_fc_styles, "STYLE",
     "--view falsecolor: smooth, bands (falsecolor -cb) or contour lines (-cl)", 0},
    {"channel", 0, OPT_CHOICE, VIEWS, OFF(display.channel), 0, 0, display_channels, "C",
     "--view channel: R, G, B, A or Y (luminance) of the part and layer loaded (--part, "
     "--layer: any channel of any layer)", 0},
    {"channel-palette", 0, OPT_CHOICE, VIEWS, OFF(display.ch_palette), 0, 0,
     display_channel_palettes, "P",
     "--view channel: auto (diverging around 0 for a signed range, else sequential), grey, "
     "sequential or diverging, over the channel's own range", 0},
    STRING("ocio", VIEWS, display.ocio_config, "FILE",
           "--view ocio: the OCIO config (default: $OCIO, else the bundled one, with the ACES "
           "config's names; docs/colour.md)"),
    STRING("ocio-display", VIEWS, display.ocio_display, "NAME",
           "--view ocio: the config's display (default: its default display)"),
    STRING("ocio-view", VIEWS, display.ocio_view, "NAME",
           "--view ocio: the display's view (default: the display's default view)"),
    STRING("ocio-look", VIEWS, display.ocio_look, "NAME",
           "--view ocio: a look of the config applied before the view (default: none)"),
    {"legend", 0, OPT_CHOICE, HT_CMD_EXPORT, OFF(legend), 0, 0, OFF_ON, "on|off",
     "--view falsecolor: the legend (values in cd/m^2) left of the picture", 0},
    {"preset", 0, OPT_CHOICE, TM, OFF(preset), 0, 0, tonemap_presets, "NAME",
     "pcond: as Radiance's pcond (foveal sampling with its point samples, Radiance weights, "
     "100 bins, Ldmax 100, Dr 100, its range rules); options after it change it", 0},
    {"sampling", 0, OPT_CHOICE, TM, OFF(tm.sampling), 0, 0, tonemap_samplings, "MODE",
     "histogram samples: every pixel, or the foveal image (one box-averaged sample per degree)", 0},
    SETTING(FOV, OPT_DOUBLE, TM, tm.fov, "DEG",
     "foveal sampling: the picture's longer side spans DEG degrees"),
    {"point-samples", 0, OPT_CHOICE, TM, OFF(tm.point_samples), 0, 0, OFF_ON, "on|off",
     "foveal sampling: add pcond's random single-pixel samples (16 per foveal pixel)", 0},
    {"luminance", 0, OPT_CHOICE, TM, OFF(tm.luminance), 0, 0, tonemap_luminances, "WEIGHTS",
     "luminance weights of R, G, B: the Y row of the file's primaries, Rec. 709's, or "
     "Radiance's (pcond)", 0},
    STRING("colorspace", TM, colorspace, "NAME",
           "the colour space of the input's R, G, B instead of the file's (docs/colour.md): "
           "rec709 (srgb-linear), rec2020, p3d65, acescg, aces2065-1, xyz, radiance; with --view "
           "ocio also any colour space of the OCIO config"),
    {"display-space", 0, OPT_CHOICE, TM, OFF(tm.display_space), 0, 0, colour_display_spaces,
     "SPACE", "the display's primaries and curve (rec2020 and rec709-gamma24: gamma 2.4 unless "
     "--transfer says otherwise); outputs are tagged with it", 0},
    {"gamut", 0, OPT_CHOICE, TM, OFF(tm.gamut), 0, 0, colour_gamuts, "RULE",
     "colours outside the display's gamut: clip each channel, or compress (desaturate towards "
     "the pixel's luminance, hue kept)", 0},
    {"white", 0, OPT_CHOICE, TM, OFF(tm.white), 0, 0, colour_whites, "RULE",
     "the white of files without adoptedNeutral: absolute colorimetric, or adapted to the "
     "display's (Bradford; for ACEScg renders that omit adoptedNeutral)", 0},
    FLAG("linear", TM, tm.force_linear, "force the linear mapping (pcond -l)"),
    FLAG("veil", HUMAN, tm.veil,
         "veiling glare: light scattered in the eye veils what surrounds bright areas (pcond -v)"),
    FLAG("acuity", HUMAN, tm.acuity,
         "loss of acuity: dark areas blurred to the detail the eye resolves there (pcond -a)"),
    FLAG("color-loss", HUMAN, tm.color_loss,
         "loss of colour: dim (mesopic, scotopic) areas lose their colour (pcond -c)"),
    FLAG("human", HUMAN, human,
         "--veil --acuity --color-loss --ceiling human (pcond -h); options after it change it"),
    {"curve-format", 0, OPT_CHOICE, HT_CMD_STATS, OFF(curve_format), 0, 0, options_curve_formats,
     "FMT", "pcond: print only the curve, as pcond -x does (100 lines \"Lw Ld\")", 0},
    {"backend", 0, OPT_CHOICE, HT_CMD_EXPORT | HT_CMD_STATS | HT_CMD_BENCH | HT_CMD_ANALYZE,
     OFF(backend), 0, 0, options_backends,
     "NAME", "where to tone-map: gpu (the GPU pipeline, also on a software renderer), cpu (on "
     "the CPU's cores, exactly as the CPU reference), or auto: the GPU when its renderer is "
     "hardware, else the CPU (faster than Mesa's llvmpipe)", 0},
    {"output", 'o', OPT_STRING, HT_CMD_EXPORT | HT_CMD_ANALYZE, OFF(output), 0, 0, NULL, "PATH",
     "output file (one input; .png, .jpg, .jpeg, .hdr, .pfm, .avif or .jxl; its folders are "
     "made), folder "
     "(a name ending in /, or several inputs; made when missing), or - for standard output "
     "(PNG unless --format); a sequence: a pattern (out/%04d.png), a folder or -; analyze: the "
     "folder of the analyses", 0},
    {"format", 0, OPT_CHOICE, HT_CMD_EXPORT | HT_CMD_BENCH | HT_CMD_VIEW, OFF(format), 0, 0,
     options_formats, "FMT",
     "output format; auto: by -o's extension (PNG for a folder or -); rgb24 (raw RGB8 frames) "
     "and y4m (YUV4MPEG2 4:4:4, full range, BT.709) stream to -o -; hdr (Radiance) and pfm: "
     "the linear output, as pcond writes it; the viewer: its export's (S), written as export "
     "writes it, on the CPU backend", 0},
    {"depth", 0, OPT_INT, HT_CMD_EXPORT | HT_CMD_BENCH, OFF(depth), 8, 32, NULL, "8|16|32",
     "bits per channel of PNG, AVIF and JPEG XL output (16 with --hdr; AVIF stores 10); 32: "
     "JPEG XL's float linear output (1 = Ldmax, the intensity target)", 0},
    {"hdr", 0, OPT_CHOICE, HT_CMD_EXPORT | HT_CMD_BENCH | HT_CMD_STATS | HT_CMD_VIEW, OFF(hdr),
     0, 0, tonemap_hdr_transfers, "KIND", "an HDR display's output (docs/hdr.md): pq (SMPTE ST 2084) or hlg (BT.2100), "
     "16-bit PNG tagged cICP/mDCv/cLLi, AVIF or JPEG XL; .jpg: an Ultra HDR gain-map JPEG "
     "(the SDR export as its base, --display-space as SDR's); defaults --ldmax 1000, --drange "
     "10000, --display-space rec2020; the signal is Ward's (Ld - Ldmin)/(Ldmax - Ldmin) of "
     "Ldmax cd/m^2; --view exposure, falsecolor, channel: their picture with its white (1.0) at "
     "203 cd/m^2, BT.2408's reference white (not .jpg); stats: the output's MaxCLL, MaxFALL and "
     "mastering display; the viewer: its "
     "export (S) writes it (by --format, default png) as export does, the window stays SDR", 0},
    {"chroma", 0, OPT_CHOICE, HT_CMD_EXPORT | HT_CMD_BENCH, OFF(chroma), 0, 0, CHROMAS, "444|420",
     "--format y4m --hdr: the 10-bit frames' chroma sampling", 0},
    {"quality", 0, OPT_INT, HT_CMD_EXPORT | HT_CMD_BENCH | HT_CMD_VIEW, OFF(quality), 1, 100, NULL, "Q",
     "JPEG quality (4:4:4 chroma); AVIF and JPEG XL: lossy at Q (default: lossless)", 0},
    FLAG("display-window", HT_CMD_EXPORT, display_window,
         "write the display window (RGBA), the area outside the data window transparent "
         "(default: the data window, RGB)"),
    {"jobs", 'j', OPT_INT, HT_CMD_EXPORT | HT_CMD_BENCH, OFF(jobs), 1, 64, NULL, "N",
     "threads that decode and encode files while the GPU works, each doing either (default: "
     "the CPU cores, 2 to 64; N from 1 to 64); with the CPU backend also the tone mapping's "
     "threads", 0},
    FLAG("json", HT_CMD_STATS | HT_CMD_BENCH, json,
         "print one JSON object (stats: one line per input, JSON Lines)"),
    FLAG("curve", HT_CMD_STATS, curve, "stats: print the response curve in the text too"),
    STRING("region", HT_CMD_STATS, region, "X0,Y0,X1,Y1",
           "statistics of this rectangle too (inclusive, data-window pixels; JSON: region)"),
    STRING("pixel", HT_CMD_STATS, pixel, "X,Y",
           "this pixel's values too (data-window pixels, as --region; JSON: pixel)"),
    {"peaks", 0, OPT_INT, HT_CMD_STATS | HT_CMD_VIEW, OFF(peaks), 0, 4096, NULL, "K",
     "the K brightest local peaks (stats: also list them; view: X marks them, 0 = 8)", 0},
    {"min-distance", 0, OPT_INT, HT_CMD_STATS | HT_CMD_VIEW, OFF(min_distance), 1, 1 << 20, NULL,
     "D", "minimum distance between peaks, pixels", 0},
    {"histogram-kernel", 0, OPT_CHOICE, HT_CMD_STATS | HT_CMD_BENCH | HT_CMD_VIEW,
     OFF(histogram_kernel), 0, 0, options_grey_kernels, "KIND",
     "strategy of the 256-bin grey histogram", 0},
    STRING("synthetic", HT_CMD_BENCH, synthetic, "WxH",
           "benchmark a synthetic image of this size (log-uniform 1e-3..1e4 cd/m^2, varied "
           "colours)"),
    {"runs", 0, OPT_INT, HT_CMD_BENCH, OFF(runs), 3, 100000, NULL, "N",
     "timed runs per pass (at least 3)", 0},
    FLAG("export", HT_CMD_BENCH, bench_export,
         "time the export pipeline on FILE... (outputs to a temporary folder): each stage's time "
         "per frame and busy fraction, frames per second"),
    FLAG("decode", HT_CMD_BENCH, bench_decode,
         "time hdrtone's decode of each FILE on one thread beside OpenEXR's own into a reused "
         "buffer (the floor), measured in the same run, and each OpenEXR decoder"),
    FLAG("open", HT_CMD_BENCH, bench_open,
         "time FILE from its open to its first tone-mapped frame, headless, beside OpenEXR's "
         "own decode on all cores into a reused buffer plus the upload (the floor), and, in "
         "loads of their own, to the first rows the decode's progress tells (first_rows_ms)"),
    FLAG("dispatches", HT_CMD_BENCH, bench_dispatches,
         "time each piece of GPU work of a frame (dispatches, copies, clears, read-backs) by "
         "timestamps, with the GPU's idle time before each, instead of the passes' table; "
         "with a human-vision option, the frame without them too (text, not --json)"),
    FLAG("playback", HT_CMD_BENCH, bench_playback,
         "time the viewer's playback of the sequence SEQ, headless: frames decoded ahead, "
         "uploaded and tone-mapped with --adapt; frames per second and each stage's time"),
    SETTING(MSAA, OPT_INT, HT_CMD_VIEW | HT_CMD_BENCH, msaa, "N",
     "samples per pixel of the scene pass: 1, 2, 4 or 8 (capped at GL_MAX_SAMPLES)"),
    {"latency", 0, OPT_INT, HT_CMD_VIEW, OFF(latency), 0, 1, NULL, "0|1",
     "1: each frame shows the previous frame's curve and is read once, not twice (streams); "
     "only when the analysis reads the picture shown (see \"One frame late\")", 0},
    FLAG("continuous", HT_CMD_VIEW, continuous,
         "redraw every vsync instead of on events (for measuring)"),
    FLAG("no-panels", HT_CMD_VIEW, no_panels,
         "start with the panels hidden: the picture fills the window (Ctrl+H shows them)"),
    SETTING(UI_SCALE, OPT_DOUBLE, HT_CMD_VIEW | HT_CMD_BENCH, ui_scale, "F",
     "size of the GUI's text and panels, times the monitor's content scale (Xft.dpi / 96)"),
    STRING("window", HT_CMD_VIEW | HT_CMD_BENCH, window, "WxH",
           "the window's size in screen pixels (bench: the viewer frame with GUI's window; "
           "default the image's size, at least 640x400)"),
    {"layout", 0, OPT_CHOICE, HT_CMD_VIEW, OFF(layout), 0, 0, ht_layouts, "KIND",
     "single, side-by-side (the image and the reference, else the next image) or grid (the "
     "open images, 9 at most); key J", 0},
    STRING("reference", HT_CMD_VIEW, reference, "FILE",
           "open FILE too, as the reference to compare with (wipe; Z shows it; T the mode)"),
    STRING("listen", HT_CMD_VIEW, listen, "[HOST:]PORT",
           "receive images from renderers over tev's protocol (pbrt, tev's clients); 'default' "
           "or a port alone listen on 127.0.0.1 (tev's port 14158); see \"Live renders\""),
    FLAG("new-window", HT_CMD_VIEW, new_window,
         "open a window even when hdrtone runs already (else the files go to it)"),
    FLAG("watch", HT_CMD_VIEW, watch, "reload the shown file when it changes on disk (key U)"),
    STRING("session", HT_CMD_VIEW, session, "FILE",
           "open the session FILE (images, reference, settings, view); Ctrl+Shift+S saves "
           "the window's session to it (default ./hdrtone-session.json)"),
    STRING("keys", HT_CMD_VIEW, keys, "KEYS",
           TEST_HOOK "key names, space-separated, replayed after the first frame"),
    STRING("screenshot", HT_CMD_VIEW, screenshot, "FILE",
           TEST_HOOK "save the window's pixels as PNG after --frames frames, then exit"),
    {"frames", 0, OPT_INT, HT_CMD_VIEW, OFF(frames), 1, 100000, NULL, "N|A-B",
     "A-B: the frames of a sequence to play (N: the frames a test draws before its screenshot)", 0},
    STRING("part", HT_CMD_ALL, part, "N|NAME",
           "part of a multi-part OpenEXR file: its index counted from 0, as the viewer and "
           "stats number parts, or its name (default: 0)"),
    STRING("layer", HT_CMD_ALL, layer, "NAME",
           "layer (channel-name prefix, e.g. diffuse for diffuse.R,G,B); '' = un-prefixed channels "
           "(default: un-prefixed R,G,B or Y, else the first layer with them)"),
    {"max-pixels", 0, OPT_DOUBLE, HT_CMD_ALL, OFF(max_pixels), 1, 1e15, NULL, "N",
     "refuse images with more pixels, before allocating them (default 268435456 = 2^28)", 0},
    FLAG("sdr-base", HT_CMD_ALL, sdr_base,
         "an Ultra HDR JPEG: open its SDR base picture alone (SDR white at 203 cd/m^2), not "
         "the HDR rendition of base and gain map"),
    {"frames", 0, OPT_STRING, HT_CMD_EXPORT | HT_CMD_STATS | HT_CMD_ANALYZE | HT_CMD_BENCH,
     OFF(frame_range), 0, 0, NULL, "A-B",
     "frames of a sequence (IN a pattern: shot.%04d.exr or shot.####.exr; default: from its "
     "first to its last file)", 0},
    STRING("adapt", SEQ, adapt, "none|exp:T|human",
           "temporal adaptation of a sequence: none (every frame a still), exp:T (time constant T "
           "seconds) or human (the eye's time course; default)"),
    {"fps", 0, OPT_DOUBLE, SEQ, OFF(fps), 0.001, 1e6, NULL, "N",
     "frames per second of a sequence", 0},
    {"cut-threshold", 0, OPT_DOUBLE, SEQ, OFF(cut_threshold), 0.01,
     1000, NULL, "STOPS",
     "adaptation starts afresh where a frame's log-average differs from the adapted one by "
     "more (a scene cut; default: never)", 0},
    STRING("analysis", HT_CMD_EXPORT, analysis, "DIR",
           "the frames' analyses from hdrtone analyze: the adaptation before --frames is replayed "
           "from them"),
    /* compare's (compare_cmd.c). */
    {"metric", 0, OPT_CHOICE, HT_CMD_COMPARE, OFF(metric), 0, 0, compare_metrics, "NAME",
     "the metric of --fail-above, of the text line and of -o's map: flip (FLIP's mean), mse, "
     "rmse, psnr, relmse or mae", 0},
    FLAG("json", HT_CMD_COMPARE, json,
         "one JSON object per test on its own line (every metric and FLIP's pooled values)"),
    {"output", 'o', OPT_STRING, HT_CMD_COMPARE, OFF(output), 0, 0, NULL, "MAP",
     "write the error map of --metric: .png (colour map; --map grey) or .exr (the float "
     "values); a directory for several tests (TEST's name, .png)", 0},
    {"map", 0, OPT_CHOICE, HT_CMD_COMPARE, OFF(map_kind), 0, 0, compare_map_kinds, "KIND",
     "-o's PNG: color (FLIP in magma, the difference diverging, the others viridis) or grey "
     "(round(255 clamp(error, 0, 1)))", 0},
    {"fail-above", 0, OPT_DOUBLE, HT_CMD_COMPARE, OFF(fail_above), -1e30, 1e30, NULL, "X",
     "exit 1 when a test's --metric is worse than X (above X; for psnr below X)", 0},
    SETTING(PPD, OPT_DOUBLE, HT_CMD_COMPARE, ppd, "N",
     "FLIP's viewing conditions in pixels per degree (default: 67.02, FLIP's: 0.7 m from a "
     "0.7 m wide display of 3840 pixels)"),
    {"tonemapper", 0, OPT_CHOICE, HT_CMD_COMPARE, OFF(flip_tonemapper), 0, 0, flip_tonemappers,
     "NAME", "HDR-FLIP's tone mapper", 0},
    {"backend", 0, OPT_CHOICE, HT_CMD_COMPARE, OFF(backend), 0, 0, options_backends, "NAME",
     "where FLIP and the metrics run: gpu, cpu (the CPU reference, on every core) or auto (the "
     "GPU when its renderer is hardware, else the CPU)", 0},
    {"help", 'h', OPT_FLAG, HT_CMD_ALL, OFF(help), 0, 0, NULL, NULL, "show this help", 0},
};
#undef STRING
#undef FLAG
#undef VIEWS
#undef SEQ
#undef HUMAN
#undef TM
#undef OFF
#define N_OPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])
/* ht_options.given has a bit per row. */
_Static_assert(N_OPTIONS <= HT_OPTIONS_MAX, "ht_options.given holds HT_OPTIONS_MAX options");

const opt_def *const options_rows = OPTIONS;
const size_t options_nrows = N_OPTIONS;

void options_default(ht_options *o)
{
    memset(o, 0, sizeof *o);
    tonemap_params_default(&o->tm);
    o->backend = HT_BACKEND_AUTO;
    o->depth = 8;
    o->chroma = 444;
    o->quality = ENCODE_JPEG_QUALITY_DEFAULT;
    o->msaa = (int)ht_settings[HT_SET_MSAA].def;
    o->ui_scale = ht_settings[HT_SET_UI_SCALE].def;
    o->ppd = ht_settings[HT_SET_PPD].def;
    o->frames = 3;
    o->runs = 50;
    o->min_distance = 16;
    o->histogram_kernel = HT_GREY_SHARED;
    o->fps = 24;
    display_params_default(&o->display);
    o->legend = true;
    o->fail_above = NAN;
}

static bool parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

/* --transfer srgb|gamma[:G] */
static bool set_transfer(const char *value, tonemap_params *tm, char *err, size_t errlen)
{
    char name[16];
    const char *colon = strchr(value, ':');
    int transfer;
    size_t n = colon ? (size_t)(colon - value) : strlen(value);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : 0), value);
    bool known = n < sizeof name && ht_enum_find(tonemap_transfers, name, &transfer);
    if (known && transfer == HT_TRANSFER_GAMMA) {
        double g = 2.2;
        if (colon && (!parse_double(colon + 1, &g) || g < 0.1 || g > 10)) {
            snprintf(err, errlen, "--transfer: gamma '%s' is not a number in 0.1..10", colon + 1);
            return false;
        }
        tm->transfer = transfer;
        tm->gamma = g;
        return true;
    }
    if (known && !colon) {
        tm->transfer = transfer;
        return true;
    }
    const char *srgb = ht_enum_name(tonemap_transfers, HT_TRANSFER_SRGB);
    const char *gamma = ht_enum_name(tonemap_transfers, HT_TRANSFER_GAMMA);
    snprintf(err, errlen, "--transfer: '%s' is not %s, %s or %s:G", value, srgb, gamma, gamma);
    return false;
}

static bool set_value(const opt_def *d, const char *value, ht_options *o, char *err,
                      size_t errlen)
{
    char *field = (char *)o + d->offset;
    double v;
    int idx;
    switch (d->kind) {
    case OPT_INT:
        if (!parse_double(value, &v) || v != floor(v) || v < opt_min(d) || v > opt_max(d)) {
            snprintf(err, errlen, "--%s: '%s' is not an integer in %g..%g", opt_name(d), value,
                     opt_min(d), opt_max(d));
            return false;
        }
        *(int *)field = (int)v;
        return true;
    case OPT_DOUBLE:
        if (!parse_double(value, &v) || v < opt_min(d) || v > opt_max(d)) {
            snprintf(err, errlen, "--%s: '%s' is not a number in %g..%g", opt_name(d), value,
                     opt_min(d), opt_max(d));
            return false;
        }
        *(double *)field = v;
        return true;
    case OPT_STRING:
        *(const char **)field = value;
        return true;
    case OPT_CHOICE:
        if (!ht_enum_find(d->choices, value, &idx)) {
            char names[128];
            ht_enum_list(d->choices, "|", names, sizeof names);
            snprintf(err, errlen, "--%s: '%s' is not one of %s", opt_name(d), value, names);
            return false;
        }
        *(int *)field = idx;
        return true;
    case OPT_TRANSFER:
        return set_transfer(value, &o->tm, err, errlen);
    case OPT_DOUBLE_AUTO:
        if (strcmp(value, "auto") == 0) {
            *(double *)field = 0;
            return true;
        }
        if (!parse_double(value, &v) || v < opt_min(d) || v > opt_max(d)) {
            snprintf(err, errlen, "--%s: '%s' is not auto or a number in %g..%g", opt_name(d),
                     value, opt_min(d), opt_max(d));
            return false;
        }
        *(double *)field = v;
        return true;
    case OPT_FLAG:
        break;
    }
    return false;
}

static const opt_def *find_option(const char *arg, unsigned command, const char **value)
{
    *value = NULL;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *d = &OPTIONS[i];
        if (!(d->commands & command))
            continue;
        if (arg[1] != '-') {
            if (d->short_name && arg[1] == d->short_name) {
                if (arg[2] == '\0')
                    return d;
                if (d->kind != OPT_FLAG) {   /* -j4 as well as -j 4 */
                    *value = arg + 2;
                    return d;
                }
            }
            continue;
        }
        size_t n = strlen(opt_name(d));
        if (strncmp(arg + 2, opt_name(d), n) == 0 && (arg[2 + n] == '\0' || arg[2 + n] == '=')) {
            if (arg[2 + n] == '=')
                *value = arg + 3 + n;
            return d;
        }
    }
    return NULL;
}

/* --display-space's own curve where --transfer is not given: BT.1886's 2.4 for the spaces of
 * video (rec2020, rec709-g24); the others keep the curve they have. */
static void display_curve(ht_options *o)
{
    int ds = o->tm.display_space;
    if ((ds == HT_DISPLAY_SPACE_REC2020 || ds == HT_DISPLAY_SPACE_REC709_G24) &&
        !options_given(o, "transfer")) {
        o->tm.transfer = HT_TRANSFER_GAMMA;
        o->tm.gamma = 2.4;
    }
}

/* --colorspace resolved into o->colour; --display-space's curve where --transfer is not given. */
static bool options_colour(ht_options *o, char *err, size_t errlen)
{
    memset(&o->colour, 0, sizeof o->colour);
    if (o->colorspace) {
        const colour_space *s = colour_space_find(o->colorspace);
        if (!s && o->display.mode == HT_VIEW_OCIO) {
            /* A colour space of the OCIO config: checked when the config is loaded. */
            o->display.ocio_input = o->colorspace;
        } else if (!s) {
            char names[160];
            colour_space_list(", ", names, sizeof names);
            snprintf(err, errlen, "--colorspace: '%s' is not one of %s", o->colorspace, names);
            return false;
        }
        if (s)
            colour_from_space(&o->colour, s, IMAGE_COLOUR_OPTION);
    }
    display_curve(o);
    return true;
}

/* --hdr: its transfer, and its defaults where the options are not given (after
 * options_colour, whose display-space curve it replaces); not the viewer's window, which
 * stays SDR (its export applies them). */
static bool options_hdr(ht_options *o, unsigned command, char *err, size_t errlen)
{
    if (o->hdr == HT_TRANSFER_SRGB || command == HT_CMD_VIEW)
        return true;
    if (options_given(o, "transfer")) {
        snprintf(err, errlen, "--hdr %s and --transfer: an HDR output has its own curve",
                 ht_enum_name(tonemap_hdr_transfers, o->hdr));
        return false;
    }
    options_hdr_defaults(o);
    return true;
}

bool options_parse(int argc, char **argv, unsigned command, ht_options *o, char **pos,
                   int *npos, char *err, size_t errlen)
{
    bool only_positional = false;
    *npos = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || arg[1] == '\0') {
            pos[(*npos)++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = true;
            continue;
        }
        const char *value;
        const opt_def *d = find_option(arg, command, &value);
        if (!d) {
            snprintf(err, errlen, "%s: unknown option (see --help)", arg);
            return false;
        }
        /* A second value would silently replace the first: say so instead. Not yet in the
         * viewer, whose tests' helper (tests/viewer/viewer_common.sh) appends options after its own
         * --frames, until those tests are rewritten. */
        size_t row = (size_t)(d - OPTIONS);
        uint64_t bit = (uint64_t)1 << (row % 64), *word = &o->given[row / 64];
        if ((*word & bit) && command != HT_CMD_VIEW) {
            snprintf(err, errlen, "%s%.*s%s--%s: given twice", d->short_name ? "-" : "",
                     d->short_name ? 1 : 0, &d->short_name, d->short_name ? "/" : "", opt_name(d));
            return false;
        }
        *word |= bit;
        if (d->kind == OPT_FLAG) {
            if (value) {
                snprintf(err, errlen, "--%s takes no value", opt_name(d));
                return false;
            }
            *(bool *)((char *)o + d->offset) = true;
            if (d->offset == offsetof(ht_options, human))   /* later options override it */
                human_params_all(&o->tm);
            continue;
        }
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "%s needs a value (%s)", arg, d->metavar);
                return false;
            }
            value = argv[++i];
        }
        if (d->offset == offsetof(ht_options, frames) && strchr(value, '-')) {
            o->frame_range = value;   /* the viewer's --frames A-B: a sequence's frames */
            continue;
        }
        if (!set_value(d, value, o, err, errlen))
            return false;
        if (d->offset == offsetof(ht_options, tm.scale))
            o->scale_given = true;
        if (d->offset == offsetof(ht_options, preset))   /* later options override it */
            tonemap_apply_preset(&o->tm, o->preset);
    }
    if (!options_colour(o, err, errlen) || !options_hdr(o, command, err, errlen))
        return false;
    if ((o->tm.lmin > 0) != (o->tm.lmax > 0)) {
        snprintf(err, errlen, "--lmin and --lmax go together");
        return false;
    }
    if (o->tm.lmin > 0 && o->tm.lmin >= o->tm.lmax) {
        snprintf(err, errlen, "--lmin (%g) must be below --lmax (%g)", o->tm.lmin, o->tm.lmax);
        return false;
    }
    if (o->msaa & (o->msaa - 1)) {   /* the table's range is 1..8: 3, 5, 6, 7 are not samples */
        snprintf(err, errlen, "--msaa: %d samples per pixel: 1, 2, 4 or 8", o->msaa);
        return false;
    }
    if (o->max_pixels > 0 && o->max_pixels != floor(o->max_pixels)) {
        snprintf(err, errlen, "--max-pixels: '%g' is not a whole number", o->max_pixels);
        return false;
    }
    return true;
}

void options_sdr_base(const ht_options *o, ht_options *sdr)
{
    ht_options def;
    options_default(&def);
    *sdr = *o;
    sdr->hdr = HT_TRANSFER_SRGB;
    sdr->depth = 8;
    sdr->format = ENCODE_JPEG;
    sdr->tm.ldmax = def.tm.ldmax;
    sdr->tm.drange = def.tm.drange;
    sdr->tm.transfer = def.tm.transfer;
    sdr->tm.gamma = def.tm.gamma;
    display_curve(sdr);
}

bool options_given(const ht_options *o, const char *name)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strcmp(opt_name(&OPTIONS[i]), name) == 0 &&
            (o->given[i / 64] & ((uint64_t)1 << (i % 64))))
            return true;
    return false;
}

bool options_tonemap(const ht_options *o, const hdr_image *img, tonemap_params *tm, char *err,
                     size_t errlen)
{
    *tm = o->tm;
    return tonemap_set_colour(tm, &img->colour, err, errlen);
}

image_load_options options_load(const ht_options *o)
{
    image_load_options lo = {.part = o->part, .layer = o->layer,
                             .max_pixels = (uint64_t)o->max_pixels,
                             .rgbe_mid = o->preset == HT_PRESET_PCOND,
                             .sdr_base = o->sdr_base,
                             .colour = o->colour};
    return lo;
}

bool options_adapt(const ht_options *o, adapt_params *ap, char *err, size_t errlen)
{
    bool human = human_requested(&o->tm);
    *ap = (adapt_params){.mode = human ? HT_ADAPT_NONE : HT_ADAPT_HUMAN, .fps = o->fps,
                         .cut_stops = o->cut_threshold};
    if (o->adapt && !adapt_parse(o->adapt, ap, err, errlen))
        return false;
    if (human && ap->mode != HT_ADAPT_NONE) {
        snprintf(err, errlen, "--adapt with --veil, --acuity or --color-loss: only none");
        return false;
    }
    return true;
}
