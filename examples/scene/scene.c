/* scene: a small renderer that draws a 3D HDR scene (a bright sky, emissive cubes, dark cubes
 * with thin bright edges) into a 4x multisampled RGBA16F target every frame and tone-maps it
 * with libhdrtone into an RGBA8 texture, which it shows.
 *
 *   scene [--shortcut] [--frames N] [--screenshot FILE.png]
 *
 * S (or --shortcut) switches to the shortcut order: resolve the samples first, then tone-map.
 * Tone-mapping every sample gives a pixel an edge crosses its share of each side's display
 * value; the shortcut gives it the average radiance, which the response maps to (nearly) one
 * side's, so the edges lose their antialiasing and dark pixels meet bright ones in one step:
 * dark fringes along the bright edges. --ceiling none|linear|human picks the ceiling.
 * --screenshot writes the tone-mapped picture after N frames (default 3), prints the analysis
 * and quits. Esc quits. */
#define GLFW_INCLUDE_GLCOREARB
#define GL_GLEXT_PROTOTYPES 1
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>
#include <hdrtone/hdrtone.h>

enum { WIDTH = 800, HEIGHT = 600, SAMPLES = 4, CUBES = 8 };

static const char *const vertex_src =
    "#version 430 core\n"
    "uniform float u_time;\n"
    "uniform float u_aspect;\n"
    "uniform vec4 u_cube[8];\n"          /* xyz centre, w half size; w < 0: emissive */
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "flat out int v_emissive;\n"
    "flat out int v_edges;\n"
    "const vec3 N[6] = vec3[](vec3(1,0,0), vec3(-1,0,0), vec3(0,1,0), vec3(0,-1,0),\n"
    "                         vec3(0,0,1), vec3(0,0,-1));\n"
    "const int C[6] = int[](0, 1, 2, 0, 2, 3);\n"
    "mat3 rot(float a, float b) {\n"
    "    float ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b);\n"
    "    return mat3(ca, 0, -sa, 0, 1, 0, sa, 0, ca) * mat3(1, 0, 0, 0, cb, sb, 0, -sb, cb);\n"
    "}\n"
    "void main() {\n"
    "    vec4 cube = u_cube[gl_InstanceID];\n"
    "    vec3 n = N[gl_VertexID / 6];\n"
    "    int c = C[gl_VertexID % 6];\n"
    "    v_uv = vec2(c == 1 || c == 2, c >= 2);\n"
    "    vec3 t = abs(n.x) > 0.5 ? vec3(0, 1, 0) : vec3(1, 0, 0), b = cross(n, t);\n"
    "    mat3 r = rot(u_time * (0.3 + 0.1 * gl_InstanceID), 0.4 + u_time * 0.2);\n"
    "    vec3 q = n + (v_uv.x * 2 - 1) * t + (v_uv.y * 2 - 1) * b;\n"
    "    vec3 p = cube.xyz + r * q * abs(cube.w);\n"
    "    v_normal = r * n;\n"
    "    v_emissive = cube.w < 0 ? 1 : 0;\n"
    "    v_edges = gl_InstanceID % 2;\n"
    "    vec3 v = p - vec3(0, 1.2, 10);\n"   /* the eye, looking down -z */
    "    float f = 1.0 / tan(radians(20.0)), zn = 0.1, zf = 100.0;\n"
    "    float z = (v.z * (zf + zn) + 2 * zf * zn) / (zn - zf);\n"
    "    gl_Position = vec4(v.x * f / u_aspect, v.y * f, z, -v.z);\n"
    "}\n";

/* Luminances (image units, cd/m^2 at scale 1): dark faces about 0.0002..0.6, each shaded
 * across; thin edges on every other dark cube about 55000; the lamps 13000; the sky 1000 at
 * the bottom to 2000. */
static const char *const fragment_src =
    "#version 430 core\n"
    "in vec3 v_normal;\n"
    "in vec2 v_uv;\n"
    "flat in int v_emissive;\n"
    "flat in int v_edges;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    if (v_emissive == 1) { o_color = vec4(20000, 12000, 5000, 1); return; }\n"
    "    float e = min(min(v_uv.x, 1 - v_uv.x), min(v_uv.y, 1 - v_uv.y));\n"
    "    if (v_edges == 1 && e < 0.02) { o_color = vec4(48000, 56000, 64000, 1); return; }\n"
    "    float d = max(dot(normalize(v_normal), normalize(vec3(0.3, 0.8, 0.5))), 0.0);\n"
    "    float g = exp(2.5 * (v_uv.x + v_uv.y - 1.0));\n"
    "    o_color = vec4((0.002 + 0.05 * d) * g * vec3(0.8, 0.9, 1.0), 1);\n"
    "}\n";

