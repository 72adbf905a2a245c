/* OpenGL contexts: headless through EGL (tests, export, stats, bench), and the GL loading and
 * checks shared with the viewer's GLFW window. */
#ifndef HT_GL_CONTEXT_H
#define HT_GL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <glad/gl.h>

typedef struct gl_context gl_context;

/* Creates a GL 4.3 core context with no display (EGL device platform, then Mesa surfaceless)
 * and makes it current. Returns NULL and writes the reason to err on failure. */
gl_context *gl_context_create_headless(char *err, size_t errlen);

/* Releases the context. Accepts NULL; sets *ctx to NULL. */
void gl_context_destroy(gl_context **ctx);

/* Loads GL functions through LOADER into the current context and checks it is 4.3 core or
 * better; turns on debug output (KHR_debug) when HT_GL_DEBUG is set in the environment or in
 * debug builds. Returns false with "found: <version> <renderer>" in err otherwise. */
bool gl_load(GLADloadfunc loader, char *err, size_t errlen);

/* The GL_RENDERER and GL_VERSION strings of the current context, for messages and benchmarks. */
const char *gl_renderer(void);
const char *gl_version(void);

#endif
