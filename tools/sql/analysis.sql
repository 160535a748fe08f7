-- The analysis as views over the store (schema.sql; docs/schema.md), for
-- every release at once: filter by release when reading them.  Plain SQL
-- that PostgreSQL, DuckDB and SQLite read alike (SQLite with its math
-- functions, as Debian builds it); `&' on BIGINT is the one operator
-- outside the standard (docs/fleet.md says how other engines spell it).
--
--   ranking          rank's ranking before elimination, from the
--                    aggregates fold.sql keeps (list 'ranking')
--   elimination      the steps rank-step.sql took (list 'elimination')
--   rank_output      both, in the columns of `rank --format=csv'
--   hot_values_combined, paths_combined, subpaths_combined
--                    the lists of `values', `paths' and `subpaths'
--
-- Arithmetic follows tools/report/stats.c operation for operation, so
-- that every engine computes the same doubles as rank.

INSERT INTO fold_state (batch) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM fold_state);
-- rank's defaults: 95% (z from GSL's normal quantile) and 3 failing runs.
INSERT INTO rank_settings (z, min_failing)
    SELECT 1.9599639845400536, 3 WHERE NOT EXISTS (SELECT 1 FROM rank_settings);

DROP VIEW IF EXISTS rank_output;
DROP VIEW IF EXISTS ranking;
DROP VIEW IF EXISTS predicate_scores;
DROP VIEW IF EXISTS score_inputs;

-- Each predicate's four counts and NumF: over every folded run (list
-- 'ranking'), and over the runs still in play during elimination (list
-- 'elimination').  Predicates of sites observed in every run (checks,
-- function entries) are observed in every run in play.
CREATE VIEW score_inputs AS
SELECT 'ranking' AS list, c.release, c.predicate, p.tie_order, c.f, c.s,
       CASE WHEN si.every_run = 1 THEN t.failing ELSE sc.f_obs END AS f_obs,
       CASE WHEN si.every_run = 1 THEN t.successful ELSE sc.s_obs END AS s_obs,
       t.failing AS num_f
FROM predicate_counts c
JOIN predicates p ON p.release = c.release AND p.predicate = c.predicate
JOIN sites si ON si.release = p.release AND si.site = p.site
JOIN site_counts sc ON sc.release = p.release AND sc.site = p.site
JOIN release_counts t ON t.release = c.release
UNION ALL
SELECT 'elimination' AS list, i.release, i.predicate, p.tie_order, i.f, i.s,
       CASE WHEN si.every_run = 1 THEN r.failing ELSE i.f_obs END AS f_obs,
       CASE WHEN si.every_run = 1 THEN r.successful ELSE i.s_obs END AS s_obs,
       r.failing AS num_f
FROM in_play i
JOIN predicates p ON p.release = i.release AND p.predicate = i.predicate
JOIN sites si ON si.release = p.release AND si.site = p.site
JOIN in_play_runs r ON r.release = i.release;

-- Failure, Context, Increase, Newcombe's lower bound of Increase from
-- Wilson's intervals (l of Failure's, u of Context's), Importance:
--   Wilson(x of n) = (p + z^2/2n -+ z sqrt(p (1 - p)/n + z^2/4n^2)) / (1 + z^2/n)
--   bound = Increase - sqrt((Failure - l)^2 + (u - Context)^2)
--   Importance = 2 / (1 / bound + log NumF / log F)
-- kept: counts that make sense, bound above 0, F at least min_failing.
CREATE VIEW predicate_scores AS
WITH sensible AS (
    SELECT i.*, k.z, k.min_failing,
           CAST(i.f AS DOUBLE PRECISION) AS fd,
           CAST(i.f + i.s AS DOUBLE PRECISION) AS n,
           CAST(i.f_obs AS DOUBLE PRECISION) AS f_obs_d,
           CAST(i.f_obs + i.s_obs AS DOUBLE PRECISION) AS n_obs
    FROM score_inputs i CROSS JOIN rank_settings k
    WHERE i.f + i.s > 0 AND i.f <= i.f_obs AND i.s <= i.s_obs AND i.f_obs <= i.num_f),
rates AS (
    SELECT sensible.*, fd / n AS failure, f_obs_d / n_obs AS context, z * z AS z2
    FROM sensible),
wilson AS (
    SELECT rates.*,
           failure - CASE WHEN f = 0 THEN 0.0
                          ELSE (failure + z2 / (2 * n)
                                - z * sqrt(failure * (1 - failure) / n + z2 / (4 * n * n)))
                               / (1 + z2 / n) END AS failure_below,
           CASE WHEN f_obs = f_obs + s_obs THEN 1.0
                ELSE (context + z2 / (2 * n_obs)
                      + z * sqrt(context * (1 - context) / n_obs + z2 / (4 * n_obs * n_obs)))
                     / (1 + z2 / n_obs) END - context AS context_above
    FROM rates),
bounded AS (
    SELECT wilson.*, failure - context AS increase,
           (failure - context)
           - sqrt(failure_below * failure_below + context_above * context_above)
               AS increase_lower_bound
    FROM wilson)
SELECT list, release, predicate, tie_order, f, s, f_obs, s_obs, num_f, failure, context,
       increase, increase_lower_bound,
       CASE WHEN increase_lower_bound > 0 AND f >= min_failing THEN 1 ELSE 0 END AS kept,
       CASE WHEN NOT (increase_lower_bound > 0 AND f >= min_failing) THEN 0.0
            WHEN f <= 1 AND num_f > 1 THEN 0.0
            WHEN num_f <= 1 THEN 2 / (1 / increase_lower_bound + 1)
            ELSE 2 / (1 / increase_lower_bound
                      + ln(CAST(num_f AS DOUBLE PRECISION)) / ln(fd)) END AS importance
FROM bounded;

-- The kept predicates of each release, best first, as rank orders them:
-- Importance, then the bound, then F, then the tie order.
CREATE VIEW ranking AS
SELECT release,
       row_number() OVER (PARTITION BY release
                          ORDER BY importance DESC, increase_lower_bound DESC, f DESC,
                                   tie_order) AS position,
       predicate, f, s, f_obs, s_obs, num_f, failure, context, increase,
       increase_lower_bound, importance
FROM predicate_scores
WHERE list = 'ranking' AND kept = 1;

-- The elimination and the ranking in `rank --format=csv''s columns.
CREATE VIEW rank_output AS
WITH rows_of_lists AS (
    SELECT 'elimination' AS list, release, step AS position, predicate, f, s, f_obs, s_obs,
           num_f, failure, context, increase, increase_lower_bound, importance
    FROM elimination_steps
    UNION ALL
    SELECT 'ranking' AS list, release, position, predicate, f, s, f_obs, s_obs, num_f,
           failure, context, increase, increase_lower_bound, importance
    FROM ranking)
SELECT l.release, l.list, l.position, si.unit, si.unit_site AS site, p.k AS predicate_index,
       si.file, si.line, si.column_number AS "column", si.function, si.scheme,
       p.text AS predicate, l.importance AS importance_from_lower_bound, l.increase,
       l.increase_lower_bound, l.failure, l.context, l.f, l.s, l.f_obs AS f_observed,
       l.s_obs AS s_observed, l.num_f AS num_failing
FROM rows_of_lists l
JOIN predicates p ON p.release = l.release AND p.predicate = l.predicate
JOIN sites si ON si.release = p.release AND si.site = p.site;