static const char *const sky_vertex_src =
    "#version 430 core\n"
    "out float v_y;\n"
    "void main() {\n"
    "    vec2 p = vec2(gl_VertexID == 1 ? 3 : -1, gl_VertexID == 2 ? 3 : -1);\n"
    "    v_y = p.y * 0.5 + 0.5;\n"
    "    gl_Position = vec4(p, 1, 1);\n"
    "}\n";

static const char *const sky_fragment_src =
    "#version 430 core\n"
    "in float v_y;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    o_color = vec4(exp(mix(log(1000.0), log(2000.0), v_y)) * vec3(0.7, 0.85, 1.0), 1);\n"
    "}\n";

typedef struct scene {
    GLuint program, sky, vao;
    GLuint msaa_fbo, msaa_color, msaa_depth;   /* the render target */
    GLuint resolve_fbo, resolved;              /* the shortcut's resolved copy */
    GLuint out_fbo, out;                       /* the tone-mapped RGBA8 picture */
    hdrtone *tone;
    int shortcut;
} scene;

static GLuint compile(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "scene: shader: %s\n", log);
        exit(1);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram(), v = compile(GL_VERTEX_SHADER, vs),
           f = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    return p;
}

static GLuint texture_2d(GLenum format)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, WIDTH, HEIGHT);
    return t;
}

static GLuint framebuffer(GLenum target, GLuint color)
{
    GLuint f;
    glGenFramebuffers(1, &f);
    glBindFramebuffer(GL_FRAMEBUFFER, f);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, target, color, 0);
    return f;
}

static void create_targets(scene *s)
{
    glGenTextures(1, &s->msaa_color);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, s->msaa_color);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, SAMPLES, GL_RGBA16F, WIDTH, HEIGHT,
                            GL_TRUE);
    s->msaa_fbo = framebuffer(GL_TEXTURE_2D_MULTISAMPLE, s->msaa_color);
    glGenRenderbuffers(1, &s->msaa_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, s->msaa_depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, SAMPLES, GL_DEPTH_COMPONENT24, WIDTH,
                                     HEIGHT);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                              s->msaa_depth);
    s->resolved = texture_2d(GL_RGBA16F);
    s->resolve_fbo = framebuffer(GL_TEXTURE_2D, s->resolved);
    s->out = texture_2d(GL_RGBA8);
    s->out_fbo = framebuffer(GL_TEXTURE_2D, s->out);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* The HDR scene at TIME into the multisampled target. */
static void draw(const scene *s, float time)
{
    static const float cubes[CUBES][4] = {
        {-3.0f, 1.6f, 0.0f, 0.9f},  {0.0f, 2.0f, -1.5f, 1.1f}, {3.0f, 1.4f, 0.0f, 0.9f},
        {-1.6f, -0.4f, 1.5f, 0.7f}, {1.7f, -0.2f, 1.8f, 0.8f}, {-1.3f, 2.9f, 1.0f, -0.25f},
        {1.4f, 0.9f, 2.5f, -0.2f},  {0.0f, -1.2f, 0.5f, -0.3f},
    };
    glBindFramebuffer(GL_FRAMEBUFFER, s->msaa_fbo);
    glViewport(0, 0, WIDTH, HEIGHT);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(s->sky);
    glBindVertexArray(s->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(s->program);
    glUniform1f(glGetUniformLocation(s->program, "u_time"), time);
    glUniform1f(glGetUniformLocation(s->program, "u_aspect"), (float)WIDTH / HEIGHT);
    glUniform4fv(glGetUniformLocation(s->program, "u_cube"), CUBES, &cubes[0][0]);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 36, CUBES);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* Tone-maps the frame into s->out: every sample, or (the shortcut) the resolved picture. */
static hdrtone_status tonemap(const scene *s)
{
    if (!s->shortcut)
        return hdrtone_run(s->tone, s->msaa_color, WIDTH, HEIGHT, SAMPLES, s->out);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->msaa_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->resolve_fbo);
    glBlitFramebuffer(0, 0, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return hdrtone_run(s->tone, s->resolved, WIDTH, HEIGHT, 1, s->out);
}

/* s->out (bottom row first, as GL stores it) to PATH, top row first. */
static int screenshot(const scene *s, const char *path)
{
    uint8_t *px = malloc((size_t)WIDTH * HEIGHT * 3), *row = malloc((size_t)WIDTH * 3);
    if (!px || !row) {
        free(px);
        free(row);
        fprintf(stderr, "scene: out of memory\n");
        return 1;
    }
    glBindTexture(GL_TEXTURE_2D, s->out);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB, GL_UNSIGNED_BYTE, px);
    for (int y = 0; y < HEIGHT / 2; y++) {
        uint8_t *a = px + (size_t)y * WIDTH * 3, *b = px + (size_t)(HEIGHT - 1 - y) * WIDTH * 3;
        memcpy(row, a, (size_t)WIDTH * 3);
        memcpy(a, b, (size_t)WIDTH * 3);
        memcpy(b, row, (size_t)WIDTH * 3);
    }
    int status = hdrtone_write_png(path, px, WIDTH, HEIGHT, NULL) == HDRTONE_OK ? 0 : 1;
    if (status)
        fprintf(stderr, "scene: %s\n", hdrtone_last_error());
    free(px);
    free(row);
    return status;
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    scene *s = glfwGetWindowUserPointer(w);
    if (action == GLFW_PRESS && key == GLFW_KEY_S)
        s->shortcut = !s->shortcut;
    if (action == GLFW_PRESS && key == GLFW_KEY_ESCAPE)
        glfwSetWindowShouldClose(w, GLFW_TRUE);
}

