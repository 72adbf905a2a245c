/* The subcommands; each takes the arguments after its name and returns the exit status
 * (0 success, 1 failure of some input, 2 usage error). */
#ifndef HT_COMMANDS_H
#define HT_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "imgstats.h"
#include "pipeline.h"

int cmd_export(int argc, char **argv);   /* export_cmd.c */
int cmd_stats(int argc, char **argv);
int cmd_bench(int argc, char **argv);   /* bench.c */

/* The start of every command: defaults, then ARGV parsed for COMMAND (named NAME in messages)
 * into *o and *pos (positional arguments, *npos of them; the caller frees *pos), and
 * --backend auto decided (o->backend then says which backend runs; bench only with --export).
 * Returns -1 to go on, or the exit status to return at once (2 after a usage error, 1 out of
 * memory). */
int commands_parse(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos);

/* commands_parse for cmd_view, cmd_export, cmd_stats, cmd_analyze and cmd_bench, then with
 * --help: COMMAND's usage text, a blank line and its options (the viewer's keys after them)
 * on standard output, *pos freed and 0 returned. */
int commands_start(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos);

/* Prints stats' report of IMG (path PATH, statistics ST, analysis R, output statistics S)
 * as O asks: JSON, the text, or only the curve. */
void commands_print_stats(FILE *f, const char *path, const hdr_image *img,
                          const image_stats *st, const ht_options *o, const tonemap_result *r,
                          const imgstats *s);

/* Prints S as a JSON string (quoted, escaped). */
void commands_json_str(FILE *f, const char *s);

/* Prints "hdrtone CMD: MSG" and returns 2 (usage error). */
int commands_usage_error(const char *cmd, const char *msg);

/* The process's GPU pipeline in a headless GL context, made on first use (NULL, reason in
 * err, when there is no GPU). */
pipeline *commands_pipeline(char *err, size_t errlen);

/* The process's headless GL context, made current on first use (no pipeline). False with the
 * reason in err when there is no GPU. */
bool commands_gl_context(char *err, size_t errlen);

/* The GPU backend's start on IMG: uploads it (pipeline_upload) to the process's pipeline
 * (commands_pipeline) for tone mapping with O. The GPU cannot take the human-vision options
 * on an image in pieces (larger than a texture: its human-vision stage needs it in one); then
 * the textures are released again and NOTE gets the reason and that the CPU reference runs
 * the image instead (the caller's note, after the file's name): the caller runs it on the CPU.
 * Else NOTE is "" and IMG stays uploaded. False, reason in err. */
bool commands_gpu_upload(const ht_options *o, const hdr_image *img, char *note, size_t len,
                         char *err, size_t errlen);

/* Tone-maps IMG with the backend O selects into *r and RGB (either may be NULL). The GPU
 * backend creates a headless GL context and pipeline on first use and keeps them for the
 * process; the CPU backend is tonemap_fast.h's on o->jobs threads (0: one per CPU). False
 * with the reason in err. */
bool commands_tonemap(const ht_options *o, const hdr_image *img, tonemap_result *r,
                      uint8_t *rgb, char *err, size_t errlen);

/* The same for export, where nothing reads IMG or the GPU textures afterwards: IMG is freed
 * (always, also on failure) as soon as the backend has no more use for it, and the GPU's
 * textures after the read-back, so a large picture is never held twice. The output goes to
 * RGB (8 bits) or, when RGB is NULL, to RGB16 (16 bits: tonemap_cpu_apply16). */
bool commands_tonemap_consume(const ht_options *o, hdr_image *img, uint8_t *rgb,
                              uint16_t *rgb16, char *err, size_t errlen);

#endif
