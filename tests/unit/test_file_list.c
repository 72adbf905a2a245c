/* The viewer's file list (src/viewer/file_list.h), no GL: a folder opens its image files only
 * (by extension, any case), sorted by name; a file opens that file alone; entries are added
 * once, removed with the shown one kept; the shown file's neighbours are its folder's image
 * files, stepped through in name order with wrapping, also from a file the listing leaves
 * out; a neighbour takes the shown entry's place, or selects its entry when open. */
#define _DEFAULT_SOURCE   /* mkdtemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_list.h"
#include "testutil.h"

static char root[64];

/* An empty file ROOT/NAME (the list looks at names only). */
static void touch(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot create %s", path);
    if (f)
        fclose(f);
}

/* Whether the list's entries are ROOT/ + each of NAMES (NULL-terminated), in order. */
static bool entries_are(const file_list *l, const char *const *names)
{
    int n = 0;
    for (; names[n]; n++) {
        char want[256];
        snprintf(want, sizeof want, "%s/%s", root, names[n]);
        if (n >= l->nfiles || strcmp(l->files[n], want) != 0) {
            fprintf(stderr, "entry %d: %s, want %s\n", n, n < l->nfiles ? l->files[n] : "-",
                    want);
            return false;
        }
    }
    return n == l->nfiles;
}

static void test_folder(void)
{
    char err[512], dir[128];
    file_list l = {0};
    snprintf(dir, sizeof dir, "%s/d/", root);
    CHECK_EQ(file_list_open(&l, dir, err, sizeof err), 0);
    static const char *const sorted[] = {"d/B.HDR", "d/a.exr", "d/b.pfm", "d/c.pic",
                                         "d/e.rgbe", NULL};
    CHECK(entries_are(&l, sorted), "the folder's images, sorted by name");
    /* Opening it again (without the slash) adds nothing; a file in it is found. */
    snprintf(dir, sizeof dir, "%s/d", root);
    CHECK_EQ(file_list_open(&l, dir, err, sizeof err), 0);
    CHECK_EQ(l.nfiles, 5);
    snprintf(dir, sizeof dir, "%s/d/b.pfm", root);
    CHECK_EQ(file_list_open(&l, dir, err, sizeof err), 2);
    CHECK_EQ(l.info[2].width, 0);
    /* A folder without images is refused, naming it. */
    snprintf(dir, sizeof dir, "%s/empty", root);
    CHECK_EQ(file_list_open(&l, dir, err, sizeof err), -1);
    CHECK(strstr(err, dir) && strstr(err, "no image"), "message: %s", err);
    CHECK_EQ(l.nfiles, 5);
    file_list_free(&l);
    CHECK(l.files == NULL && l.nfiles == 0 && l.neighbours == NULL, "freed");
}

/* Display-referred pictures are images too (PNG, JPEG: image_load_sdr). */
static void test_pictures(void)
{
    char err[512], dir[128];
    file_list l = {0};
    snprintf(dir, sizeof dir, "%s/pics", root);
    CHECK_EQ(file_list_open(&l, dir, err, sizeof err), 0);
    static const char *const sorted[] = {"pics/p.png", "pics/q.JPEG", "pics/s.jpg", NULL};
    CHECK(entries_are(&l, sorted), "PNG and JPEG files are listed, the text file is not");
    file_list_free(&l);
}

static void test_one_file_and_neighbours(void)
{
    char err[512], path[256];
    file_list l = {0};
    snprintf(path, sizeof path, "%s/d/b.pfm", root);
    CHECK_EQ(file_list_open(&l, path, err, sizeof err), 0);
    CHECK_EQ(l.nfiles, 1);
    CHECK(file_list_update_neighbours(&l, false, err, sizeof err), "%s", err);
    CHECK_EQ(l.nneighbours, 5);
    CHECK_EQ(file_list_neighbour_index(&l), 2);
    const char *next = file_list_neighbour(&l, +1), *prev = file_list_neighbour(&l, -1);
    CHECK(next && strcmp(file_list_name(next), "c.pic") == 0, "next %s", next ? next : "-");
    CHECK(prev && strcmp(file_list_name(prev), "a.exr") == 0, "prev %s", prev ? prev : "-");
    /* Stepping replaces the shown entry: the list keeps one entry. */
    CHECK(file_list_show_neighbour(&l, next), "show");
    CHECK(l.nfiles == 1 && strcmp(file_list_name(l.files[0]), "c.pic") == 0, "replaced");
    for (int i = 0; i < 3; i++)   /* c.pic -> e.rgbe -> B.HDR (wraps) -> a.exr */
        CHECK(file_list_show_neighbour(&l, file_list_neighbour(&l, +1)), "step %d", i);
    CHECK(strcmp(file_list_name(file_list_current(&l)), "a.exr") == 0, "after wrapping: %s",
          file_list_current(&l));
    /* An open neighbour is selected, not duplicated. */
    snprintf(path, sizeof path, "%s/d/e.rgbe", root);
    CHECK_EQ(file_list_add(&l, path), 1);
    CHECK(file_list_show_neighbour(&l, path) && l.cur == 1 && l.nfiles == 2, "selected");
    /* A shown file the listing leaves out (no image extension) steps by its name. */
    snprintf(path, sizeof path, "%s/d/bb.txt", root);
    l.cur = file_list_add(&l, path);
    CHECK(file_list_update_neighbours(&l, true, err, sizeof err), "%s", err);
    CHECK_EQ(file_list_neighbour_index(&l), -1);
    next = file_list_neighbour(&l, +1);
    prev = file_list_neighbour(&l, -1);
    CHECK(next && strcmp(file_list_name(next), "c.pic") == 0, "next of bb.txt");
    CHECK(prev && strcmp(file_list_name(prev), "b.pfm") == 0, "prev of bb.txt");
    file_list_free(&l);
}