/* The window title: the order, and the analysis of the newest finished frame. */
static void show_analysis(GLFWwindow *w, const scene *s)
{
    hdrtone_analysis a;
    char title[256];
    if (hdrtone_read_analysis(s->tone, &a) != HDRTONE_OK)
        return;
    snprintf(title, sizeof title, "scene: %s (S) | frame %llu: %s, %.3g..%.3g cd/m2",
             s->shortcut ? "shortcut: resolve, then tone-map" : "tone-map every sample",
             (unsigned long long)a.frame, a.mapping_name, a.lw_min, a.lw_max);
    glfwSetWindowTitle(w, title);
}

/* After a screenshot: the analysis of the newest finished frame, on standard output. */
static void print_analysis(const scene *s)
{
    hdrtone_analysis a;
    if (hdrtone_read_analysis(s->tone, &a) != HDRTONE_OK)
        return;
    printf("frame %llu: %s, luminance %.4g..%.4g, histogram %.4g..%.4g cd/m2, %d bins\n",
           (unsigned long long)a.frame, a.mapping_name, a.lw_min, a.lw_max, a.range_min,
           a.range_max, a.bins);
    for (int i = 0; i <= a.bins; i += a.bins / 10)
        printf("  %.4g cd/m2 -> %.4g cd/m2 (%u samples)\n",
               a.range_min * pow(a.range_max / a.range_min, (double)i / a.bins), a.curve[i],
               i < a.bins ? a.histogram[i] : 0);
}

static hdrtone_ceiling ceiling_of(const char *name)
{
    return strcmp(name, "none") == 0    ? HDRTONE_CEILING_NONE
           : strcmp(name, "human") == 0 ? HDRTONE_CEILING_HUMAN
                                        : HDRTONE_CEILING_LINEAR;
}

static GLFWwindow *open_window(void)
{
    if (!glfwInit())
        return NULL;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    return glfwCreateWindow(WIDTH, HEIGHT, "scene", NULL, NULL);
}

int main(int argc, char **argv)
{
    scene s = {0};
    const char *shot = NULL;
    long frames = 3;
    hdrtone_desc desc = {.gl_loader = glfwGetProcAddress};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shortcut") == 0)
            s.shortcut = 1;
        else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc)
            shot = argv[++i];
        else if (strcmp(argv[i], "--ceiling") == 0 && i + 1 < argc)
            desc.settings.ceiling = ceiling_of(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: scene [--shortcut] [--frames N] [--screenshot FILE.png]\n");
            return 2;
        }
    }
    GLFWwindow *win = open_window();
    if (!win) {
        fprintf(stderr, "scene: no OpenGL 4.3 window\n");
        return 1;
    }
    glfwMakeContextCurrent(win);
    glfwSetWindowUserPointer(win, &s);
    glfwSetKeyCallback(win, on_key);
    if (hdrtone_create(&desc, &s.tone) != HDRTONE_OK) {
        fprintf(stderr, "scene: %s\n", hdrtone_last_error());
        return 1;
    }
    s.program = program(vertex_src, fragment_src);
    s.sky = program(sky_vertex_src, sky_fragment_src);
    glGenVertexArrays(1, &s.vao);
    create_targets(&s);
    int status = 0;
    for (long frame = 1; !glfwWindowShouldClose(win); frame++) {
        draw(&s, shot ? 0.5f : (float)glfwGetTime());
        if (tonemap(&s) != HDRTONE_OK) {
            fprintf(stderr, "scene: %s\n", hdrtone_last_error());
            status = 1;
            break;
        }
        show_analysis(win, &s);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, s.out_fbo);
        glBlitFramebuffer(0, 0, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT, GL_COLOR_BUFFER_BIT,
                          GL_NEAREST);
        glfwSwapBuffers(win);
        glfwPollEvents();
        if (shot && frame >= frames) {
            status = screenshot(&s, shot);
            print_analysis(&s);
            break;
        }
    }
    hdrtone_destroy(s.tone);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
