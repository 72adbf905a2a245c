/* Writing export's files, atomically: the bytes into a temporary file beside PATH, fsync,
 * rename over PATH. rename() within one directory is atomic, so readers see the old file or
 * the new one, never a partial one, and a failure leaves an existing PATH untouched. */
#define _XOPEN_SOURCE 700 /* mkstemp, fsync */
#include "png_export.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "encode.h"

enum { PATH_MAX_LEN = 4096 };

static const char *errno_reason(int e)
{
    switch (e) {
    case ENOENT: return "the directory does not exist";
    case ENOTDIR: return "a component of the directory is not a directory";
    case EACCES:
    case EPERM: return "the directory is not writable (permission denied)";
    case EROFS: return "the file system is read-only";
    case ENOSPC: return "the disk is full";
    case EDQUOT: return "the disk quota is exceeded";
    default: return strerror(e);
    }
}

bool file_make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX_LEN];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "%.200s...: the path is too long", dir);
        return false;
    }
    /* Each prefix ending at a '/', then the whole path. */
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot make the folder: %s", path, errno_reason(errno));
            return false;
        }
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: cannot make the folder: a file is in the way", path);
            return false;
        }
        *p = c;
        if (c == '\0')
            return true;
    }
}

bool file_make_parent_dirs(const char *path, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)   /* the current folder, or the root */
        return true;
    char dir[PATH_MAX_LEN];
    if (slash - path >= PATH_MAX_LEN) {
        snprintf(err, errlen, "%.200s...: the path is too long", path);
        return false;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    return file_make_dirs(dir, err, errlen);
}

/* Temporary files being written, so that an interrupted export (SIGINT, SIGTERM, SIGHUP) leaves
 * none behind: the handler unlinks them (async-signal-safe) and re-raises the signal. */
enum { MAX_PENDING = 64, PENDING_PATH = PATH_MAX_LEN };
static char g_pending[MAX_PENDING][PENDING_PATH];
static volatile sig_atomic_t g_pending_used[MAX_PENDING];
static pthread_mutex_t g_pending_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_handlers_once = PTHREAD_ONCE_INIT;

static void remove_pending_and_die(int sig)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (g_pending_used[i])
            unlink(g_pending[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending_and_die;
        sigemptyset(&sa.sa_mask);
        /* Only where nobody else handles the signal. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* Registers PATH; returns its slot, or -1 when the table is full or PATH too long (then an
 * interruption may leave that one file, as before). */
static int pending_add(const char *path)
{
    pthread_once(&g_handlers_once, install_handlers);
    if (strlen(path) >= PENDING_PATH)
        return -1;
    int slot = -1;
    pthread_mutex_lock(&g_pending_mu);
    for (int i = 0; i < MAX_PENDING && slot < 0; i++)
        if (!g_pending_used[i]) {
            memcpy(g_pending[i], path, strlen(path) + 1);
            g_pending_used[i] = 1;
            slot = i;
        }
    pthread_mutex_unlock(&g_pending_mu);
    return slot;
}

static void pending_remove(int slot)
{
    if (slot >= 0)
        g_pending_used[slot] = 0;
}

bool png_write_atomic(const char *path, const uint8_t *rgb, int width, int height, char *err,
                      size_t errlen)
{
    return png_write_atomic_channels(path, rgb, width, height, 3, err, errlen);
}

bool png_write_atomic_channels(const char *path, const uint8_t *pixels, int width, int height,
                               int channels, char *err, size_t errlen)
{
    if (!path || !*path) {
        snprintf(err, errlen, "(no path): no output file given");
        return false;
    }
    if (!pixels || width <= 0 || height <= 0 || channels < 1 || channels > 4) {
        snprintf(err, errlen, "%s: invalid image to write (%d x %d)", path, width, height);
        return false;
    }
    encode_image im = {pixels, width, height, channels, 8, 0.0, NULL};
    encode_buffer png;
    char why[256];
    if (!encode_image_to(ENCODE_PNG, 0, &im, &png, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    bool ok = file_write_atomic(path, png.data, png.len, err, errlen);
    free(png.data);
    return ok;
}

bool file_write_fd(int fd, const void *data, size_t len, char *err, size_t errlen)
{
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(err, errlen, "%s", errno_reason(n < 0 ? errno : EIO));
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* The temporary file's name: PATH's directory (so that rename() never crosses file systems),
 * a dot, PATH's base name and a mkstemp suffix; malloc'd. */
static char *temp_name(const char *path)
{
    size_t plen = strlen(path);
    const char *slash = strrchr(path, '/');
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return NULL;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(tmp, path, dirlen);
    snprintf(tmp + dirlen, plen - dirlen + 16, ".%s.XXXXXX", path + dirlen);
    /* A long basename plus our suffix may exceed NAME_MAX; fall back to a short name. */
    if (strlen(tmp + dirlen) > 250)
        snprintf(tmp + dirlen, plen - dirlen + 16, ".png-tmp.XXXXXX");
    return tmp;
}

bool file_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    if (!path || !*path) {
        snprintf(err, errlen, "(no path): no output file given");
        return false;
    }
    const char *slash = strrchr(path, '/');
    if (slash && slash[1] == '\0') {
        snprintf(err, errlen, "%s: is a directory name, not a file name", path);
        return false;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", path);
        return false;
    }
    char *tmp = temp_name(path);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot create a file there: %s", path, errno_reason(e));
        free(tmp);
        return false;
    }
    int slot = pending_add(tmp);
    /* mkstemp makes it 0600; an exported picture should get the usual umask permissions. */
    mode_t um = umask(0);
    umask(um);
    (void)fchmod(fd, 0666 & ~um);

    char why[128] = "";
    const char *what = NULL;
    int e = 0;
    if (!file_write_fd(fd, data, len, why, sizeof why)) {
        what = "cannot write";
    } else if (fsync(fd) != 0) {
        what = "cannot write (fsync)";
        e = errno;
    }
    if (close(fd) != 0 && !what) {
        what = "cannot write (close)";
        e = errno;
    }
    if (!what && rename(tmp, path) != 0) {
        what = "cannot replace the file";
        e = errno;
    }
    if (what)
        unlink(tmp);
    pending_remove(slot);   /* after the rename or unlink: a signal before finds it still listed */
    free(tmp);
    if (what)
        snprintf(err, errlen, "%s: %s: %s", path, what, e ? errno_reason(e) : why);
    return !what;
}
