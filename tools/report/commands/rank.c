/* sampler-report rank: the predicates that predict failure, by the
   statistics of Cooperative Bug Isolation, with iterative elimination
   (statistics/ranking.h).  */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command.h"
#include "output/ranking.h"
#include "statistics/ranking.h"

/* A kept predicate is true in at least DEFAULT_MIN_FAILING failing runs
   unless --min-failing says otherwise: with one or two, at sparse rates,
   coincidences of sampling abound (docs/ranking.md).  */
enum { DEFAULT_TOP = 20, DEFAULT_MIN_FAILING = 3 };

static bool parse_confidence(const char *text, double *confidence)
{
    char *end;
    double percent = strtod(text, &end);
    if (end == text || *end || !(percent > 0 && percent < 100))
        return false;
    *confidence = percent / 100;
    return true;
}

static bool parse_count(const char *text, size_t *count)
{
    if (!*text)
        return false;
    size_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || value > (SIZE_MAX - 9) / 10)
            return false;
        value = value * 10 + (size_t) (*p - '0');
    }
    *count = value;
    return true;
}

static int take_rank_option(const struct invocation *invocation, int argc, char **argv, int *i)
{
    struct ranking_rule *rule = COMMAND_OPTIONS(invocation, struct ranking_rule);
    const struct command *self = invocation->command;
    const char *value;
    size_t count;
    if (command_option_value("--confidence", argc, argv, i, &value)) {
        if (!value || !parse_confidence(value, &rule->confidence))
            return command_usage_error(self, "bad confidence '%s' (expected a percentage "
                                       "above 0 and below 100, such as 95)",
                                       value ? value : ""), -1;
    } else if (command_option_value("--interval", argc, argv, i, &value)) {
        if (value && strcmp(value, "wilson") == 0)
            rule->interval = INTERVAL_WILSON;
        else if (value && strcmp(value, "normal") == 0)
            rule->interval = INTERVAL_NORMAL;
        else
            return command_usage_error(self, "unknown interval '%s' (expected wilson or "
                                       "normal)", value ? value : ""), -1;
    } else if (command_option_value("--min-failing", argc, argv, i, &value)) {
        if (!value || !parse_count(value, &count) || count == 0)
            return command_usage_error(self, "bad --min-failing '%s' (expected a number of "
                                       "failing runs, 1 or more)", value ? value : ""), -1;
        rule->min_failing = count;
    } else if (command_option_value("--steps", argc, argv, i, &value)) {
        if (!value || !parse_count(value, &rule->max_steps))
            return command_usage_error(self, "bad --steps '%s' (expected a number of "
                                       "elimination steps; 0: no limit)", value ? value : ""), -1;
        rule->max_steps_given = true;
    } else if (command_option_value("--top", argc, argv, i, &value)) {
        if (!value || !parse_count(value, &rule->top))
            return command_usage_error(self, "bad --top '%s' (expected a number; 0 lists "
                                       "every kept predicate)", value ? value : ""), -1;
    } else {
        return 0;
    }
    return 1;
}

static void init_rank_options(void *options)
{
    *(struct ranking_rule *) options = (struct ranking_rule) {
        .confidence = 0.95, .interval = INTERVAL_WILSON, .min_failing = DEFAULT_MIN_FAILING,
        .top = DEFAULT_TOP,
    };
}

static int run_rank(const struct invocation *invocation, struct diag *d)
{
    struct ranking_rule rule = *COMMAND_OPTIONS(invocation, struct ranking_rule);
    /* A page stays small: thousands of failing runs may take as many steps.  */
    if (invocation->format == FORMAT_HTML && !rule.max_steps_given)
        rule.max_steps = DEFAULT_SHOWN_LIMIT;
    struct universe universe = { 0 };
    struct ranking ranking = { 0 };
    bool ok = ranking_compute(&ranking, &universe, invocation->runs, &rule, d);
    if (ok) {
        switch (invocation->format) {
        case FORMAT_CSV:
        case FORMAT_JSONL:
            write_ranking_rows(stdout, &ranking, invocation->format == FORMAT_CSV);
            break;
        case FORMAT_HTML:
            write_ranking_html(stdout, &ranking, &invocation->source_dirs);
            break;
        default:
            write_ranking_text(stdout, &ranking);
        }
    }
    ranking_free(&ranking);
    universe_free(&universe);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

const struct command rank_command = {
    .name = "rank",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... "
                "[--fail-if=RULE | --labels FILE] "
                "[--confidence=PERCENT] [--min-failing=K] [--interval=wilson|normal] [--top=N] [--steps=N] "
                "[--format=text|csv|jsonl|html] [--source-dir DIR]...",
    .summary = "Rank the predicates that predict failure over many runs (Cooperative Bug\n"
               "Isolation: Increase with its lower confidence bound, Importance from that\n"
               "bound), then eliminate: take the best, drop the runs where it is true, rank\n"
               "again, until no failing run or no predicate is left.  By default any signal\n"
               "or non-zero exit status is a failure; for crashes, give --fail-if=signal.",
    .options_help =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        LABEL_OPTIONS_HELP
        "  --confidence=P   confidence level of Increase's lower bound, in percent\n"
        "                   (default 95); predicates whose bound is not above 0 are\n"
        "                   dropped\n"
        "  --min-failing=K  keep only predicates true in at least K failing runs\n"
        "                   (default 3)\n"
        "  --interval=I     Increase's bound: wilson (default; Newcombe's difference\n"
        "                   of Wilson score intervals, sound with few runs) or normal\n"
        "                   (the normal approximation of CBI, for comparison)\n"
        "  --top=N          how many predicates of the ranking before elimination to\n"
        "                   list (default 20; 0: all kept)\n"
        "  --steps=N        stop elimination after N steps (0: until no failing run or\n"
        "                   no predicate is left; the default, but 50 for html); the\n"
        "                   steps taken are the same as without a limit, only fewer\n"
        "  --format=FORMAT  text (default), csv or jsonl (one row per predicate, with a\n"
        "                   'list' column: elimination or ranking), or html (one\n"
        "                   self-contained page)\n"
        "  --source-dir DIR where the html page looks for source files, besides the\n"
        "                   current directory (repeatable)\n",
    .inputs = INPUTS_RUNS,
    .reads_store = true,
    .labels = true,
    .formats = FORMAT_SET_ALL,
    .formats_expected = "expected text, csv, jsonl or html",
    .source_dirs = true,
    .options_size = sizeof (struct ranking_rule),
    .init = init_rank_options,
    .take_option = take_rank_option,
    .run = run_rank,
};

