/* Source files, read once each, for the pages that show source lines.  */
#include "output/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool try_read(const char *path, struct source_file *file)
{
    struct byte_buffer contents = { 0 };
    struct diag d;
    if (!read_whole_file(path, &contents, &d)) {
        buffer_free(&contents);
        return false;
    }
    file->text = contents.data ? contents.data : xstrdup("");
    size_t capacity = 0;
    char *line = file->text;
    while (*line) {
        void *items = file->lines;
        grow_array(&items, &capacity, file->n_lines + 1, sizeof *file->lines);
        file->lines = items;
        file->lines[file->n_lines++] = line;
        char *newline = strchr(line, '\n');
        if (!newline)
            break;
        *newline = '\0';
        line = newline + 1;
    }
    return true;
}

void sources_init(struct sources *sources, const struct source_dirs *dirs)
{
    *sources = (struct sources) { dirs->dirs, dirs->n_dirs, NULL, 0, 0 };
}

const struct source_file *sources_find(struct sources *sources, const char *name)
{
    for (size_t i = 0; i < sources->n_files; i++) {
        if (strcmp(sources->files[i].name, name) == 0)
            return &sources->files[i];
    }
    void *items = sources->files;
    grow_array(&items, &sources->capacity, sources->n_files + 1, sizeof *sources->files);
    sources->files = items;
    struct source_file *file = &sources->files[sources->n_files++];
    memset(file, 0, sizeof *file);
    file->name = xstrdup(name);
    /* "-" would be standard input to read_whole_file.  */
    file->found = *name && strcmp(name, "-") != 0 && try_read(name, file);
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (size_t i = 0; !file->found && *name && i < sources->n_dirs * 2; i++) {
        const char *tail = i % 2 == 0 ? name : base;
        size_t size = strlen(sources->dirs[i / 2]) + strlen(tail) + 2;
        char *path = xmalloc(size);
        snprintf(path, size, "%s/%s", sources->dirs[i / 2], tail);
        file->found = try_read(path, file);
        free(path);
    }
    return file;
}

void sources_free(struct sources *sources)
{
    for (size_t i = 0; i < sources->n_files; i++) {
        free(sources->files[i].name);
        free(sources->files[i].text);
        free(sources->files[i].lines);
    }
    free(sources->files);
}
