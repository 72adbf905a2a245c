/* ocio.h over OpenColorIO 2.1's C++ API. Every OCIO exception is caught here and becomes the
 * reason in err; nothing of OCIO's types crosses the C interface. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <exception>
#include <string>
#include <vector>

#include <OpenColorIO/OpenColorIO.h>

extern "C" {
#include "ocio.h"
}

namespace OCIO = OCIO_NAMESPACE;

struct ocio_config {
    OCIO::ConstConfigRcPtr cfg;
    std::string path;
};

struct ocio_processor {
    OCIO::ConstProcessorRcPtr proc;
    OCIO::ConstCPUProcessorRcPtr cpu;
};

namespace {

void set_err(char *err, size_t errlen, const std::string &msg)
{
    snprintf(err, errlen, "%s", msg.c_str());
}

/* Whether NAME is one of the N names that NAME_AT gives. */
template <typename F> bool listed(const char *name, int n, F name_at)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name_at(i), name) == 0)
            return true;
    return false;
}

/* The transform of CH in C: the display's view of the input, with the look when one is asked
 * for (OCIO's viewing pipeline applies it in the look's process space). False with the name
 * that C lacks. */
bool choice_check(const ocio_config *c, const ocio_choice *ch, std::string &display,
                  std::string &view, std::string &why)
{
    const OCIO::ConstConfigRcPtr &cfg = c->cfg;
    const std::string in = ch->input ? ch->input : "";
    if (in.empty() || !cfg->getColorSpace(in.c_str())) {
        why = "colour space '" + in + "' is not in " + c->path;
        return false;
    }
    display = ch->display && ch->display[0] ? ch->display : cfg->getDefaultDisplay();
    if (!listed(display.c_str(), cfg->getNumDisplays(),
                [&](int i) { return cfg->getDisplay(i); })) {
        why = "display '" + display + "' is not in " + c->path;
        return false;
    }
    view = ch->view && ch->view[0] ? ch->view : cfg->getDefaultView(display.c_str());
    if (!listed(view.c_str(), cfg->getNumViews(display.c_str()),
                [&](int i) { return cfg->getView(display.c_str(), i); })) {
        why = "view '" + view + "' is not a view of display '" + display + "' in " + c->path;
        return false;
    }
    if (ch->look && ch->look[0] && !cfg->getLook(ch->look)) {
        why = "look '" + std::string(ch->look) + "' is not in " + c->path;
        return false;
    }
    return true;
}

} // namespace

extern "C" const char *ocio_bundled_path(void)
{
    static char path[PATH_MAX + 64], real[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, PATH_MAX);
    if (n > 0) {
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        if (slash) {
            strcpy(slash, "/../share/hdrtone/ocio/config.ocio");
            if (access(path, R_OK) == 0)   /* named without the "bin/.." in messages */
                return realpath(path, real) ? real : path;
        }
    }
    return HT_OCIO_BUNDLED;
}

extern "C" ocio_config *ocio_config_load(const char *path, char *err, size_t errlen)
{
    if (!path || !path[0])
        path = getenv("OCIO") && getenv("OCIO")[0] ? getenv("OCIO") : ocio_bundled_path();
    try {
        ocio_config *c = new ocio_config;
        c->path = path;
        try {
            c->cfg = OCIO::Config::CreateFromFile(path);
            c->cfg->validate();
        } catch (...) {
            delete c;
            throw;
        }
        return c;
    } catch (const std::exception &e) {
        set_err(err, errlen, std::string(path) + ": not an OCIO config: " + e.what());
    }
    return NULL;
}

extern "C" void ocio_config_free(ocio_config **c)
{
    if (c && *c) {
        delete *c;
        *c = NULL;
    }
}

extern "C" const char *ocio_config_path(const ocio_config *c)
{
    return c->path.c_str();
}

