/* Enumerations as data: one table per enumeration gives each value its name (command line,
 * JSON) and its label (text for people: stats, the viewer's status line), so the option
 * parser, the printers and the viewer's cycling keys never spell the names themselves. */
#ifndef HT_ENUM_H
#define HT_ENUM_H

#include <stdbool.h>
#include <stddef.h>

/* One value; a table lists them in the order the command line offers them (its --help and
 * errors, and the viewer's cycling order) and ends with an entry whose name is NULL. */
typedef struct ht_enum {
    int value;
    const char *name;
    const char *label;
} ht_enum;

/* Whether TABLE lists VALUE. */
bool ht_enum_has(const ht_enum *table, int value);

/* The name / label of VALUE; "?" when TABLE does not list it. */
const char *ht_enum_name(const ht_enum *table, int value);
const char *ht_enum_label(const ht_enum *table, int value);

/* The value named NAME (exact, case-sensitive) into *value; false when none is. */
bool ht_enum_find(const ht_enum *table, const char *name, int *value);

/* The value after VALUE in table order, the last one followed by the first; the first when
 * TABLE does not list VALUE. */
int ht_enum_next(const ht_enum *table, int value);

/* The names separated by SEP ("none|linear|human") into BUF, truncated to LEN - 1. */
void ht_enum_list(const ht_enum *table, const char *sep, char *buf, size_t len);

#endif
