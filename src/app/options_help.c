/* Printing the options' table (options.h): --help, the shell completion's words and
 * docs/command-line.md's table. */
#include "options.h"

#include "options_table.h"
#include "tonemap.h"

#include <stdio.h>
#include <string.h>

static void default_text(const opt_def *d, const ht_options *def, char *buf, size_t len)
{
    const char *field = (const char *)def + d->offset;
    buf[0] = '\0';
    switch (d->kind) {
    case OPT_INT:
        if (*(const int *)field >= opt_min(d))   /* below the range: "automatic", in the help */
            snprintf(buf, len, "%d", *(const int *)field);
        break;
    case OPT_DOUBLE:
        if (*(const double *)field > 0)
            snprintf(buf, len, "%g", *(const double *)field);
        break;
    case OPT_DOUBLE_AUTO:
        snprintf(buf, len, *(const double *)field > 0 ? "%g" : "auto", *(const double *)field);
        break;
    case OPT_CHOICE:
        snprintf(buf, len, "%s", ht_enum_name(d->choices, *(const int *)field));
        break;
    case OPT_TRANSFER:
        snprintf(buf, len, "%s", ht_enum_name(tonemap_transfers, def->tm.transfer));
        break;
    case OPT_STRING:
    case OPT_FLAG:
        break;
    }
}

void options_print_help(FILE *f, unsigned command)
{
    ht_options def;
    options_default(&def);
    for (size_t i = 0; i < options_nrows; i++) {
        const opt_def *d = &options_rows[i];
        if (!(d->commands & command) || is_test_hook(d))
            continue;
        char left[64], dflt[32];
        snprintf(left, sizeof left, "%s%c%s--%s%s%s", d->short_name ? "-" : "",
                 d->short_name ? d->short_name : ' ', d->short_name ? ", " : "  ", opt_name(d),
                 d->metavar ? " " : "", d->metavar ? d->metavar : "");
        default_text(d, &def, dflt, sizeof dflt);
        fprintf(f, "  %-30s %s%s%s%s\n", d->short_name ? left : left + 1, d->help,
                dflt[0] ? " (default " : "", dflt, dflt[0] ? ")" : "");
    }
}

static void md_escape(const char *s, char *out, size_t len)
{
    size_t n = 0;
    for (; *s && n + 3 < len; s++) {
        if (*s == '|')
            out[n++] = '\\';
        out[n++] = *s;
    }
    out[n] = '\0';
}

/* The options section of docs/command-line.md, from the same table (tests/install/test_readme.sh
 * keeps them equal). */
static const struct { unsigned bit; const char *name; } cmds[] = {
    {HT_CMD_VIEW, "view"}, {HT_CMD_EXPORT, "export"}, {HT_CMD_STATS, "stats"},
    {HT_CMD_BENCH, "bench"}, {HT_CMD_ANALYZE, "analyze"}, {HT_CMD_COMPARE, "compare"}};

void options_print_completion(FILE *f)
{
    for (size_t i = 0; i < options_nrows; i++) {
        const opt_def *d = &options_rows[i];
        const char *sep = "";
        if (is_test_hook(d))
            continue;
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
            if (d->commands & cmds[c].bit) {
                fprintf(f, "%s%s", sep, cmds[c].name);
                sep = ",";
            }
        fprintf(f, " --%s", opt_name(d));
        const ht_enum *choices = d->kind == OPT_CHOICE     ? d->choices
                                 : d->kind == OPT_TRANSFER ? tonemap_transfers
                                                           : NULL;
        for (const ht_enum *e = choices; e && e->name; e++)
            fprintf(f, " %s", e->name);
        fputc('\n', f);
    }
}

void options_print_markdown(FILE *f, bool test_hooks)
{
    ht_options def;
    options_default(&def);
    fprintf(f, "| option | commands | default | meaning |\n|---|---|---|---|\n");
    for (size_t i = 0; i < options_nrows; i++) {
        const opt_def *d = &options_rows[i];
        if (is_test_hook(d) != test_hooks)
            continue;
        char dflt[32], used[64] = "";
        default_text(d, &def, dflt, sizeof dflt);
        if (d->commands == HT_CMD_ALL)
            snprintf(used, sizeof used, "all");
        else
            for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
                if (d->commands & cmds[c].bit)
                    snprintf(used + strlen(used), sizeof used - strlen(used), "%s%s",
                             used[0] ? ", " : "", cmds[c].name);
        /* A '|' would end the table cell, even inside backticks. */
        char meta[64] = "", help[1024] = "";
        md_escape(d->metavar ? d->metavar : "", meta, sizeof meta);
        md_escape(d->help, help, sizeof help);
        char short_opt[8] = "";
        if (d->short_name)
            snprintf(short_opt, sizeof short_opt, "-%c, ", d->short_name);
        fprintf(f, "| `%s--%s%s%s` | %s | %s | %s |\n", short_opt, opt_name(d), meta[0] ? " " : "",
                meta, used, dflt, help);
    }
}
