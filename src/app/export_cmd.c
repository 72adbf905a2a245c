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
#include "seq_cmd.h"

/* Float output is the CPU reference's (batch.c map_linear says why): the backend becomes the
 * CPU for it, said once on stderr by command NAME. */
static void cpu_fallback(ht_options *o, const char *name)
{
    if (encode_format_is_float(o->format) && o->backend != HT_BACKEND_CPU) {
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
    snprintf(buf, len, "%s/%.*s.%s", outdir, n, base, ext);
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

/* Resolves o->format (the extension of -o, --format, the streams' rules) and checks the
 * combination of -o, the number of inputs NPOS and --format/--depth/--display-window.
 * Returns 0, or 2 after a usage error. */
static int resolve_format(ht_options *o, int npos)
{
    char msg[HT_ERR_MAX + 128], why[HT_ERR_MAX];
    bool to_stdout = strcmp(o->output, "-") == 0, dir = !to_stdout && is_directory(o->output);
    encode_format ext = to_stdout || dir ? ENCODE_AUTO : encode_format_of_path(o->output);
    encode_format f = o->format;
    if (f == ENCODE_AUTO && to_stdout)
        return commands_usage_error("export", "-o - (standard output) needs --format");
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
    if (npos > 1 && !to_stdout && !dir)
        return commands_usage_error("export",
                                    "with several inputs, -o must be an existing directory");
    if (o->depth != 8 && o->depth != 16)
        return commands_usage_error("export", "--depth is 8 or 16");
    bool linear = encode_format_is_float(f);
    if (linear && o->depth != 8) {
        snprintf(msg, sizeof msg, "--depth is PNG's: %s holds the linear output as floats",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (!encode_format_accepts(f, o->display_window ? 4 : 3, linear ? 32 : o->depth, why,
                               sizeof why)) {
        snprintf(msg, sizeof msg, "%s%s", why,
                 o->display_window ? " (--display-window: RGBA)" : "");
        return commands_usage_error("export", msg);
    }
    o->format = (int)f;
    return 0;
}

int cmd_export(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_EXPORT, "export", &o, &pos, &npos);
    if (early >= 0)
        return early;
    int status = 0;
    if (npos == 0 || !o.output || !o.output[0])
        status = commands_usage_error("export", "needs at least one input and -o OUT (see --help)");
    else
        status = resolve_format(&o, npos);
    if (status != 2)
        status = export_view_check(&o, pos[0]);
    if (status != 2)
        cpu_fallback(&o, "export");
    if (status != 2) {
        char (*outs)[4096] = calloc((size_t)npos, sizeof *outs);
        const char **outp = calloc((size_t)npos, sizeof *outp);
        if (!outs || !outp) {
            fprintf(stderr, "hdrtone export: out of memory\n");
            status = 1;
        } else {
            bool dir = strcmp(o.output, "-") != 0 && is_directory(o.output);
            for (int i = 0; i < npos; i++) {
                if (dir)
                    output_in_dir(o.output, pos[i], encode_format_extension(o.format), outs[i],
                                  sizeof outs[i]);
                else
                    snprintf(outs[i], sizeof outs[i], "%s", o.output);
                outp[i] = outs[i];
            }
            status = check_outputs((const char **)pos, outp, npos);
            if (status == 0 && o.display.mode != HT_VIEW_TONEMAP)
                status = export_view_run(&o, (const char **)pos, outp, npos);
            else if (status == 0 && npos == 1 && seq_cmd_is_sequence(pos[0]))
                status = seq_export(&o, pos[0], outp[0]);
            else if (status == 0)
                status = batch_export(&o, (const char **)pos, outp, npos, NULL);
        }
        free(outs);
        free(outp);
    }
    free(pos);
    return status;
}
