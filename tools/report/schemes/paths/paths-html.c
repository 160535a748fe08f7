/* The page of `sampler-report paths': each function's hot paths over its
   source, a column per path marking the lines it runs through and the
   directions it leaves its branches by.  */
#include "schemes/paths/paths.h"

#include <stdlib.h>
#include <string.h>

#include "output/formats.h"
#include "support/util.h"

/* How a path passes a source line, for the HTML page.  */
enum {
    MARK_RUN = 1,       /* a line of one of its blocks */
    MARK_TRUE = 2,      /* a branch taken true, false, a switch case, the way out */
    MARK_FALSE = 4,
    MARK_SWITCH = 8,
    MARK_EXIT = 16,
};

static unsigned step_mark(const struct path_step *s)
{
    if (strcmp(s->how, "true") == 0)
        return MARK_TRUE;
    if (strcmp(s->how, "false") == 0)
        return MARK_FALSE;
    if (strcmp(s->how, "switch") == 0)
        return MARK_SWITCH;
    if (strcmp(s->how, "exit") == 0)
        return MARK_EXIT;
    return 0;
}

/* Marks, in column COLUMN of MARKS (a row per line from FIRST to LAST,
   STRIDE wide), the lines V's steps pass and how.  */
static void mark_path(const struct path_view *v, unsigned char *marks, long first, long last,
                      size_t stride, size_t column)
{
    for (size_t i = 0; i < v->n_steps; i++) {
        const struct path_step *s = &v->steps[i];
        for (long line = s->first_line; line > 0 && line <= s->last_line; line++)
            if (line >= first && line <= last)
                marks[(size_t)(line - first) * stride + column] |= MARK_RUN;
        unsigned how = step_mark(s);
        long line = s->line ? s->line : s->last_line;
        if (how && line >= first && line <= last)
            marks[(size_t)(line - first) * stride + column] |= (unsigned char) how;
    }
}

/* Widens *FIRST to *LAST (0: none yet) to the lines V's steps name.  */
static void path_lines(const struct path_view *v, long *first, long *last)
{
    for (size_t i = 0; i < v->n_steps; i++) {
        const struct path_step *s = &v->steps[i];
        long lines[3] = { s->first_line, s->last_line, s->line };
        for (int k = 0; k < 3; k++) {
            if (lines[k] <= 0)
                continue;
            if (*first == 0 || lines[k] < *first)
                *first = lines[k];
            if (lines[k] > *last)
                *last = lines[k];
        }
    }
}

static void write_mark(FILE *out, unsigned mark)
{
    static const struct { unsigned bit; const char *text; } names[] = {
        { MARK_TRUE, "T" }, { MARK_FALSE, "F" }, { MARK_SWITCH, "S" }, { MARK_EXIT, "X" },
    };
    if (!mark) {
        fputs("<td></td>", out);
        return;
    }
    fputs(mark & ~MARK_RUN ? "<td class=branch>" : "<td class=run>", out);
    bool any = false;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (mark & names[k].bit) {
            fprintf(out, "%s%s", any ? " " : "", names[k].text);
            any = true;
        }
    }
    fputs(any ? "</td>" : "&#x2022;</td>", out);
}

/* Lines no shown path passes, this many or more in a row, are folded.  */
#define FOLD_LINES 6

static bool line_marked(const unsigned char *marks, size_t stride, size_t row)
{
    for (size_t p = 0; p < stride; p++)
        if (marks[row * stride + p])
            return true;
    return false;
}

/* The function's source from its first to its last line any shown path
   names, a column per path marking the lines it runs and its branches'
   directions; or a note saying why not.  */