extern "C" int ocio_count(const ocio_config *c, int list)
{
    switch (list) {
    case OCIO_SPACES:
        return c->cfg->getNumColorSpaces();
    case OCIO_DISPLAYS:
        return c->cfg->getNumDisplays();
    case OCIO_LOOKS:
        return c->cfg->getNumLooks();
    default:
        return 0;
    }
}

extern "C" const char *ocio_name(const ocio_config *c, int list, int i)
{
    switch (list) {
    case OCIO_SPACES:
        return c->cfg->getColorSpaceNameByIndex(i);
    case OCIO_DISPLAYS:
        return c->cfg->getDisplay(i);
    case OCIO_LOOKS:
        return c->cfg->getLookNameByIndex(i);
    default:
        return "";
    }
}

extern "C" int ocio_view_count(const ocio_config *c, const char *display)
{
    return c->cfg->getNumViews(display);
}

extern "C" const char *ocio_view_name(const ocio_config *c, const char *display, int i)
{
    return c->cfg->getView(display, i);
}

extern "C" const char *ocio_default_display(const ocio_config *c)
{
    return c->cfg->getDefaultDisplay();
}

extern "C" const char *ocio_default_view(const ocio_config *c, const char *display)
{
    return c->cfg->getDefaultView(display);
}

extern "C" const char *ocio_space_find(const ocio_config *c, const char *name)
{
    const char *n = c->cfg->getCanonicalName(name);
    return n && n[0] ? n : NULL;
}

extern "C" const char *ocio_view_space(const ocio_config *c, const char *display,
                                       const char *view)
{
    const OCIO::ConstConfigRcPtr &cfg = c->cfg;
    if (!display || !display[0])
        display = cfg->getDefaultDisplay();
    if (!view || !view[0])
        view = cfg->getDefaultView(display);
    if (!listed(display, cfg->getNumDisplays(), [&](int i) { return cfg->getDisplay(i); }) ||
        !listed(view, cfg->getNumViews(display), [&](int i) { return cfg->getView(display, i); }))
        return NULL;
    const char *cs = cfg->getDisplayViewColorSpaceName(display, view);
    if (cs && strcmp(cs, OCIO::OCIO_VIEW_USE_DISPLAY_NAME) == 0)
        cs = display;
    return cs && cs[0] ? ocio_space_find(c, cs) : NULL;
}

extern "C" ocio_processor *ocio_processor_make(const ocio_config *c, const ocio_choice *ch,
                                               char *err, size_t errlen)
{
    std::string display, view, why;
    if (!choice_check(c, ch, display, view, why)) {
        set_err(err, errlen, why);
        return NULL;
    }
    try {
        OCIO::DisplayViewTransformRcPtr dv = OCIO::DisplayViewTransform::Create();
        dv->setSrc(ch->input);
        dv->setDisplay(display.c_str());
        dv->setView(view.c_str());
        OCIO::LegacyViewingPipelineRcPtr vp = OCIO::LegacyViewingPipeline::Create();
        vp->setDisplayViewTransform(dv);
        if (ch->look && ch->look[0]) {
            vp->setLooksOverride(ch->look);
            vp->setLooksOverrideEnabled(true);
        }
        ocio_processor *p = new ocio_processor;
        try {
            p->proc = vp->getProcessor(c->cfg, c->cfg->getCurrentContext());
            p->cpu = p->proc->getDefaultCPUProcessor();
        } catch (...) {
            delete p;
            throw;
        }
        return p;
    } catch (const std::exception &e) {
        set_err(err, errlen, std::string(c->path) + ": " + ch->input + " to " + display + " / " +
                                 view + ": " + e.what());
    }
    return NULL;
}

extern "C" void ocio_processor_free(ocio_processor **p)
{
    if (p && *p) {
        delete *p;
        *p = NULL;
    }
}

