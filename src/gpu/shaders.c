#include "shaders.h"

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gpu_shared.h"
#include "human.h"

/* Every field is a 4-byte scalar, so std430 offsets equal C offsets; keep it that way. */
#define HT_CHECK_FIELD_(type, name, dims) \
    _Static_assert(sizeof(((STRUCT *)0)->name) % 4 == 0, "4-byte fields only");
#define STRUCT ht_frame
HT_FRAME_FIELDS(HT_CHECK_FIELD_)
#undef STRUCT
/* std430 aligns a struct of 4-byte scalars to 4 bytes, as C does: no padding rules beyond. */
_Static_assert(_Alignof(ht_frame) == 4 && _Alignof(ht_tilesum) == 4,
               "4-byte alignment");
#undef HT_CHECK_FIELD_

const char *shaders_source(const char *name)
{
    for (const ht_embedded_shader *s = ht_embedded_shaders; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s->source;
    return NULL;
}

static size_t append(char *buf, size_t cap, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static size_t append(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, len < cap ? cap - len : 0, fmt, ap);
    va_end(ap);
    return len + (n > 0 ? (size_t)n : 0);
}

const char *shaders_preamble(void)
{
    static char buf[16384];
    if (buf[0])
        return buf;
    size_t n = 0;
    n = append(buf, sizeof buf, n, "#version 430 core\n");
#define HT_INT_(name, value) n = append(buf, sizeof buf, n, "#define %s %d\n", #name, (int)(value));
    HT_CONSTANTS(HT_INT_)
    HT_BINDINGS(HT_INT_)
    HT_STATS_CONSTANTS(HT_INT_)
    HT_STATS_BINDINGS(HT_INT_)
    HT_HUMAN_BINDINGS(HT_INT_)
    HT_HUMAN_STAGES(HT_INT_)
    HT_GREY_KERNELS(HT_INT_)
#undef HT_INT_
#define HT_FLT_(name, value) n = append(buf, sizeof buf, n, "#define %s %.9g\n", #name, (double)(value));
    HT_FCONSTANTS(HT_FLT_)
    HT_STATS_FCONSTANTS(HT_FLT_)
    HT_HUMAN_FCONSTANTS(HT_FLT_)
#undef HT_FLT_
#define HT_GLSL_FIELD_(type, name, dims) n = append(buf, sizeof buf, n, "    %s %s%s;\n", #type, #name, #dims);
#define HT_GLSL_STRUCT_(sname, FIELDS)                                 \
    n = append(buf, sizeof buf, n, "struct %s {\n", #sname);          \
    FIELDS(HT_GLSL_FIELD_)                                              \
    n = append(buf, sizeof buf, n, "};\n");
    HT_GLSL_STRUCT_(ht_tilesum, HT_TILESUM_FIELDS)
    HT_GLSL_STRUCT_(ht_frame, HT_FRAME_FIELDS)
    HT_GLSL_STRUCT_(ht_extrema, HT_EXTREMA_FIELDS)
    HT_GLSL_STRUCT_(ht_peaks_head, HT_PEAKS_HEAD_FIELDS)
    HT_GLSL_STRUCT_(ht_peak, HT_PEAK_FIELDS)
    HT_GLSL_STRUCT_(ht_hist, HT_HIST_FIELDS)
#undef HT_GLSL_STRUCT_
#undef HT_GLSL_FIELD_
    if (n >= sizeof buf)
        abort(); /* a programming error: the preamble buffer is too small */
    return buf;
}

/* Whether OBJ (a shader, or a PROGRAM) compiled or linked; if not, deletes it and writes the
 * driver's log to err. */
static bool built(GLuint obj, bool program, const char *name, char *err, size_t errlen)
{
    GLint ok = 0;
    char log[2048] = "";
    if (program)
        glGetProgramiv(obj, GL_LINK_STATUS, &ok);
    else
        glGetShaderiv(obj, GL_COMPILE_STATUS, &ok);
    if (ok)
        return true;
    if (program) {
        glGetProgramInfoLog(obj, sizeof log, NULL, log);
        glDeleteProgram(obj);
    } else {
        glGetShaderInfoLog(obj, sizeof log, NULL, log);
        glDeleteShader(obj);
    }
    snprintf(err, errlen, "%s %s does not %s: %s", program ? "program" : "shader", name,
             program ? "link" : "compile", log);
    return false;
}

/* Splits SRC at its lines #include "NAME" (at most MAX_INCLUDES; NAME an embedded file,
 * inserted as it is, so an #ifdef around the line decides whether it counts) into PARTS,
 * from *N on: the text before, the file (source-string number 3 in the compiler's log), the
 * text after with its line numbers. The texts are copies in *TEXT (the caller frees it).
 * False (with the reason) for an unknown name or too many. */
enum { MAX_INCLUDES = 2 };
static bool split_includes(const char *src, const char **parts, int *n, char **text,
                           char *err, size_t errlen)
{
    static const char directive[] = "#include \"";
    size_t len = strlen(src);
    char *t = *text = malloc(len + 1 + MAX_INCLUDES * 32);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int includes = 0, line = 1;
    const char *at = src;
    parts[(*n)++] = t;
    for (const char *p = src; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        if (strncmp(p, directive, sizeof directive - 1) != 0) {
            line++;
            continue;
        }
        const char *name = p + sizeof directive - 1, *q = strchr(name, '"');
        char file[64];
        snprintf(file, sizeof file, "%.*s", q ? (int)(q - name) : 0, name);
        const char *inc = shaders_source(file);
        if (!inc || includes == MAX_INCLUDES) {
            snprintf(err, errlen, "#include \"%s\": %s", file,
                     inc ? "too many includes" : "not embedded in this build");
            return false;
        }
        memcpy(t, at, (size_t)(p - at));
        t += p - at;
        t += sprintf(t, "\n#line 1 3\n") + 1;   /* each text its own string */
        parts[(*n)++] = inc;
        at = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
        parts[(*n)++] = t;
        t += sprintf(t, "\n#line %d 2\n", ++line);
        includes++;
    }
    strcpy(t, at);
    return true;
}

static unsigned compile(GLenum type, const char *name, const char *defines, char *err,
                        size_t errlen)
{
    const char *src = shaders_source(name);
    if (!src) {
        snprintf(err, errlen, "shader %s is not embedded in this build", name);
        return 0;
    }
    /* common.glsl: the functions the CPU reference mirrors, shared by every shader. */
    const char *parts[5 + 2 * MAX_INCLUDES + 1] = {shaders_preamble(), defines ? defines : "",
                                                   "\n#line 1 1\n", shaders_source("common.glsl"),
                                                   "\n#line 1 2\n"};
    int n = 5;
    char *text = NULL;
    if (!split_includes(src, parts, &n, &text, err, errlen)) {
        free(text);
        return 0;
    }
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, n, parts, NULL);
    free(text);
    glCompileShader(sh);
    return built(sh, false, name, err, errlen) ? sh : 0;
}

static unsigned link(const unsigned *shaders, int n, const char *name, char *err, size_t errlen)
{
    GLuint prog = glCreateProgram();
    for (int i = 0; i < n; i++) {
        glAttachShader(prog, shaders[i]);
        glDeleteShader(shaders[i]); /* freed with the program */
    }
    glLinkProgram(prog);
    glObjectLabel(GL_PROGRAM, prog, -1, name);   /* for bench --dispatches */
    return built(prog, true, name, err, errlen) ? prog : 0;
}

unsigned shaders_compute(const char *name, const char *defines, char *err, size_t errlen)
{
    unsigned sh = compile(GL_COMPUTE_SHADER, name, defines, err, errlen);
    return sh ? link(&sh, 1, name, err, errlen) : 0;
}

unsigned shaders_graphics(const char *vert, const char *frag, const char *defines, char *err,
                          size_t errlen)
{
    unsigned sh[2];
    sh[0] = compile(GL_VERTEX_SHADER, vert, defines, err, errlen);
    if (!sh[0])
        return 0;
    sh[1] = compile(GL_FRAGMENT_SHADER, frag, defines, err, errlen);
    if (!sh[1]) {
        glDeleteShader(sh[0]);
        return 0;
    }
    return link(sh, 2, vert, err, errlen);
}
