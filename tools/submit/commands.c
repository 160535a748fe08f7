/* sampler-submit status and sampler-submit consent (docs/remote.md).  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "submit.h"

static const char *answer_name(enum sampler_consent_answer answer)
{
    switch (answer) {
    case SAMPLER_CONSENT_YES: return "yes";
    case SAMPLER_CONSENT_NO: return "no";
    case SAMPLER_CONSENT_INVALID: return "neither yes nor no (counts as no)";
    case SAMPLER_CONSENT_ABSENT: break;
    }
    return "not recorded";
}

/* The last line of STORE/submit.log into LINE.  */
static void last_log_line(const struct store *store, char *line, size_t size)
{
    char path[4200];

    line[0] = '\0';
    snprintf(path, sizeof path, "%s/submit.log", store->path);
    FILE *in = fopen(path, "r");
    if (in == NULL)
        return;
    char buffer[2048];
    while (fgets(buffer, sizeof buffer, in) != NULL)
        snprintf(line, size, "%s", buffer);
    fclose(in);
    line[strcspn(line, "\n")] = '\0';
}

static bool show_store(const char *path, void *context)
{
    struct store store;
    struct submit_state state;
    const char *why;
    char file[4200], line[2048];
    size_t count;
    long long bytes = 0;
    unsigned *shown = context;

    if (!store_open(&store, path))
        return false;
    if (shown != NULL)
        ++*shown;
    struct pending *reports = store_pending(&store, &count);
    for (size_t i = 0; i < count; i++)
        bytes += reports[i].size;
    free(reports);
    store_read_state(&store, &state);
    bool given = store_consent(&store, &why);
    printf("%s %s (%s)\n", store.release.product, store.release.version, store.path);
    printf("  consent:   %s: %s\n", given ? "yes" : "no", why);
    snprintf(file, sizeof file, "%s/retired", store.path);
    if (access(file, F_OK) == 0)
        printf("  retired:   the collector takes no more reports of this release\n");
    printf("  pending:   %zu reports, %lld bytes (the bound: %lu reports, %llu bytes)\n", count,
           bytes, store.release.store_max_reports, store.release.store_max_bytes);
    snprintf(file, sizeof file, "%s/dropped", store.path);
    FILE *in = fopen(file, "r");
    unsigned long long dropped = 0;
    if (in != NULL) {
        if (fscanf(in, "%llu", &dropped) != 1)
            dropped = 0;
        fclose(in);
    }
    if (dropped > 0)
        printf("  dropped:   %llu reports, to be counted in the next report\n", dropped);
    time_t now = time(NULL);
    if (state.next > now)
        printf("  next:      in %lld s", (long long)(state.next - now));
    else
        printf("  next:      due");
    if (state.failures > 0)
        printf(", after %u failed rounds in a row", state.failures);
    putchar('\n');
    last_log_line(&store, line, sizeof line);
    if (line[0] != '\0')
        printf("  last:      %s\n", line);
    printf("  collector: %s\n", store.release.collector);
    return true;
}

int status_command(int argc, char **argv)
{
    if (argc == 1) {
        unsigned shown = 0;
        bool ok = stores_visit(show_store, &shown);
        if (shown == 0)
            puts("no report stores: no release has run here with consent "
                 "($XDG_STATE_HOME/sampler, $XDG_CACHE_HOME/sampler)");
        return ok ? 0 : 1;
    }
    if (argc == 3 && strcmp(argv[1], "--store") == 0)
        return show_store(argv[2], NULL) ? 0 : 1;
    fputs("usage: sampler-submit status [--store DIR]\n", stderr);
    return 2;
}

/* mkdir -p of the directories leading to PATH, with MODE.  */
static bool make_parents(const char *path, mode_t mode)
{
    char copy[4096];

    snprintf(copy, sizeof copy, "%s", path);
    for (char *slash = strchr(copy + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(copy, mode) != 0 && errno != EEXIST)
            return false;
        *slash = '/';
    }
    return true;
}

static bool write_answer(const char *path, const char *product, bool yes, bool system)
{
    char temporary[4200];

    snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid());
    if (!make_parents(path, system ? 0755 : 0700))
        goto fail;
    FILE *out = fopen(temporary, "w");
    if (out == NULL)
        goto fail;
    fprintf(out, "# Whether runs of %s may sample and send their reports (sampler,\n"
            "# docs/remote.md): yes or no.  Written by sampler-submit consent.\n%s\n",
            product, yes ? "yes" : "no");
    if (fclose(out) != 0 || chmod(temporary, 0644) != 0 || rename(temporary, path) != 0) {
        unlink(temporary);
        goto fail;
    }
    return true;
fail:
    fprintf(stderr, "sampler-submit: cannot write %s: %s\n", path, strerror(errno));
    return false;
}

struct withdrawal {
    const char *product;
    size_t removed;
};

/* Withdrawing consent deletes what is waiting to be sent.  */
static bool remove_pending(const char *path, void *context)
{
    struct withdrawal *withdrawal = context;
    struct store store;
    size_t count;
    char file[4500];

    if (!store_open(&store, path) || strcmp(store.release.product, withdrawal->product) != 0)
        return true;
    struct pending *reports = store_pending(&store, &count);
    for (size_t i = 0; i < count; i++) {
        snprintf(file, sizeof file, "%s/pending/%s", store.path, reports[i].name);
        withdrawal->removed += unlink(file) == 0;
    }
    free(reports);
    return true;
}

int consent_command(int argc, char **argv)
{
    const char *product = NULL, *answer = NULL;
    bool system = false;
    char user_path[4096], system_path[4096];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--system") == 0)
            system = true;
        else if (product == NULL)
            product = argv[i];
        else if (answer == NULL && (strcmp(argv[i], "yes") == 0 || strcmp(argv[i], "no") == 0))
            answer = argv[i];
        else
            product = NULL, i = argc;
    }
    if (product == NULL) {
        fputs("usage: sampler-submit consent PRODUCT [yes|no] [--system]\n", stderr);
        return 2;
    }
    if (!sampler_release_check_name(product)) {
        fprintf(stderr, "sampler-submit: '%s' is not a product name\n", product);
        return 2;
    }
    bool have_user = sampler_user_consent_path(getenv("XDG_CONFIG_HOME"), getenv("HOME"),
                                               product, user_path, sizeof user_path);
    snprintf(system_path, sizeof system_path, "%s/%s", SAMPLER_SYSTEM_CONSENT_DIR, product);
    if (answer == NULL) {
        printf("user:   %s (%s)\n",
               have_user ? answer_name(sampler_consent_read(user_path)) : "no home directory",
               have_user ? user_path : "-");
        printf("system: %s (%s)\n", answer_name(sampler_consent_read(system_path)), system_path);
        return 0;
    }
    if (!system && !have_user) {
        fputs("sampler-submit: no home directory (HOME) to keep the user's answer in\n", stderr);
        return 1;
    }
    bool yes = strcmp(answer, "yes") == 0;
    if (!write_answer(system ? system_path : user_path, product, yes, system))
        return 1;
    printf("%s: %s for %s (%s)\n", system ? "system" : "user", answer, product,
           system ? system_path : user_path);
    if (!yes) {
        struct withdrawal withdrawal = { .product = product };
        stores_visit(remove_pending, &withdrawal);
        printf("%zu pending reports deleted; runs of %s no longer sample\n", withdrawal.removed,
               product);
    }
    return 0;
}
