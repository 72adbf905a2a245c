/* Command-line options: one table (options.c) drives parsing, --help and the table of
 * docs/command-line.md. */
#ifndef HT_OPTIONS_H
#define HT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "adapt.h"
#include "display.h"
#include "image.h"
#include "tonemap.h"

/* Commands, as a bit mask: which options each one takes. */
enum {
    HT_CMD_VIEW = 1u << 0,
    HT_CMD_EXPORT = 1u << 1,
    HT_CMD_STATS = 1u << 2,
    HT_CMD_BENCH = 1u << 3,
    HT_CMD_ANALYZE = 1u << 4,
    HT_CMD_COMPARE = 1u << 5,
    HT_CMD_ALL = 0x3Fu,
};

/* HT_BACKEND_AUTO becomes one of the others as a command starts (commands_parse). */
enum { HT_BACKEND_GPU = 0, HT_BACKEND_CPU = 1, HT_BACKEND_AUTO = 2 };
enum { HT_CURVE_STATS = 0, HT_CURVE_PCOND = 1 };   /* stats --curve-format */

/* Rows of the options table that ht_options.given has room for. */
#define HT_OPTIONS_MAX 128

typedef struct ht_options {
    tonemap_params tm;
    bool scale_given;         /* --scale given: it overrides the units of the file (units.h) */
    const char *colorspace;   /* --colorspace NAME (NULL: the file's); resolved into colour */
    image_colour colour;      /* the space --colorspace names (source IMAGE_COLOUR_OPTION),
                                 else zeroed: image_load keeps the file's */
    display_params display;   /* --view and its options (display.h); automatic parts resolved
                                 per image (display_resolve) */
    bool legend;              /* export --view falsecolor: the legend beside the picture */
    const char *region;       /* stats --region X0,Y0,X1,Y1 (NULL: none) */
    const char *pixel;        /* stats --pixel X,Y (NULL: none) */
    bool curve;               /* stats: print the response curve in the text too */
    int backend;              /* HT_BACKEND_* */
    const char *output;       /* export: -o FILE or DIR */
    int jobs;                 /* export: decoder + encoder threads */
    bool display_window;      /* export: the display window, RGBA, transparent outside the data */
    bool sdr_base;            /* an Ultra HDR JPEG input: its SDR base alone (--sdr-base) */
    int format;               /* export: encode_format (encode.h; ENCODE_AUTO: by extension) */
    int depth;                /* export: bits per channel, 8 or 16 (PNG) */
    int hdr;                  /* export: HT_TRANSFER_PQ or _HLG (--hdr), else HT_TRANSFER_SRGB */
    int chroma;               /* export --format y4m --hdr: 444 or 420 */
    int quality;              /* export: JPEG quality, 1..100 */
    bool json;                /* stats: JSON output */
    int msaa;                 /* viewer: samples per pixel */
    int layout;               /* viewer: HT_LAYOUT_* (settings.h) */
    int latency;              /* viewer: frames of latency, 0 or 1 (pipeline_set_latency) */
    bool continuous;          /* viewer: redraw every vsync */
    bool no_panels;           /* viewer: start with the panels hidden (the picture alone) */
    double ui_scale;          /* viewer: the GUI's scale on top of the monitor's */
    const char *window;       /* viewer: the window's size, "WxH" (NULL: 960x600) */
    const char *reference;    /* viewer: the image to compare with (NULL: none) */
    const char *listen;       /* viewer: --listen [HOST:]PORT for tev's protocol (NULL = off) */
    bool new_window;          /* viewer: never hand the files to a listening instance */
    bool watch;               /* viewer: reload the shown file when it changes on disk */
    const char *keys;         /* viewer test hook: keys replayed after the first frame */
    const char *session;      /* viewer: the session file to open (Ctrl+Shift+S saves to it) */
    const char *screenshot;   /* viewer test hook: save the window's pixels here and exit */
    int frames;               /* viewer test hook: frames to draw before the screenshot */
    const char *synthetic;    /* bench: WxH of a synthetic image instead of a file */
    int runs;                 /* bench: timed runs per pass */
    bool bench_export;        /* bench: time the export pipeline on the files */
    bool bench_playback;      /* bench: time the viewer's playback of a sequence */
    bool bench_decode;        /* bench: time the decode of the files against the floor */
    bool bench_open;          /* bench: time one file's open to its first picture */
    bool bench_dispatches;    /* bench: each piece of GL work in a frame, by timestamps */
    int peaks;                /* stats: the K brightest local peaks (0 = none) */
    int min_distance;         /* stats: minimum distance between peaks, pixels */
    int histogram_kernel;     /* grey histogram strategy: HT_GREY_* */
    int preset;               /* HT_PRESET_*: the last --preset (applied to tm where it stood) */
    bool human;               /* --human given (human_params_all applied to tm where it stood) */
    int curve_format;         /* stats: HT_CURVE_* */
    const char *part;         /* --part N|NAME of multi-part OpenEXR files (NULL = 0) */
    const char *layer;        /* --layer NAME: channel-name prefix (NULL = default) */
    double max_pixels;        /* --max-pixels: refuse larger images (0 = the default) */
    /* Image sequences (seq_cmd.h). */
    const char *frame_range;  /* --frames A-B of a sequence (NULL: every frame that exists) */
    const char *adapt;        /* --adapt none|exp:T|human (NULL: human, adapt.h) */
    double fps;               /* --fps: frames per second of a sequence */
    double cut_threshold;     /* --cut-threshold: stops of a scene cut (0: none) */
    const char *analysis;     /* export --analysis DIR: the analyses of hdrtone analyze */
    /* compare (compare_cmd.c). */
    int metric;               /* --metric: COMPARE_METRIC_* (compare_cmd.h) */
    int map_kind;             /* --map: COMPARE_MAP_COLOR or COMPARE_MAP_GREY */
    double fail_above;        /* --fail-above X (NAN: off) */
    double ppd;               /* --ppd: FLIP's pixels per degree (0: FLIP's default) */
    int flip_tonemapper;      /* --tonemapper: HDR-FLIP's (flip_tonemapper) */
    bool help;
    uint64_t given[HT_OPTIONS_MAX / 64];   /* the options on the command line, a bit per row
                                              of the table (options_given) */
} ht_options;

