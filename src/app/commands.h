/* The subcommands; each takes the arguments after its name and returns the exit status
 * (0 success, 1 failure of some input, 2 usage error). */
#ifndef HT_COMMANDS_H
#define HT_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "imgstats.h"
#include "options.h"
#include "pipeline.h"

int cmd_export(int argc, char **argv);   /* export_cmd.c */
/* export's work once its options are parsed: O's checks against -o (o->output) and the NPOS
 * inputs POS, the backend o->backend names, the export (o->format resolved on the way); the
 * exit status, each problem said on stderr (the viewer's export with --hdr or --format). */
int export_run(ht_options *o, char **pos, int npos);
int cmd_stats(int argc, char **argv);
int cmd_bench(int argc, char **argv);   /* bench.c */

/* The start of every command: defaults, then ARGV parsed for COMMAND (named NAME in messages)
 * into *o and *pos (positional arguments, *npos of them; the caller frees *pos). --backend
 * auto stays for backend_create to decide. Returns -1 to go on, or the exit status to return
 * at once (2 after a usage error, 1 out of memory). */
int commands_parse(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos);

/* commands_parse for cmd_view, cmd_export, cmd_stats, cmd_analyze and cmd_bench, then with
 * --help: COMMAND's usage text, a blank line and its options (the viewer's keys after them)
 * on standard output, *pos freed and 0 returned. */
int commands_start(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos);

/* Prints stats' report of IMG (path PATH, statistics ST, analysis R, output statistics S)
 * as O asks: JSON, the text, or only the curve. GPU_HUMAN: the GPU's human-vision report on
 * IMG (commands_gpu_human; NULL: the CPU reference analyses it for the report). */
void commands_print_stats(FILE *f, const char *path, const hdr_image *img,
                          const image_stats *st, const ht_options *o, const tonemap_result *r,
                          const imgstats *s, const human_report *gpu_human);

/* The GPU's human-vision report on the image B's pipeline analysed last, where O asks for
 * the options on the GPU backend; else NULL. */
const human_report *commands_gpu_human(cmd_backend *b, const ht_options *o);

/* Prints S as a JSON string (quoted, escaped). */
void commands_json_str(FILE *f, const char *s);

/* Prints "hdrtone CMD: MSG" and returns 2 (usage error). */
int commands_usage_error(const char *cmd, const char *msg);

#endif
