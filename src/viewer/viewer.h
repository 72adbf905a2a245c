/* The interactive viewer: a GLFW window that runs the whole GPU pipeline on every drawn frame
 * (scene pass with zoom/pan and MSAA, analyse, apply) into the picture's viewport, with the
 * panels beside it and every action of one action table by key, menu or panel. */
#ifndef HT_VIEWER_H
#define HT_VIEWER_H

#include <stdio.h>

#include "options.h"

/* Opens FILES[0..NFILES) (at least one; a folder opens its images: file_list.h) in a window
 * and runs until the user quits, or until o->screenshot has been written. Returns the process
 * exit status: 0 on a normal quit, 1 when there is no display or no OpenGL 4.3 (the message
 * says why, on stderr). A file that cannot be loaded is reported in the window and on stderr;
 * it never ends the viewer. */
int viewer_main(const ht_options *o, char **files, int nfiles);

#endif
