/* oiio.h served by the OpenImageIO module (oiio_module.h), loaded on first use. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oiio_module.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const oiio_module *api;
static char load_error[PATH_MAX + 128] = "this build's OpenImageIO module (" OIIO_MODULE_FILE ") is not installed beside it";

/* Tries DIR/SUB/OIIO_MODULE_FILE; true once the module is loaded. */
static int try_dir(const char *dir, const char *sub)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s" OIIO_MODULE_FILE, dir, sub, *sub ? "/" : "") >=
        (int)sizeof path)
        return 0;
    if (access(path, F_OK) != 0)
        return 0;
    /* a module that exists but does not load says why */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return 0;
    }
    const oiio_module *m = dlsym(h, OIIO_MODULE_SYMBOL);
    if (!m || m->abi != OIIO_MODULE_ABI) {
        snprintf(load_error, sizeof load_error, "%s is not this build's OpenImageIO module",
                 path);
        dlclose(h);
        return 0;
    }
    api = m;
    return 1;
}

/* Looks beside the object that holds this code (the program, or libhdrtone), then where the
 * installation puts modules relative to it, then in the build folder. */
static void load(void)
{
    char dirs[2][PATH_MAX] = {"", ""};
    if (!realpath("/proc/self/exe", dirs[0]))
        dirs[0][0] = '\0';
    /* dladdr takes an object's address: a static variable of this file's object */
    static const int here;
    Dl_info info;
    if (dladdr(&here, &info) && info.dli_fname && !realpath(info.dli_fname, dirs[1]))
        dirs[1][0] = '\0';
    static const char *const subs[] = {"", HT_OIIO_FROM_LIB, HT_OIIO_FROM_BIN};
    for (int d = 0; d < 2; d++) {
        char *slash = strrchr(dirs[d], '/');
        if (!slash)
            continue;
        *slash = '\0';
        for (size_t s = 0; s < sizeof subs / sizeof *subs; s++)
            if (try_dir(dirs[d], subs[s]))
                return;
    }
    try_dir(HT_OIIO_BUILD_DIR, "");
}

static const oiio_module *module(char *why, size_t wl)
{
    pthread_once(&once, load);
    if (!api && why)
        snprintf(why, wl, "%s", load_error);
    return api;
}

oiio_file *oiio_open(const uint8_t *data, size_t size, const char *plugin, int subimage,
                     oiio_spec *spec, char *why, size_t wl)
{
    const oiio_module *m = module(why, wl);
    return m ? m->open(data, size, plugin, subimage, spec, why, wl) : NULL;
}

/* The functions below take a file that oiio_open returned, so the module is loaded. */
bool oiio_read_rgba(oiio_file *f, float *rgba, int threads, char *why, size_t wl)
{
    return api->read_rgba(f, rgba, threads, why, wl);
}

bool oiio_read_native(oiio_file *f, float *out, char *why, size_t wl)
{
    return api->read_native(f, out, why, wl);
}

void oiio_each_attribute(const oiio_file *f, void (*each)(void *, const char *, const char *),
                         void *ctx)
{
    api->each_attribute(f, each, ctx);
}

const uint8_t *oiio_icc_profile(const oiio_file *f, size_t *size)
{
    return api->icc_profile(f, size);
}

void oiio_close(oiio_file *f)
{
    if (f)
        api->close(f);
}

const char *oiio_version(void)
{
    static char missing[sizeof load_error + 32];
    if (module(NULL, 0))
        return api->version();
    snprintf(missing, sizeof missing, "(not available: %s)", load_error);
    return missing;
}

const char *oiio_libraries(void)
{
    return module(NULL, 0) ? api->libraries() : "";
}
