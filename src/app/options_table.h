/* The rows of the options' table (options.c) for the code that prints it (options_help.c:
 * --help, the completion words, docs/command-line.md's table). Private to src/app/options*. */
#ifndef HT_OPTIONS_TABLE_H
#define HT_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ht_enum.h"
#include "settings.h"

/* OPT_DOUBLE_AUTO: a number in range, or "auto" for 0. */
typedef enum {
    OPT_INT, OPT_DOUBLE, OPT_STRING, OPT_FLAG, OPT_CHOICE, OPT_TRANSFER, OPT_DOUBLE_AUTO
} opt_kind;

/* A row of a setting of settings.h takes its name and limits from there (name NULL, min and
 * max 0 here): opt_name, opt_min and opt_max read them. */
typedef struct opt_def {
    const char *name;
    char short_name;
    opt_kind kind;
    unsigned commands;
    size_t offset;            /* into ht_options */
    double min, max;          /* numeric range */
    const ht_enum *choices;   /* OPT_CHOICE: the names and their values */
    const char *metavar;
    const char *help;         /* the default is appended from options_default() */
    ht_setting_id setting;    /* HT_SET_NONE, or the row of settings.h */
} opt_def;

static inline const char *opt_name(const opt_def *d)
{
    return d->setting ? ht_settings[d->setting].name : d->name;
}
static inline double opt_min(const opt_def *d)
{
    return d->setting ? ht_settings[d->setting].min : d->min;
}
static inline double opt_max(const opt_def *d)
{
    return d->setting ? ht_settings[d->setting].max : d->max;
}

/* The table's rows. */
extern const opt_def *const options_rows;
extern const size_t options_nrows;

#define TEST_HOOK "test hook: "   /* the help of an option for the tests (is_test_hook) */

static inline bool is_test_hook(const opt_def *d)
{
    return strncmp(d->help, TEST_HOOK, strlen(TEST_HOOK)) == 0;
}

#endif