extern "C" void ocio_processor_apply(const ocio_processor *p, float *rgba, size_t n)
{
    /* In rows of at most INT_MAX pixels: OCIO's image width is a long, its loops ints. */
    const size_t row = 1u << 20;
    for (size_t at = 0; at < n; at += row) {
        size_t w = n - at < row ? n - at : row;
        OCIO::PackedImageDesc img(rgba + 4 * at, (long)w, 1, 4);
        p->cpu->apply(img);
    }
}

/* The textures of D into S (copies: D goes with the caller's scope). */
static void copy_textures(const OCIO::GpuShaderDescRcPtr &d, ocio_shader *s)
{
    unsigned n1 = d->getNumTextures(), n3 = d->getNum3DTextures();
    s->ntex = (int)(n1 + n3);
    s->tex = (ocio_texture *)calloc(n1 + n3 ? n1 + n3 : 1, sizeof *s->tex);
    if (!s->tex)
        throw std::bad_alloc();
    for (unsigned i = 0; i < n1; i++) {
        const char *tname, *sname;
        unsigned w, h;
        OCIO::GpuShaderDesc::TextureType ch;
        OCIO::Interpolation interp;
        d->getTexture(i, tname, sname, w, h, ch, interp);
        ocio_texture *t = &s->tex[i];
        snprintf(t->sampler, sizeof t->sampler, "%s", sname);
        t->dims = h > 1 ? 2 : 1;
        t->width = (int)w;
        t->height = (int)h;
        t->depth = 1;
        t->channels = ch == OCIO::GpuShaderDesc::TEXTURE_RED_CHANNEL ? 1 : 3;
        t->linear = interp != OCIO::INTERP_NEAREST;
        const float *v;
        d->getTextureValues(i, v);
        size_t count = (size_t)w * h * (size_t)t->channels;
        if (!(t->data = (float *)malloc(count * sizeof(float))))
            throw std::bad_alloc();
        memcpy(t->data, v, count * sizeof(float));
    }
    for (unsigned i = 0; i < n3; i++) {
        const char *tname, *sname;
        unsigned edge;
        OCIO::Interpolation interp;
        d->get3DTexture(i, tname, sname, edge, interp);
        ocio_texture *t = &s->tex[n1 + i];
        snprintf(t->sampler, sizeof t->sampler, "%s", sname);
        t->dims = 3;
        t->width = t->height = t->depth = (int)edge;
        t->channels = 3;
        t->linear = interp != OCIO::INTERP_NEAREST;
        const float *v;
        d->get3DTextureValues(i, v);
        size_t count = (size_t)edge * edge * edge * 3;
        if (!(t->data = (float *)malloc(count * sizeof(float))))
            throw std::bad_alloc();
        memcpy(t->data, v, count * sizeof(float));
    }
}

extern "C" bool ocio_processor_shader(const ocio_processor *p, const char *function,
                                      ocio_shader *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    try {
        OCIO::GpuShaderDescRcPtr d = OCIO::GpuShaderDesc::CreateShaderDesc();
        d->setLanguage(OCIO::GPU_LANGUAGE_GLSL_4_0);
        d->setFunctionName(function);
        d->setResourcePrefix(function);
        p->proc->getDefaultGPUProcessor()->extractGpuShaderInfo(d);
        if (d->getNumUniforms() > 0) {
            snprintf(err, errlen, "the transform has %u dynamic properties (uniforms), which "
                     "hdrtone's GPU pass does not set", d->getNumUniforms());
            return false;
        }
        s->text = strdup(d->getShaderText());
        if (!s->text)
            throw std::bad_alloc();
        copy_textures(d, s);
        return true;
    } catch (const std::exception &e) {
        ocio_shader_free(s);
        set_err(err, errlen, std::string("OCIO's GPU shader: ") + e.what());
    }
    return false;
}

extern "C" void ocio_shader_free(ocio_shader *s)
{
    for (int i = 0; s->tex && i < s->ntex; i++)
        free(s->tex[i].data);
    free(s->tex);
    free(s->text);
    memset(s, 0, sizeof *s);
}