/* A bare name (no folder) has bare neighbours, from the working directory. */
static void test_bare_names(void)
{
    char err[512], dir[128];
    snprintf(dir, sizeof dir, "%s/d", root);
    CHECK(chdir(dir) == 0, "chdir");
    file_list l = {0};
    CHECK_EQ(file_list_open(&l, "a.exr", err, sizeof err), 0);
    CHECK(file_list_update_neighbours(&l, false, err, sizeof err), "%s", err);
    const char *next = file_list_neighbour(&l, +1);
    CHECK(next && strcmp(next, "b.pfm") == 0, "bare next: %s", next ? next : "-");
    /* The only image of its folder has no neighbour to step to. */
    file_list_free(&l);
    snprintf(dir, sizeof dir, "%s/one", root);
    CHECK(chdir(dir) == 0, "chdir");
    CHECK_EQ(file_list_open(&l, "only.exr", err, sizeof err), 0);
    CHECK(file_list_update_neighbours(&l, false, err, sizeof err), "%s", err);
    CHECK(file_list_neighbour(&l, +1) == NULL && file_list_neighbour(&l, -1) == NULL,
          "a lone file has no neighbour");
    file_list_free(&l);
    CHECK(chdir("/") == 0, "chdir");
}

static void test_add_remove(void)
{
    file_list l = {0};
    const char *names[] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++)
        CHECK_EQ(file_list_add(&l, names[i]), i);
    CHECK_EQ(file_list_add(&l, "y"), 1);
    l.info[2] = (file_info){7, 9};
    l.cur = 2;
    file_list_remove(&l, 0);   /* before the shown one: it stays shown */
    CHECK(l.nfiles == 2 && strcmp(file_list_current(&l), "z") == 0, "shown z");
    CHECK(l.info[1].width == 7 && l.info[1].height == 9, "sizes move with their entries");
    file_list_remove(&l, 1);   /* the shown one, last: the one before is */
    CHECK(l.nfiles == 1 && strcmp(file_list_current(&l), "y") == 0, "then y");
    file_list_remove(&l, 0);
    CHECK(file_list_current(&l) == NULL && l.cur == 0, "empty");
    file_list_free(&l);
    char dir[64];
    file_list_dir("a.exr", dir, sizeof dir);
    CHECK(strcmp(dir, ".") == 0, "dir of a bare name: %s", dir);
    file_list_dir("/a.exr", dir, sizeof dir);
    CHECK(strcmp(dir, "/") == 0, "dir at the root: %s", dir);
    file_list_dir("x/y/a.exr", dir, sizeof dir);
    CHECK(strcmp(dir, "x/y") == 0, "dir: %s", dir);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/ht_file_list_XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    char cmd[384];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/d/sub.exr %s/empty %s/one %s/pics", root, root, root,
             root);
    CHECK(system(cmd) == 0, "mkdir");
    const char *files[] = {"d/b.pfm", "d/a.exr", "d/B.HDR", "d/c.pic", "d/e.rgbe", "d/notes.txt",
                           "d/exr", "d/bb.txt", "empty/readme", "one/only.exr", "pics/q.JPEG",
                           "pics/p.png", "pics/r.txt", "pics/s.jpg"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        touch(files[i]);
    test_folder();
    test_pictures();
    test_one_file_and_neighbours();
    test_bare_names();
    test_add_remove();
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0, "cleanup");
    return test_finish("test_file_list");
}
