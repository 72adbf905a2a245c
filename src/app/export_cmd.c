/* hdrtone export IN... -o OUT: the checks of -o, --format and the inputs, then the batch
 * (batch.c), or a sequence (seq_cmd.c). */
#include "commands.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "encode.h"
#include "export_view.h"
#include "png_export.h"
#include "seq_cmd.h"

/* Float output is the CPU reference's (batch.c map_linear says why): the backend (resolved:
 * not auto) becomes the CPU for it, said once on stderr by command NAME when it was the GPU. */
static void cpu_fallback(ht_options *o, const char *name)
{
    if (encode_format_is_linear(o->format, o->depth) && o->backend == HT_BACKEND_GPU) {
        fprintf(stderr, "hdrtone %s: the GPU has no linear output yet: the CPU reference "
                        "writes it\n", name);
        o->backend = HT_BACKEND_CPU;
    }
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* OUTDIR/NAME.EXT for input IN (its base name, extension replaced). */
static void output_in_dir(const char *outdir, const char *in, const char *ext, char *buf,
                          size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", in);
    const char *base = basename(tmp);
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    size_t d = strlen(outdir);
    snprintf(buf, len, "%s%s%.*s.%s", outdir, d && outdir[d - 1] == '/' ? "" : "/", n, base, ext);
}

/* Before anything is written: no output may be one of the inputs (export would replace the
 * picture it reads), and no two inputs may share an output (the second would silently replace
 * the first: a/x.exr and b/x.exr, or x.exr and x.hdr, into one directory). */
static int check_outputs(const char **in, const char **out, int n)
{
    for (int i = 0; i < n; i++) {
        struct stat so;
        if (strcmp(out[i], "-") == 0)   /* standard output: a stream, never a file here */
            continue;
        if (stat(out[i], &so) == 0)
            for (int k = 0; k < n; k++) {
                struct stat si;
                if (stat(in[k], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
                    fprintf(stderr, "hdrtone export: %s: the output would replace the input %s\n",
                            out[i], in[k]);
                    return 2;
                }
            }
        for (int k = 0; k < i; k++)
            if (strcmp(out[i], out[k]) == 0) {
                fprintf(stderr, "hdrtone export: %s and %s would both be written to %s\n", in[k],
                        in[i], out[i]);
                return 2;
            }
    }
    return 0;
}

/* Where -o sends the pictures. */
typedef enum { OUT_STREAM, OUT_DIR, OUT_FILE, OUT_PATTERN } out_kind;

/* The extension of PATH's file name (after its last '.', not a leading one), or NULL. */
static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : NULL;
}

/* -o OUT for NPOS inputs (SEQ_IN: one sequence): standard output; a folder (one that exists,
 * a name ending in '/', or for several stills a name without an extension: made when
 * missing); a sequence's pattern; else one file. */
static out_kind output_kind(const char *out, int npos, bool seq_in)
{
    if (strcmp(out, "-") == 0)
        return OUT_STREAM;
    if (is_directory(out) || out[strlen(out) - 1] == '/' ||
        (!seq_in && npos > 1 && !extension_of(out)))
        return OUT_DIR;
    return seq_in ? OUT_PATTERN : OUT_FILE;
}

/* The formats a file can be, for messages: "png (.png), jpeg (.jpg), ...". */
static void file_formats(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int f = ENCODE_AUTO + 1; f < ENCODE_FORMAT_COUNT && n < len; f++)
        if (f != ENCODE_RGB24 && f != ENCODE_Y4M)
            n += (size_t)snprintf(buf + n, len - n, "%s%s (.%s)", n ? ", " : "",
                                  encode_format_name(f), encode_format_extension(f));
}

/* A file -o must name its format (never PNG data under another name), and a pattern goes
 * with a sequence only. Returns 0, or 2 after a usage error. */
static int check_file_name(const ht_options *o, out_kind kind)
{
    char msg[HT_ERR_MAX + 512], formats[256];
    const char *ext = extension_of(o->output);
    file_formats(formats, sizeof formats);
    if (kind == OUT_FILE && seq_cmd_is_sequence(o->output)) {
        snprintf(msg, sizeof msg, "-o %s is a sequence's pattern, but the input is one image "
                 "(a sequence: shot.%%04d.exr -o out/%%04d.png)", o->output);
        return commands_usage_error("export", msg);
    }
    if (kind != OUT_FILE && kind != OUT_PATTERN)
        return 0;
    if (ext && encode_format_of_path(o->output) == ENCODE_AUTO) {
        snprintf(msg, sizeof msg, "-o %s: hdrtone does not write .%s files; the formats: %s, "
                 "and rgb24 or y4m to -o - (--format)", o->output, ext, formats);
        return commands_usage_error("export", msg);
    }
    if (!ext && o->format == ENCODE_AUTO) {
        snprintf(msg, sizeof msg, "-o %s names no format: add an extension (%s) or --format; "
                 "a folder: %s/", o->output, formats, o->output);
        return commands_usage_error("export", msg);
    }
    return 0;
}

