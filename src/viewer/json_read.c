/* The JSON reader (json_read.h): recursive descent over the text, depth and counts bounded. */
#include "json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
} reader;

static bool fail(reader *r, const char *why)
{
    snprintf(r->err, r->errlen, "byte %zu: %s", r->pos, r->pos >= r->len ? "unexpected end" : why);
    return false;
}

static void skip_ws(reader *r)
{
    while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
        r->pos++;
}

static bool literal(reader *r, const char *word)
{
    size_t n = strlen(word);
    if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n) != 0)
        return fail(r, "not a JSON value");
    r->pos += n;
    return true;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* An escape after the backslash into OUT (UTF-8); surrogates and NUL are refused. */
static bool escape(reader *r, char *out, size_t *n)
{
    if (r->pos >= r->len)
        return fail(r, "");
    char c = r->s[r->pos++];
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *k = strchr(from, c);
    if (k && c) {
        out[(*n)++] = to[k - from];
        return true;
    }
    if (c != 'u' || r->len - r->pos < 4)
        return fail(r, "bad escape in a string");
    int u = hex4(r->s + r->pos);
    if (u <= 0 || (u >= 0xD800 && u <= 0xDFFF))
        return fail(r, "unsupported \\u escape (NUL or a surrogate)");
    r->pos += 4;
    if (u < 0x80) {
        out[(*n)++] = (char)u;
    } else if (u < 0x800) {
        out[(*n)++] = (char)(0xC0 | u >> 6);
        out[(*n)++] = (char)(0x80 | (u & 63));
    } else {
        out[(*n)++] = (char)(0xE0 | u >> 12);
        out[(*n)++] = (char)(0x80 | (u >> 6 & 63));
        out[(*n)++] = (char)(0x80 | (u & 63));
    }
    return true;
}

/* A string after its opening quote; its decoded form is never longer than its text. */
static bool string(reader *r, char **out)
{
    char *buf = malloc(r->len - r->pos + 1);
    size_t n = 0;
    if (!buf)
        return fail(r, "out of memory");
    while (r->pos < r->len && r->s[r->pos] != '"') {
        unsigned char c = (unsigned char)r->s[r->pos++];
        if (c < 0x20) {
            free(buf);
            return fail(r, "control character in a string");
        }
        if (c == '\\' && !escape(r, buf, &n)) {
            free(buf);
            return false;
        }
        if (c != '\\')
            buf[n++] = (char)c;
    }
    if (r->pos >= r->len) {
        free(buf);
        return fail(r, "");
    }
    r->pos++;
    buf[n] = 0;
    char *fit = realloc(buf, n + 1);   /* the text's length was room for the worst case */
    *out = fit ? fit : buf;
    return true;
}

static bool number(reader *r, json_value *v)
{
    size_t end = r->pos;
    while (end < r->len && r->s[end] && strchr("+-0123456789.eE", r->s[end]))
        end++;
    char tmp[64];
    if (end == r->pos || end - r->pos >= sizeof tmp)
        return fail(r, "not a JSON value");
    memcpy(tmp, r->s + r->pos, end - r->pos);
    tmp[end - r->pos] = 0;
    char *e;
    v->num = strtod(tmp, &e);
    if (*e || !isfinite(v->num))
        return fail(r, "bad or out-of-range number");
    v->type = JSON_NUMBER;
    r->pos = end;
    return true;
}

static bool value(reader *r, json_value *v, int depth);

/* An array or object after its opening bracket, up to CLOSE. */
static bool items(reader *r, json_value *v, int depth, char close)
{
    v->type = close == ']' ? JSON_ARRAY : JSON_OBJECT;
    skip_ws(r);
    if (r->pos < r->len && r->s[r->pos] == close) {
        r->pos++;
        return true;
    }
    for (int cap = 0;;) {
        if (v->n >= JSON_MAX_ITEMS)
            return fail(r, "too many items");
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            json_value *ni = realloc(v->items, (size_t)cap * sizeof *ni);
            char **nk = ni ? realloc(v->keys, (size_t)cap * sizeof *nk) : NULL;
            if (ni)
                v->items = ni;
            if (nk)
                v->keys = nk;
            if (!ni || !nk)
                return fail(r, "out of memory");
        }
        json_value *it = &v->items[v->n];
        memset(it, 0, sizeof *it);
        v->keys[v->n++] = NULL;
        skip_ws(r);
        if (close == '}') {
            if (r->pos >= r->len || r->s[r->pos] != '"')
                return fail(r, "expected a member name");
            r->pos++;
            if (!string(r, &v->keys[v->n - 1]))
                return false;
            skip_ws(r);
            if (r->pos >= r->len || r->s[r->pos++] != ':')
                return fail(r, "expected ':'");
        }
        if (!value(r, it, depth + 1))
            return false;
        skip_ws(r);
        if (r->pos >= r->len)
            return fail(r, "");
        char c = r->s[r->pos++];
        if (c == close)
            return true;
        if (c != ',')
            return fail(r, "expected ',' or a closing bracket");
    }
}

static bool value(reader *r, json_value *v, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return fail(r, "nested too deeply");
    skip_ws(r);
    if (r->pos >= r->len)
        return fail(r, "");
    char c = r->s[r->pos];
    if (c == '{' || c == '[') {
        r->pos++;
        return items(r, v, depth, c == '{' ? '}' : ']');
    }
    if (c == '"') {
        r->pos++;
        v->type = JSON_STRING;
        return string(r, &v->str);
    }
    if (c == 't' || c == 'f') {
        v->type = JSON_BOOL;
        v->b = c == 't';
        return literal(r, v->b ? "true" : "false");
    }
    if (c == 'n') {
        v->type = JSON_NULL;
        return literal(r, "null");
    }
    return number(r, v);
}

bool json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen)
{
    reader r = {text, len, 0, err, errlen};
    memset(out, 0, sizeof *out);
    bool ok = value(&r, out, 0);
    skip_ws(&r);
    if (ok && r.pos < r.len)
        ok = fail(&r, "text after the value");
    if (!ok)
        json_free(out);
    return ok;
}

void json_free(json_value *v)
{
    for (int i = 0; i < v->n; i++) {
        json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

const json_value *json_get(const json_value *v, const char *key)
{
    for (int i = 0; v->type == JSON_OBJECT && i < v->n; i++)
        if (v->keys[i] && strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}
