/* hdrtone: subcommand -> function. */
#define _DEFAULT_SOURCE /* readlink */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "bench_gui.h"
#include "commands.h"
#include "compare_cmd.h"
#include "handoff.h"
#include "image_formats.h"
#include "seq_cmd.h"
#include "viewer.h"
#include "viewer_bench.h"

/* The bundled image: installed beside the program (PREFIX/share/hdrtone, as `cmake --install`
 * and the package lay it out), else the source tree's assets/ of a build folder. */
static const char *default_image(void)
{
    static char path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", path, PATH_MAX);
    if (n > 0) {
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        if (slash) {
            strcpy(slash, "/../share/hdrtone/default.exr");
            if (access(path, R_OK) == 0)
                return path;
        }
    }
    return HT_DEFAULT_IMAGE;
}

int cmd_view(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_VIEW, "view", &o, &pos, &npos);
    if (early >= 0) {
        if (early == 0 && o.help) {   /* the viewer's keys after its options */
            fputs("\nkeys:\n", stdout);
            actions_print(stdout);
        }
        return early;
    }
    /* Files given to a plain `hdrtone FILE...` go to the hdrtone running for this user, if
     * one does (handoff.h), and never to another program. */
    if (npos > 0 && !o.listen && !o.new_window && !o.watch && !o.screenshot && !o.keys &&
        !o.reference && !o.session && !(npos == 1 && seq_cmd_is_sequence(pos[0]))) {   /* a sequence plays */
        char err[HT_ERR_MAX];
        int handed = handoff_send(pos, npos, err, sizeof err);
        if (err[0])
            fprintf(stderr, "hdrtone: %s%s\n", err, handed < 0 ? "; opening a window" : "");
        else if (handed == 0)
            fprintf(stderr, "hdrtone: handed %d file%s to the running hdrtone "
                            "(--new-window opens another)\n", npos, npos == 1 ? "" : "s");
        if (handed >= 0) {
            free(pos);
            return handed;
        }
    }
    if (npos == 0 && !o.listen && !o.session)   /* --listen alone waits for images */
        pos[npos++] = (char *)default_image();
    int status = viewer_main(&o, pos, npos);
    free(pos);
    return status;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
} COMMANDS[] = {{"export", cmd_export}, {"stats", cmd_stats}, {"bench", cmd_bench},
                {"analyze", cmd_analyze}, {"compare", cmd_compare}, {"view", cmd_view}};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

/* The edit distance (insertions, deletions, substitutions) of A and B, B at most 15 long. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t nb = strlen(b), row[16];
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            row[j] = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            diag = up;
        }
    }
    return row[nb];
}

/* The command nearest to WORD by edit distance (the first of equals). */
static const char *nearest_command(const char *word)
{
    size_t best = 0;
    for (size_t i = 1; i < N_COMMANDS; i++)
        if (edit_distance(word, COMMANDS[i].name) < edit_distance(word, COMMANDS[best].name))
            best = i;
    return COMMANDS[best].name;
}

static void print_usage(FILE *f)
{
    fprintf(f,
            "usage: hdrtone [view] [FILE|FOLDER...] [options] open HDR images in a window\n"
            "       hdrtone SEQ [--fps N] [--frames A-B] play a sequence (shot.%%04d.exr)\n"
            "       hdrtone export IN... -o OUT [options] tone-map to 8-bit sRGB PNG\n"
            "       hdrtone stats IN... [--json] [options] statistics, histogram and curve\n"
            "       hdrtone export SEQ -o OUT_SEQ [--adapt ...] a sequence, adapted in time\n"
            "       hdrtone analyze SEQ -o DIR        each frame's analysis (sharded export)\n"
            "       hdrtone bench [FILE | --synthetic WxH] GPU time of every pass\n"
            "       hdrtone compare REF TEST... [--json]  FLIP and error metrics\n"
            "       hdrtone COMMAND --help | --help | --version | --formats\n"
            "Formats: OpenEXR, Radiance .hdr, PFM, JPEG XL, TIFF, DPX, Cineon, PSD, WebP,\n"
            "HEIF/AVIF, JPEG 2000, DDS, TGA, BMP, PNM and camera RAW/DNG, recognised by\n"
            "content (hdrtone --formats: with the libraries' versions).\n");
}

int main(int argc, char **argv)
{
    bench_gui_register(viewer_bench_frames);   /* bench's viewer frame with GUI (bench_gui.h) */
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "help") == 0)) {
        print_usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help-markdown") == 0) {   /* for docs/ */
        options_print_markdown(stdout, false);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help-test-hooks") == 0) {   /* tests/README.md */
        options_print_markdown(stdout, true);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help-keys-markdown") == 0) {   /* for docs/ */
        actions_print_markdown(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help-tev-markdown") == 0) {   /* for docs/ */
        actions_print_tev_markdown(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help-completion") == 0) {   /* for bash completion */
        options_print_completion(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--formats") == 0) {
        image_formats_print(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("hdrtone %s\n", HT_VERSION);
        return 0;
    }
    for (size_t i = 0; argc >= 2 && i < N_COMMANDS; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            return COMMANDS[i].fn(argc - 2, argv + 2);
    if (argc >= 2 && argv[1][0] != '-' && access(argv[1], F_OK) != 0 &&
        !seq_cmd_is_sequence(argv[1])) {   /* a typo'd command is no file to view */
        fprintf(stderr, "hdrtone: %s: no such command or file (the nearest command: %s; "
                        "hdrtone --help lists them)\n", argv[1], nearest_command(argv[1]));
        return strpbrk(argv[1], "./") ? 1 : 2;   /* a missing file (as handed off), or usage */
    }
    return cmd_view(argc - 1, argv + 1);   /* hdrtone FILE... */
}
