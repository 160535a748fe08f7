#include "output/output-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool output_open(struct output_file *output, const char *path, struct diag *d)
{
    size_t size = strlen(path) + 32;
    output->path = xstrdup(path);
    output->temporary = xmalloc(size);
    snprintf(output->temporary, size, "%s.tmp.%ld", path, (long) getpid());
    output->file = fopen(output->temporary, "wb");
    if (!output->file) {
        diag_fail(d, "cannot write %s: %s", output->temporary, strerror(errno));
        free(output->path);
        free(output->temporary);
        output->path = output->temporary = NULL;
        return false;
    }
    return true;
}

bool output_commit(struct output_file *output, struct diag *d)
{
    bool failed = ferror(output->file) != 0;
    int error = errno;
    if (fclose(output->file) != 0 && !failed) {
        failed = true;
        error = errno;
    }
    output->file = NULL;
    if (!failed && rename(output->temporary, output->path) != 0) {
        failed = true;
        error = errno;
    }
    if (failed) {
        diag_fail(d, "cannot write %s: %s", output->path, strerror(error ? error : EIO));
        unlink(output->temporary);
    }
    free(output->path);
    free(output->temporary);
    output->path = output->temporary = NULL;
    return !failed;
}

void output_abandon(struct output_file *output)
{
    if (output->file) {
        fclose(output->file);
        unlink(output->temporary);
    }
    free(output->path);
    free(output->temporary);
    output->path = output->temporary = NULL;
    output->file = NULL;
}