/* --hdr's output: a 16-bit PNG, AVIF, JPEG XL or 10-bit y4m of the tone mapping (or another
 * view but the OCIO one: export_view_check). Returns 0,
 * or 2 after a usage error that says why the combination cannot be. */
static int check_hdr(const ht_options *o, encode_format f)
{
    if (o->hdr == HT_TRANSFER_SRGB)
        return 0;
    const char *kind = ht_enum_name(tonemap_hdr_transfers, o->hdr), *why = NULL;
    char msg[HT_ERR_MAX];
    if (encode_format_is_float(f))
        why = "holds the linear output, which no transfer encodes (its PRIMARIES= say the "
              "display space; --hdr is for display-encoded files: .png, .avif, .jxl)";
    else if (f == ENCODE_RGB24)
        why = "frames are 8-bit RGB: too few codes for an HDR signal";
    else if (f == ENCODE_Y4M && o->tm.display_space != HT_DISPLAY_SPACE_REC2020)
        why = "frames are BT.2020's (what HDR10 video carries): --display-space rec2020";
    else if (o->depth == 8)
        why = "with --depth 8 would band: 256 codes over the whole signal (--depth 16, the "
              "default with --hdr)";
    else if (o->display.mode == HT_VIEW_OCIO)
        why = "with --view ocio: the OCIO view encodes for its config's display (a PQ one of "
              "the config writes a PQ PNG without --hdr)";
    if (!why)
        return 0;
    snprintf(msg, sizeof msg, "--hdr %s: %s %s", kind, encode_format_name(f), why);
    return commands_usage_error("export", msg);
}

/* Resolves o->format (the extension of -o, --format, the streams' rules) and checks the
 * combination of -o (of KIND), the number of inputs NPOS and --format/--depth/
 * --display-window. Returns 0, or 2 after a usage error. */