/* The tables of the enumerations of the options (ht_enum.h); tonemap.h has those of
 * tonemap_params. */
extern const ht_enum options_backends[];       /* HT_BACKEND_*: gpu, cpu, auto */
extern const ht_enum options_grey_kernels[];   /* HT_GREY_*: global, shared, private */
extern const ht_enum options_curve_formats[];  /* HT_CURVE_*: stats, pcond */
extern const ht_enum options_formats[];        /* encode_format: auto, png, jpeg, ... */

/* Fills the defaults of the table. */
void options_default(ht_options *o);

/* Parses ARGV[0..ARGC) (no program or command name) for COMMAND into *o; positional
 * arguments are collected, in order, into POS (room for ARGC entries), their count in *npos.
 * Returns false with "option: reason" in err, also for an option given twice (except in the
 * viewer, where the last value counts). */
bool options_parse(int argc, char **argv, unsigned command, ht_options *o, char **pos,
                   int *npos, char *err, size_t errlen);

/* The options of the SDR picture an Ultra HDR JPEG's base is (export --hdr -o x.jpg): O's,
 * without --hdr, --ldmax and --drange (the HDR rendition's), 8 bits, JPEG, the display
 * space's own SDR curve; what `export -o x.jpg` without them would use. */
void options_sdr_base(const ht_options *o, ht_options *sdr);

/* --hdr's output settings on O (nothing without --hdr): its transfer, and where not given
 * --ldmax 1000 (HT_HDR_LDMAX), --drange 10000, --display-space rec2020, --depth 16. The
 * commands' parsing applies them, except the viewer's (its window stays SDR; its export
 * applies them to a copy). */
void options_hdr_defaults(ht_options *o);

/* The quality O's output is encoded at (encode_image_to's): AVIF and JPEG XL lossless (0)
 * unless --quality was given, the others --quality or its default. */
int options_quality(const ht_options *o);

/* Whether the option --NAME (a name of the table) was on O's command line. */
bool options_given(const ht_options *o, const char *name);

/* O's tone-mapping parameters for IMG: o->tm with the colour of IMG's space on o's display
 * (tonemap_set_colour). IMG's tags passed image_load's check, so this cannot fail for an
 * image it loaded; false with the reason in ERR otherwise. */
bool options_tonemap(const ht_options *o, const hdr_image *img, tonemap_params *tm, char *err,
                     size_t errlen);

/* What --part, --layer and --max-pixels ask of the image loader (the strings stay O's), and
 * under --preset pcond Radiance's own decoding of .hdr pictures (image_load_options.rgbe_mid). */
image_load_options options_load(const ht_options *o);

/* The temporal adaptation of a sequence that O asks for into *ap: --adapt (default human;
 * none with the human-vision options, pcond's, which analyse twice and filter the picture),
 * --fps and --cut-threshold. False with the reason in err when --adapt is malformed, or asks
 * for an adaptation with the human-vision options. */
bool options_adapt(const ht_options *o, adapt_params *ap, char *err, size_t errlen);

/* Prints the options of COMMAND as --help lines. The test hooks (options whose help starts
 * "test hook:", for the tests to drive the program) are left out here, in the completion and
 * in the docs' table; options_print_markdown(f, true) lists them. */
void options_print_help(FILE *f, unsigned command);

/* Prints one line per option for shell completion: the commands that take it (comma list),
 * --NAME, then its choices when it has a fixed set. */
void options_print_completion(FILE *f);

/* Prints every option as a Markdown table (docs/command-line.md), or with TEST_HOOKS only the
 * test hooks (hdrtone --help-test-hooks). */
void options_print_markdown(FILE *f, bool test_hooks);

#endif
