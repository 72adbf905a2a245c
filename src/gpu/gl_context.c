#include "gl_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

struct gl_context {
    EGLDisplay display;
    EGLContext context;
};

static bool try_display(gl_context *c, EGLDisplay dpy)
{
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        return false;
    if (!eglBindAPI(EGL_OPENGL_API)) {
        eglTerminate(dpy);
        return false;
    }
    static const EGLint attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT) {
        eglTerminate(dpy);
        return false;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return false;
    }
    c->display = dpy;
    c->context = ctx;
    return true;
}

static GLADapiproc egl_loader(const char *name)
{
    return (GLADapiproc)eglGetProcAddress(name);
}

gl_context *gl_context_create_headless(char *err, size_t errlen)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!get_display) {
        snprintf(err, errlen, "EGL has no eglGetPlatformDisplayEXT: no headless OpenGL");
        return NULL;
    }
    gl_context *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* The device platform works on NVIDIA and Mesa; surfaceless is Mesa's fallback. */
    bool ok = false;
    EGLDeviceEXT devices[16];
    EGLint ndev = 0;
    if (query_devices && query_devices(16, devices, &ndev))
        for (EGLint i = 0; i < ndev && !ok; i++)
            ok = try_display(c, get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL));
    if (!ok)
        ok = try_display(c, get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL));
    if (!ok) {
        snprintf(err, errlen, "no EGL display offers an OpenGL 4.3 core context (tried %d "
                 "device(s) and Mesa surfaceless)", (int)ndev);
        free(c);
        return NULL;
    }
    if (!gl_load(egl_loader, err, errlen)) {
        gl_context_destroy(&c);
        return NULL;
    }
    return c;
}

void gl_context_destroy(gl_context **ctx)
{
    if (!ctx || !*ctx)
        return;
    gl_context *c = *ctx;
    eglMakeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(c->display, c->context);
    eglTerminate(c->display);
    free(c);
    *ctx = NULL;
}

static void GLAD_API_PTR debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                                        GLsizei length, const GLchar *message,
                                        const void *user)
{
    (void)source, (void)id, (void)length, (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
        return;
    fprintf(stderr, "GL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "debug", message);
}

bool gl_load(GLADloadfunc loader, char *err, size_t errlen)
{
    int version = gladLoadGL(loader);
    if (!version) {
        snprintf(err, errlen, "could not load OpenGL functions");
        return false;
    }
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 43) {
        snprintf(err, errlen, "OpenGL 4.3 core is needed; found: %s (%s)", gl_version(),
                 gl_renderer());
        return false;
    }
#ifdef NDEBUG
    bool debug = getenv("HT_GL_DEBUG") != NULL;
#else
    bool debug = true;
#endif
    if (debug && GLAD_GL_KHR_debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(debug_callback, NULL);
    }
    return true;
}

const char *gl_renderer(void)
{
    const GLubyte *s = glGetString ? glGetString(GL_RENDERER) : NULL;
    return s ? (const char *)s : "unknown renderer";
}

const char *gl_version(void)
{
    const GLubyte *s = glGetString ? glGetString(GL_VERSION) : NULL;
    return s ? (const char *)s : "unknown version";
}
