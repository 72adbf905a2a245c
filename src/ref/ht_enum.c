#include "ht_enum.h"

#include <stdio.h>
#include <string.h>

static const ht_enum *entry(const ht_enum *table, int value)
{
    for (const ht_enum *e = table; e->name; e++)
        if (e->value == value)
            return e;
    return NULL;
}

bool ht_enum_has(const ht_enum *table, int value)
{
    return entry(table, value) != NULL;
}

const char *ht_enum_name(const ht_enum *table, int value)
{
    const ht_enum *e = entry(table, value);
    return e ? e->name : "?";
}

const char *ht_enum_label(const ht_enum *table, int value)
{
    const ht_enum *e = entry(table, value);
    return e ? e->label : "?";
}

bool ht_enum_find(const ht_enum *table, const char *name, int *value)
{
    for (const ht_enum *e = table; e->name; e++)
        if (strcmp(e->name, name) == 0) {
            *value = e->value;
            return true;
        }
    return false;
}

int ht_enum_next(const ht_enum *table, int value)
{
    const ht_enum *e = entry(table, value);
    return e && e[1].name ? e[1].value : table[0].value;
}

void ht_enum_list(const ht_enum *table, const char *sep, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (const ht_enum *e = table; e->name && n < len; e++) {
        int k = snprintf(buf + n, len - n, "%s%s", e == table ? "" : sep, e->name);
        n += k > 0 ? (size_t)k : 0;
    }
}
