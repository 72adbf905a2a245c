/* The human-vision stage's passes (human_gpu.h): the acuity pyramid (human_pyramid.comp) and
 * the prepare pass (human_prepare.comp), one object owning their programs and textures, and
 * what the pipeline keeps of the stage. Internal to the GPU layer. */
#ifndef HT_PASS_HUMAN_H
#define HT_PASS_HUMAN_H

#include "human_gpu.h"
#include "pass.h"

typedef struct pass_human pass_human;

/* The pipeline's stage: the pipeline owns it (pipeline_internal.h), pipeline_human.c runs it. */
typedef struct pipeline_human {
    pass_human *pass;        /* made on first use: pipelines without the stage build nothing */
    ht_human_grids grids;    /* pipeline_set_human's or the analysis's; stages 0: off */
} pipeline_human;

/* Before the apply pass on SRC: *H the stage the apply pass runs (NULL: none), its pyramid
 * built. False (reason in err) when the stage is on and SRC is not the uploaded image in one
 * texture, or the pyramid's program does not build. */
bool pipeline_human_for_apply(pipeline *p, ht_source src, const pipeline_human **h, char *err,
                              size_t errlen);
/* Deletes the stage's textures (pipeline_release_textures), or everything it owns with ALL. */
void pipeline_human_release(pipeline_human *h, bool all);

/* NULL with the reason in err. */
pass_human *pass_human_create(char *err, size_t errlen);
void pass_human_destroy(pass_human **p);

/* Builds the acuity pyramid of IMG (one texture; GENERATION: pipeline_image_generation, so
 * that new pixels in the same texture rebuild it) up to G's root level, unless it holds that
 * already; nothing when G has no acuity. False (reason in err) when the program does not
 * build. */
bool pass_human_pyramid(pass_human *p, ht_source img, unsigned long generation,
                        const ht_human_grids *g, char *err, size_t errlen);
/* The next pass_human_pyramid builds the pyramid again (pipeline_human_pyramid_stale). */
void pass_human_pyramid_stale(pass_human *p);
/* The pyramid texture and its levels (0: none). */
unsigned pass_human_pyramid_texture(const pass_human *p, int *levels);

/* Binds what ht_human_pixel reads for program PROG (current) on picture IMG: the pyramid on
 * texture unit 1, G's buffers and the u_human_* uniforms. The pyramid must be built. */
void pass_human_bind(const pass_human *p, unsigned prog, const ht_human_grids *g, ht_source img);

/* The prepare pass over IMG (pyramid built) into the pass's RGBA32F texture, returned in
 * *OUT. False (reason in err) when the program does not build. */
bool pass_human_prepare(pass_human *p, ht_source img, const ht_human_grids *g,
                        const tonemap_params *params, ht_source *out, char *err,
                        size_t errlen);

/* Deletes the pyramid and prepared textures (the next run makes new ones). */
void pass_human_release_textures(pass_human *p);

#endif
