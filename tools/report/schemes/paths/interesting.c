/* The interesting-paths file, written from a path profile (sampler-report
   paths --write-interesting); its format is in docs/paths.md and the
   plugin's reader, plugin/ppp.cc.  */
#include "schemes/paths/interesting.h"

#include <string.h>

/* A path visits each block once.  */
#define MAX_STEPS 4096

/* A name the file can hold: one word, no spaces.  */
static bool one_word(const char *text)
{
    if (!*text)
        return false;
    for (const char *p = text; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            return false;
    return true;
}

bool interesting_begin(FILE *out, const char *origin, struct diag *d)
{
    if (fprintf(out, "%s %d\n# the hottest paths of %s (sampler-report paths)\n"
                "# path FUNCTION FILE from:LINE[/N] LINE:true|false|switch:LINE... exit:LINE\n",
                INTERESTING_HEADER, INTERESTING_VERSION, origin) < 0)
        return diag_fail(d, "cannot write the interesting-paths file");
    return true;
}

bool interesting_write_path(FILE *out, const char *function, const char *file,
                            const struct path_function *fn, unsigned long long path,
                            struct diag *d)
{
    static struct path_step steps[MAX_STEPS];
    size_t n = 0;
    long region_line;
    if (!one_word(function) || !one_word(file))
        return diag_fail(d, "%s of %s: a name with spaces cannot go in an interesting-paths "
                         "file", function, file);
    if (!path_decode(fn, path, steps, MAX_STEPS, &n, &region_line, d))
        return false;
    if (n == MAX_STEPS || n == 0 || strcmp(steps[n - 1].how, "exit") != 0)
        return diag_fail(d, "paths of %s: path %llu is too long to write", function, path);
    /* Which of the regions starting at that line, when several do (the
       table's order, which is the plugin's).  */
    size_t at_line = 0, index = 0;
    for (size_t i = 0; i < fn->n_regions; i++) {
        const struct path_region *r = &fn->regions[i];
        if (r->line != region_line)
            continue;
        at_line++;
        if (path >= r->first && path - r->first < r->n_paths)
            index = at_line;
    }
    if (at_line > 1)
        fprintf(out, "path %s %s from:%ld/%zu", function, file, region_line, index);
    else
        fprintf(out, "path %s %s from:%ld", function, file, region_line);
    for (size_t i = 0; i < n; i++) {
        const struct path_step *s = &steps[i];
        if (strcmp(s->how, "true") == 0 || strcmp(s->how, "false") == 0)
            fprintf(out, " %ld:%s", s->line, s->how);
        else if (strcmp(s->how, "switch") == 0)
            fprintf(out, " %ld:switch:%ld", s->line, i + 1 < n ? steps[i + 1].first_line : 0);
        else if (strcmp(s->how, "exit") == 0)
            fprintf(out, " exit:%ld", s->line);
    }
    if (fputc('\n', out) == EOF)
        return diag_fail(d, "cannot write the interesting-paths file");
    return true;
}
