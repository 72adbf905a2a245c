/* The open images and the shown one's neighbours (file_list.h). */
#define _DEFAULT_SOURCE   /* d_type, strdup */

#include "file_list.h"

#include "image_formats.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *file_list_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void file_list_dir(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

bool file_list_is_image_name(const char *name)
{
    return image_format_extension_known(name);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

/* Appends PREFIX + NAME to *PATHS (N entries, room for *CAP). False when out of memory. */
static bool append_path(char ***paths, int n, int *cap, const char *prefix, const char *name)
{
    if (n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        char **p = realloc(*paths, (size_t)c * sizeof *p);
        if (!p)
            return false;
        *paths = p;
        *cap = c;
    }
    size_t len = strlen(prefix) + strlen(name) + 1;
    if (!((*paths)[n] = malloc(len)))
        return false;
    snprintf((*paths)[n], len, "%s%s", prefix, name);
    return true;
}

int file_list_scan(const char *prefix, char ***paths, char *err, size_t errlen)
{
    *paths = NULL;
    const char *dir = prefix[0] ? prefix : ".";
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    char **p = NULL;
    int n = 0, cap = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (e->d_type == DT_DIR || !file_list_is_image_name(e->d_name))
            continue;
        if ((ok = append_path(&p, n, &cap, prefix, e->d_name)))
            n++;
    }
    closedir(d);
    if (!ok) {
        free_paths(p, n);
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    if (n == 0) {
        free(p);
        return 0;
    }
    qsort(p, (size_t)n, sizeof *p, cmp_str);
    *paths = p;
    return n;
}

void file_list_clear_neighbours(file_list *l)
{
    free_paths(l->neighbours, l->nneighbours);
    free(l->neighbours_of);
    l->neighbours = NULL;
    l->neighbours_of = NULL;
    l->nneighbours = 0;
}

void file_list_free(file_list *l)
{
    free_paths(l->files, l->nfiles);
    free(l->info);
    file_list_clear_neighbours(l);
    *l = (file_list){0};
}

int file_list_add(file_list *l, const char *path)
{
    for (int i = 0; i < l->nfiles; i++)
        if (strcmp(l->files[i], path) == 0)
            return i;
    char **f = realloc(l->files, (size_t)(l->nfiles + 1) * sizeof *f);
    if (f)
        l->files = f;
    file_info *in = f ? realloc(l->info, (size_t)(l->nfiles + 1) * sizeof *in) : NULL;
    if (in)
        l->info = in;
    if (!in || !(f[l->nfiles] = strdup(path)))
        return -1;
    in[l->nfiles] = (file_info){0};
    return l->nfiles++;
}

int file_list_open(file_list *l, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {   /* a file, or what the load says */
        int i = file_list_add(l, path);
        if (i < 0)
            snprintf(err, errlen, "%s: out of memory", path);
        return i;
    }
    size_t len = strlen(path);
    char prefix[PATH_MAX + 2];
    snprintf(prefix, sizeof prefix, "%s%s", path, path[len - 1] == '/' ? "" : "/");
    char **paths;
    int n = file_list_scan(prefix, &paths, err, errlen), first = -1;
    if (n == 0)
        snprintf(err, errlen,
                 "%s: no image in the folder (no file named as a format `hdrtone --formats` lists)",
                 path);
    for (int i = 0; i < n; i++) {
        int k = file_list_add(l, paths[i]);
        if (k < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            first = -1;
            break;
        }
        first = first < 0 ? k : first;
    }
    free_paths(paths, n > 0 ? n : 0);
    return first;
}

void file_list_remove(file_list *l, int i)
{
    if (i < 0 || i >= l->nfiles)
        return;
    free(l->files[i]);
    size_t after = (size_t)(l->nfiles - i - 1);
    memmove(l->files + i, l->files + i + 1, after * sizeof *l->files);
    memmove(l->info + i, l->info + i + 1, after * sizeof *l->info);
    l->nfiles--;
    if (l->cur > i || l->cur >= l->nfiles)
        l->cur = l->cur > 0 ? l->cur - 1 : 0;
}

const char *file_list_current(const file_list *l)
{
    return l->nfiles > 0 ? l->files[l->cur] : NULL;
}

bool file_list_update_neighbours(file_list *l, bool rescan, char *err, size_t errlen)
{
    const char *cur = file_list_current(l);
    if (!cur) {
        file_list_clear_neighbours(l);
        return true;
    }
    const char *slash = strrchr(cur, '/');
    char prefix[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%.*s", slash ? (int)(slash - cur + 1) : 0, cur);
    if (!rescan && l->neighbours_of && strcmp(prefix, l->neighbours_of) == 0)
        return true;
    file_list_clear_neighbours(l);
    char **paths;
    int n = file_list_scan(prefix, &paths, err, errlen);
    if (n < 0)
        return false;
    if (!(l->neighbours_of = strdup(prefix))) {
        free_paths(paths, n);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    l->neighbours = paths;
    l->nneighbours = n;
    return true;
}

int file_list_neighbour_index(const file_list *l)
{
    const char *cur = file_list_current(l);
    for (int i = 0; cur && i < l->nneighbours; i++)
        if (strcmp(l->neighbours[i], cur) == 0)
            return i;
    return -1;
}

const char *file_list_neighbour(const file_list *l, int dir)
{
    const char *cur = file_list_current(l);
    char **nb = l->neighbours;
    int n = l->nneighbours, i;
    if (!cur || n == 0)
        return NULL;
    /* By name, so that a shown file that is not listed (another extension) has its place. */
    if (dir > 0) {
        for (i = 0; i < n; i++)
            if (strcmp(nb[i], cur) > 0)
                return nb[i];
        i = 0;
    } else {
        for (i = n - 1; i >= 0; i--)
            if (strcmp(nb[i], cur) < 0)
                return nb[i];
        i = n - 1;
    }
    return strcmp(nb[i], cur) != 0 ? nb[i] : NULL;
}

bool file_list_show_neighbour(file_list *l, const char *path)
{
    for (int i = 0; i < l->nfiles; i++)
        if (strcmp(l->files[i], path) == 0) {
            l->cur = i;
            return true;
        }
    char *copy = l->nfiles > 0 ? strdup(path) : NULL;
    if (!copy)
        return false;
    free(l->files[l->cur]);
    l->files[l->cur] = copy;
    l->info[l->cur] = (file_info){0};
    return true;
}
