/* The viewer's open images and the neighbours of the shown one: plain data, no GL. The image
 * list (a panel, the status line) reads it; viewer_files.c loads what it names.
 *
 * Opening, as tev does: a folder opens its images, files recognised by extension (any of
 * the formats table's, image_formats.h; they are loaded by content), sorted by name; a file opens that file
 * only. The shown file's folder is listed apart, as its neighbours (same extensions, same
 * order), so that the files beside it are one step away without being open. */
#ifndef HT_FILE_LIST_H
#define HT_FILE_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct file_info {
    int width, height;       /* the image's size once loaded, else 0, 0 */
} file_info;

typedef struct file_list {
    char **files;            /* the open entries' paths as given (owned); a network image is
                                "tev:NAME" (viewer_net.c) */
    int nfiles;
    int cur;                 /* the shown entry, 0 when there is none */
    file_info *info;         /* nfiles entries */
    char **neighbours;       /* the image files of the shown file's folder, name order; paths
                                spelled as the shown one's (owned) */
    int nneighbours;
    char *neighbours_of;     /* that folder, or NULL: none listed */
} file_list;

/* The name shown for PATH: the part after the last '/'. */
const char *file_list_name(const char *path);

/* The folder of PATH in DIR (LEN bytes): "." for a bare name, "/" for a file at the root. */
void file_list_dir(const char *path, char *dir, size_t len);

/* Whether NAME ends in an extension of the formats table (image_format_extension_known). */
bool file_list_is_image_name(const char *name);

/* The image files of the folder that PREFIX names ("" = the working directory, else PREFIX
 * ends in '/'), sorted by name, as malloc'd paths PREFIX + NAME in a malloc'd array at *PATHS.
 * Returns their number (0: none, *PATHS NULL), or -1 with the reason in ERR (the folder cannot
 * be read, no memory). */
int file_list_scan(const char *prefix, char ***paths, char *err, size_t errlen);

/* Empties the list (its neighbours too). */
void file_list_free(file_list *l);

/* Adds entry PATH unless it is open already. Returns its index, or -1 when out of memory. */
int file_list_add(file_list *l, const char *path);

/* Opens PATH: a folder's images (file_list_scan) or the file PATH, each added unless open.
 * Returns the index of the first one, or -1 with the reason in ERR (a folder that cannot be
 * read or holds no image, no memory). */
int file_list_open(file_list *l, const char *path, char *err, size_t errlen);

/* Closes entry I. The shown entry stays the shown one; when I was it, the entry that took
 * its place (or the one before, at the end) is: the caller loads it. */
void file_list_remove(file_list *l, int i);

/* The shown entry's path, or NULL when the list is empty. */
const char *file_list_current(const file_list *l);

/* Lists the neighbours of the shown entry, if it is a file, when its folder is not the one
 * listed, or always with RESCAN (files come and go). False with the reason in ERR when the
 * folder cannot be read (no neighbours then). */
bool file_list_update_neighbours(file_list *l, bool rescan, char *err, size_t errlen);

/* Lists no neighbours (the shown entry is not a file of a folder). */
void file_list_clear_neighbours(file_list *l);

/* Index of the shown entry among the neighbours, or -1. */
int file_list_neighbour_index(const file_list *l);

/* The neighbour DIR (+1 next, -1 previous) steps from the shown file in name order, wrapping
 * round; NULL when the folder has no other image. */
const char *file_list_neighbour(const file_list *l, int dir);

/* Shows neighbour PATH: selects its entry if it is open, else it takes the shown entry's
 * place (browsing a folder does not grow the list). False when out of memory. */
bool file_list_show_neighbour(file_list *l, const char *path);

#endif
