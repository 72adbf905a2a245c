/* A small JSON reader for files the user hands the viewer (sessions): the whole text into a
 * tree, with limits on size and depth, so that a truncated or hostile file is an error with
 * its byte offset, never a crash. Strings are UTF-8 without NUL; numbers finite doubles. */
#ifndef HT_JSON_READ_H
#define HT_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };
enum { JSON_MAX_DEPTH = 16, JSON_MAX_ITEMS = 100000 };

typedef struct json_value {
    int type;                  /* JSON_* */
    bool b;
    double num;
    char *str;                 /* JSON_STRING */
    int n;                     /* items of an array or object */
    struct json_value *items;
    char **keys;               /* an object's, in the file's order */
} json_value;

/* Parses TEXT[0..LEN) into *OUT (one value, then only white space). False with the reason
 * and the byte offset in ERR, *OUT then empty. */
bool json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen);
void json_free(json_value *v);
/* An object's member KEY (the first), or NULL (V no object, or no such key). */
const json_value *json_get(const json_value *v, const char *key);

#endif