static void write_source(FILE *out, const struct function_view *view, struct sources *sources)
{
    const struct function_paths *f = view->paths;
    long first = 0, last = 0;
    for (size_t p = 0; p < view->n_shown; p++)
        path_lines(&view->shown[p], &first, &last);
    if (first == 0) {
        fputs("<p class=note>No source lines: the paths could not be decoded (see above).</p>\n",
              out);
        return;
    }
    const struct source_file *source = sources_find(sources, f->site->file);
    if (!source->found) {
        fputs("<p class=note>Source file <code>", out);
        html_text(out, f->site->file);
        fputs("</code> not found (give --source-dir DIR): the paths are shown as lines "
              "only.</p>\n", out);
        return;
    }
    if (f->site->line >= 1 && (long) f->site->line < first)
        first = (long) f->site->line;
    if ((size_t) last > source->n_lines)
        last = (long) source->n_lines;
    if (first > last) {
        fputs("<p class=note>Source file <code>", out);
        html_text(out, f->site->file);
        fprintf(out, "</code> has %zu lines, fewer than the paths name: it is not the file "
                "the program was built from.</p>\n", source->n_lines);
        return;
    }
    size_t stride = view->n_shown, n_lines = (size_t)(last - first + 1);
    unsigned char *marks = xcalloc(n_lines * stride, 1);
    for (size_t p = 0; p < view->n_shown; p++)
        mark_path(&view->shown[p], marks, first, last, stride, p);
    fputs("<table class=source>\n<thead><tr><th>line</th>", out);
    for (size_t p = 0; p < view->n_shown; p++)
        fprintf(out, "<th>#%zu</th>", p + 1);
    fputs("<th class=text>source</th></tr></thead>\n<tbody>\n", out);
    for (size_t l = 0; l < n_lines; l++) {
        size_t run = 0;
        while (l + run < n_lines && !line_marked(marks, stride, l + run)
               && first + (long)(l + run) != (long) f->site->line)
            run++;
        if (run >= FOLD_LINES) {
            fprintf(out, "<tr class=fold><td colspan=%zu>&#x22ee; lines %ld-%ld</td></tr>\n",
                    stride + 2, first + (long) l, first + (long)(l + run - 1));
            l += run - 1;
            continue;
        }
        fprintf(out, "<tr><td class=n>%ld</td>", first + (long) l);
        for (size_t p = 0; p < stride; p++)
            write_mark(out, marks[l * stride + p]);
        fputs("<td class=text>", out);
        html_text(out, source->lines[first + (long) l - 1]);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    free(marks);
}

/* One self-contained page: per function, a table of its hot paths and its
   source with each path's lines and branch directions marked.  */
void write_paths_html(FILE *out, const struct function_view *views, size_t n, size_t n_more,
                      const struct source_dirs *source_dirs)
{
    struct sources sources;
    sources_init(&sources, source_dirs);
    html_page_start(out, "sampler-report paths",
                    "td,th{padding:.15em .5em}\n"
                    "table.paths td,table.paths th{border-bottom:1px solid #ddd}\n"
                    "table.source{font-family:monospace}\n"
                    "table.source td{text-align:center;padding:0 .4em}\n"
                    "table.source td.n{text-align:right;color:#888}\n"
                    "table.source td.text{text-align:left;white-space:pre}\n"
                    "td.run{background:#fde7a6}"
                    "td.branch{background:#f5b942;font-weight:bold}\n"
                    "tr.fold td{color:#888;text-align:left}\n"
                    "p.note{color:#a40}\n");
    fputs("<h1>Hot paths</h1>\n"
          "<p>Hottest functions first. Each path's estimated traversals are its sampled count "
          "times the sparsity, with a 95% interval (exact at sparsity 1; else the Poisson score "
          "interval on the count). Below each function's paths, its source: a column per path, "
          "shaded on the lines of the blocks the path runs through, with the direction it "
          "leaves a branch by (T true, F false, S a switch case) and X where it leaves its "
          "region.</p>\n", out);
    if (n == 0)
        fputs("<p>No paths were sampled.</p>\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = views[i].paths;
        const struct path_function *fn = views[i].table;
        fputs("<h2><code>", out);
        html_function(out, f->site);
        fputs("</code> &mdash; ", out);
        html_text(out, f->site->file);
        fprintf(out, ":%u</h2>\n<p>traversals %.0f, sampled %llu", f->site->line, f->traversals,
                f->sampled);
        if (fn)
            fprintf(out, ", paths %llu (%s)", fn->n_paths, fn->in_array ? "array" : "hash table");
        if (f->lost)
            fprintf(out, ", lost %llu (the table was full)", f->lost);
        fputs("</p>\n<table class=paths>\n<thead><tr><th>#</th><th>path</th>"
              "<th>traversals</th><th>95% interval</th><th>share</th><th>spelled</th></tr>"
              "</thead>\n<tbody>\n", out);
        for (size_t p = 0; p < views[i].n_shown; p++) {
            const struct path_view *v = &views[i].shown[p];
            const struct path_total *t = v->total;
            fprintf(out, "<tr><td class=n>%zu</td><td class=n>%llu</td><td class=n>%.0f</td>"
                    "<td class=n>%.0f&ndash;%.0f</td><td class=n>%.1f%%</td><td><code>",
                    p + 1, t->path, t->traversals, v->low, v->high,
                    f->traversals > 0 ? 100 * t->traversals / f->traversals : 0);
            html_text(out, v->spelled);
            fputs("</code></td></tr>\n", out);
        }
        fputs("</tbody></table>\n", out);
        write_source(out, &views[i], &sources);
    }
    write_functions_left_out(out, n_more, "<p>", "</p>\n");
    fputs("</body></html>\n", out);
    sources_free(&sources);
}