static int resolve_format(ht_options *o, out_kind kind, int npos)
{
    char msg[HT_ERR_MAX + 128], why[HT_ERR_MAX];
    bool to_stdout = kind == OUT_STREAM;
    int status = check_file_name(o, kind);
    if (status)
        return status;
    encode_format ext = kind == OUT_FILE || kind == OUT_PATTERN
                            ? encode_format_of_path(o->output) : ENCODE_AUTO;
    encode_format f = o->format;
    if (f == ENCODE_AUTO)
        f = ext != ENCODE_AUTO ? ext : ENCODE_PNG;
    if (ext != ENCODE_AUTO && ext != f) {
        snprintf(msg, sizeof msg, "-o %s names %s, --format says %s", o->output,
                 encode_format_name(ext), encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if ((f == ENCODE_RGB24 || f == ENCODE_Y4M) && !to_stdout) {
        snprintf(msg, sizeof msg, "%s is a stream for video tools: -o - (standard output)",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (to_stdout && npos > 1 && f != ENCODE_RGB24 && f != ENCODE_Y4M) {
        snprintf(msg, sizeof msg, "-o - --format %s takes one input (several: rgb24 or y4m)",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (npos > 1 && kind == OUT_FILE)
        return commands_usage_error("export", "with several inputs, -o is a folder (made when "
                                              "missing) or - (standard output)");
    if ((status = check_hdr(o, f)) != 0)
        return status;
    bool uhdr = f == ENCODE_JPEG && o->hdr != HT_TRANSFER_SRGB;
    if (uhdr && kind == OUT_PATTERN)
        return commands_usage_error("export", "--hdr: an Ultra HDR JPEG is written for one "
                                              "image, not a sequence's frames (.png, .avif, .jxl)");
    if (uhdr && !options_given(o, "display-space")) {   /* the base's: an SDR picture's */
        ht_options def;
        options_default(&def);
        o->tm.display_space = def.tm.display_space;
    }
    if (o->depth != 8 && o->depth != 16 && !(o->depth == 32 && f == ENCODE_JXL))
        return commands_usage_error("export", "--depth is 8 or 16 (32: JPEG XL's float linear "
                                              "output, .jxl)");
    bool linear = encode_format_is_linear(f, o->depth);
    if (encode_format_is_float(f) && o->depth != 8) {
        snprintf(msg, sizeof msg, "--depth is PNG's: %s holds the linear output as floats",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    int bits = linear ? 32 : uhdr ? 8 : o->depth;   /* an Ultra HDR JPEG's two 8-bit JPEGs */
    if (!encode_format_accepts(f, o->display_window ? 4 : 3, bits, why, sizeof why)) {
        snprintf(msg, sizeof msg, "%s%s", why,
                 o->display_window ? " (--display-window: RGBA)" : "");
        return commands_usage_error("export", msg);
    }
    o->format = (int)f;
    return 0;
}

/* Warns of the options given that the output or the input leaves without effect (they
 * would otherwise be silently ignored). */
static void warn_ignored(const ht_options *o, bool seq_in)
{
    static const char *const seq_only[] = {"frames", "adapt", "fps", "cut-threshold",
                                           "analysis"};
    const char *f = encode_format_name(o->format);
    bool codec = o->format == ENCODE_AVIF || o->format == ENCODE_JXL;
    if (options_given(o, "quality") && o->format != ENCODE_JPEG && !codec)
        fprintf(stderr, "hdrtone export: --quality is JPEG's, AVIF's and JPEG XL's: ignored for "
                        "%s\n", f);
    if (options_given(o, "depth") && o->format != ENCODE_PNG && !codec)
        fprintf(stderr, "hdrtone export: --depth is PNG's, AVIF's and JPEG XL's: ignored for "
                        "%s\n", f);
    for (size_t i = 0; !seq_in && i < sizeof seq_only / sizeof seq_only[0]; i++)
        if (options_given(o, seq_only[i]))
            fprintf(stderr, "hdrtone export: --%s is a sequence's (an input like "
                            "shot.%%04d.exr): ignored for one image\n", seq_only[i]);
}

/* Makes the folders that the files OUT[0..N) go into (render outputs make their folders).
 * False after the message. */
static bool make_output_dirs(const char *const *out, int n)
{
    char err[HT_ERR_MAX];
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], "-") != 0 && !file_make_parent_dirs(out[i], err, sizeof err)) {
            fprintf(stderr, "hdrtone export: %s\n", err);
            return false;
        }
    return true;
}

/* The batch of NPOS stills POS into -o (of KIND) with BE: each input's output, the checks of
 * them, the folders, the export. Returns the exit status. */
static int export_stills(cmd_backend *be, const ht_options *o, char **pos, int npos,
                         out_kind kind)
{
    char(*outs)[4096] = calloc((size_t)npos, sizeof *outs);
    const char **outp = calloc((size_t)npos, sizeof *outp);
    int status = 1;
    if (!outs || !outp) {
        fprintf(stderr, "hdrtone export: out of memory\n");
    } else {
        for (int i = 0; i < npos; i++) {
            if (kind == OUT_DIR)
                output_in_dir(o->output, pos[i], encode_format_extension(o->format), outs[i],
                              sizeof outs[i]);
            else
                snprintf(outs[i], sizeof outs[i], "%s", o->output);
            outp[i] = outs[i];
        }
        status = check_outputs((const char **)pos, outp, npos);
        if (status == 0 && !make_output_dirs(outp, npos))
            status = 1;
        else if (status == 0 && o->display.mode != HT_VIEW_TONEMAP)
            status = export_view_run(be, o, (const char **)pos, outp, npos);
        else if (status == 0)
            status = batch_export(be, o, (const char **)pos, outp, npos, NULL);
    }
    free(outs);
    free(outp);
    return status;
}

int export_run(ht_options *o, char **pos, int npos)
{
    bool seq_in = npos == 1 && seq_cmd_is_sequence(pos[0]);
    out_kind kind = output_kind(o->output, npos, seq_in);
    int status = resolve_format(o, kind, npos);
    if (status == 0)
        status = export_view_check(o, pos[0]);
    char err[HT_ERR_MAX];
    cmd_backend *be = NULL;
    if (status == 0) {
        warn_ignored(o, seq_in);
        if (!(be = backend_create(o, err, sizeof err))) {
            fprintf(stderr, "hdrtone export: %s\n", err);
            status = 1;
        }
        cpu_fallback(o, "export");
    }
    char seq_out[4096];   /* a sequence into a folder: the input's pattern there */
    if (be && seq_in && kind == OUT_DIR)
        output_in_dir(o->output, pos[0], encode_format_extension(o->format), seq_out,
                      sizeof seq_out);
    if (be)
        status = seq_in ? seq_export(be, o, pos[0], kind == OUT_DIR ? seq_out : o->output)
                        : export_stills(be, o, pos, npos, kind);
    backend_destroy(&be);
    return status;
}

int cmd_export(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_EXPORT, "export", &o, &pos, &npos);
    if (early >= 0)
        return early;
    int status = npos == 0 || !o.output || !o.output[0]
                     ? commands_usage_error("export", "needs at least one input and -o OUT (see "
                                                      "--help)")
                     : export_run(&o, pos, npos);
    free(pos);
    return status;
}
