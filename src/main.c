/* hdrtone: subcommand -> function. */
#define _DEFAULT_SOURCE /* readlink */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "commands.h"
#include "compare_cmd.h"
#include "handoff.h"
#include "image_formats.h"
#include "seq_cmd.h"
#include "viewer.h"

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
        !o.reference && !(npos == 1 && seq_cmd_is_sequence(pos[0]))) {   /* a sequence plays */
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
    if (npos == 0 && !o.listen)   /* --listen alone waits for images */
        pos[npos++] = (char *)default_image();
    int status = viewer_main(&o, pos, npos);
    free(pos);
    return status;
}

static void print_usage(FILE *f)
{
    fprintf(f,
            "usage: hdrtone [view] [FILE|FOLDER...] [options] open HDR images in a window\n"
            "       hdrtone SEQ [--fps N] [--frames A-B] play a sequence (shot.%%04d.exr)\n"
            "       hdrtone export IN... -o OUT [options] tone-map to 8-bit sRGB PNG\n"
            "       hdrtone stats IN [--json] [options]   statistics, histogram and curve\n"
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
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } commands[] = {{"export", cmd_export}, {"stats", cmd_stats}, {"bench", cmd_bench},
                   {"analyze", cmd_analyze}, {"compare", cmd_compare}, {"view", cmd_view}};
    for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 2, argv + 2);
    return cmd_view(argc - 1, argv + 1);   /* hdrtone FILE... */
}
