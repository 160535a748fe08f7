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
--                    the lists of `values', `paths' and `subpaths', from
--                    the totals fold-totals.sql keeps
--   batch_*          what a fold's batch adds to those totals
--
-- Arithmetic follows tools/report/statistics/stats.c operation for operation, so
-- that every engine computes the same doubles as rank.

INSERT INTO fold_state (batch) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM fold_state);
-- rank's defaults: 95% (z from GSL's normal quantile) and 3 failing runs.
INSERT INTO rank_settings (z, min_failing)
    SELECT 1.9599639845400536, 3 WHERE NOT EXISTS (SELECT 1 FROM rank_settings);

DROP VIEW IF EXISTS batch_subpath_sums;
DROP VIEW IF EXISTS batch_subpath_class_sums;
DROP VIEW IF EXISTS batch_path_sums;
DROP VIEW IF EXISTS batch_path_function_sums;
DROP VIEW IF EXISTS batch_hot_value_sums;
DROP VIEW IF EXISTS batch_hot_site_sums;
DROP VIEW IF EXISTS batch_hour_sums;
DROP VIEW IF EXISTS batch_subpaths;
DROP VIEW IF EXISTS batch_path_samples;
DROP VIEW IF EXISTS batch_hot_lists;
DROP VIEW IF EXISTS subpaths_combined;
DROP VIEW IF EXISTS paths_combined;
DROP VIEW IF EXISTS hot_values_combined;
DROP VIEW IF EXISTS run_site_rates;
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

-- ---- Profiles: values, paths, subpaths -----------------------------------------
-- Intervals at 95%, z as above; strings (files, blocks) ordered by their
-- bytes, as C's strcmp (on PostgreSQL: a database of collation C).

-- How many visits one sample of a site stands for in a run: its sparsity
-- for a site of default weight; 1 / (1 - (1 - 1 / (sparsity * unit))^weight)
-- for a weighted one (tools/report/input/site-table.c, site_visits_per_sample);
-- NULL when the site was off.
CREATE VIEW run_site_rates AS
SELECT r.release, r.run, si.site,
       CASE WHEN si.weight = 0 OR r.sparsity = 0 THEN NULL
            WHEN si.weight = 1 AND r.countdown_unit = 1 THEN CAST(r.sparsity AS DOUBLE PRECISION)
            WHEN CAST(r.sparsity AS DOUBLE PRECISION) * r.countdown_unit <= 1 THEN 1.0
            WHEN si.weight = 1
                THEN 1 / (1 / (CAST(r.sparsity AS DOUBLE PRECISION) * r.countdown_unit))
            ELSE 1 / (1 - power(1 - 1 / (CAST(r.sparsity AS DOUBLE PRECISION)
                                         * r.countdown_unit), si.weight)) END
           AS visits_per_sample
FROM runs r JOIN sites si ON si.release = r.release;

-- values: each site's hot-lists combined over the folded runs.  A run's
-- entry of count c in a list of tau = 2^tau_log2 visits per sample stands
-- for c * tau visits; the combined estimate of a value is the sum over
-- runs (hot_value_totals, folded by fold-totals.sql with the site's
-- visits and largest tau in hot_site_totals).  `values' combines lists by
-- thinning them to the larger tau by coin tosses (tools/report/schemes/values/hotlist.c),
-- which has the same expectation; where no thinning happened (every run's
-- list of the site had the same tau and the site took no more distinct
-- values than its capacity) the two agree exactly.  A value's count is its
-- estimate over the site's largest tau; visits and share have `values''
-- intervals on that count (Poisson score, Wilson), flags as `values': one
-- value: invariant; the top share's lower bound at least 0.9:
-- semi-invariant.
CREATE VIEW hot_values_combined AS
WITH site_totals AS (
    SELECT release, site, site_visits, tau FROM hot_site_totals),
entries AS (
    SELECT release, site, hot_value, target, estimate FROM hot_value_totals),
counted AS (
    SELECT e.release, e.site, e.hot_value, e.target, e.estimate / t.tau AS count, t.tau,
           t.site_visits,
           sum(e.estimate / t.tau) OVER (PARTITION BY e.release, e.site) AS sample,
           count(*) OVER (PARTITION BY e.release, e.site) AS n_values,
           row_number() OVER (PARTITION BY e.release, e.site
                              ORDER BY e.estimate DESC,
                                       CASE WHEN e.hot_value < 0 THEN 1 ELSE 0 END,
                                       e.hot_value, e.target) AS value_rank
    FROM entries e JOIN site_totals t ON t.release = e.release AND t.site = e.site),
estimated AS (
    SELECT counted.*, 1.9599639845400536 AS z, count * tau AS visits, count / sample AS share
    FROM counted),
intervals AS (
    SELECT estimated.*,
           CASE WHEN tau = 1 THEN visits
                WHEN count + z * z / 2 - z * sqrt(count + z * z / 4) > 0
                    THEN (count + z * z / 2 - z * sqrt(count + z * z / 4)) * tau
                ELSE 0.0 END AS visits_low,
           CASE WHEN tau = 1 THEN visits
                ELSE (count + z * z / 2 + z * sqrt(count + z * z / 4)) * tau END AS visits_high,
           CASE WHEN tau = 1 THEN share
                ELSE ((share + z * z / (2 * sample)) / (1 + z * z / sample)
                      - z * sqrt(share * (1 - share) / sample + z * z / (4 * sample * sample))
                        / (1 + z * z / sample)) END AS share_low_raw,
           CASE WHEN tau = 1 THEN share
                ELSE ((share + z * z / (2 * sample)) / (1 + z * z / sample)
                      + z * sqrt(share * (1 - share) / sample + z * z / (4 * sample * sample))
                        / (1 + z * z / sample)) END AS share_high_raw
    FROM estimated),
bounded AS (
    SELECT intervals.*,
           CASE WHEN share_low_raw < 0 THEN 0.0 ELSE share_low_raw END AS share_low,
           CASE WHEN share_high_raw > 1 THEN 1.0 ELSE share_high_raw END AS share_high
    FROM intervals),
flagged AS (
    SELECT bounded.*,
           CASE WHEN n_values = 1 THEN 'invariant'
                WHEN max(CASE WHEN value_rank = 1 THEN share_low END)
                         OVER (PARTITION BY release, site) >= 0.9 THEN 'semi-invariant'
                ELSE '' END AS flag
    FROM bounded)
SELECT f.release,
       dense_rank() OVER (PARTITION BY f.release
                          ORDER BY f.site_visits DESC, si.file, si.line, si.column_number,
                                   si.unit, si.unit_site) AS site_rank,
       si.file, si.line, si.column_number AS "column", si.function, si.site_text AS observed,
       si.unit, si.unit_site AS site, f.site_visits, f.tau, f.sample, f.flag, f.value_rank,
       si.value_kind, f.hot_value, f.target, f.count, f.visits, f.visits_low, f.visits_high,
       f.share, f.share_low, f.share_high
FROM flagged f JOIN sites si ON si.release = f.release AND si.site = f.site;

-- paths: each function's path counts over the folded runs (path_totals
-- and path_function_totals, folded by fold-totals.sql), traversals
-- estimated as count * scale (the visits one sample stands for);
-- intervals as `paths': exact at scale 1, Poisson score on the count times
-- the scale when every run had the same scale, normal on the summed
-- variance count * scale * (scale - 1) otherwise.
CREATE VIEW paths_combined AS
WITH functions AS (
    SELECT release, site, sampled, lost, function_traversals,
           CASE WHEN min_scale = max_scale THEN max_scale ELSE 0.0 END AS scale
    FROM path_function_totals),
totals AS (
    SELECT release, site, path, count, traversals, variance FROM path_totals),
intervals AS (
    SELECT t.*, f.sampled, f.lost, f.function_traversals, f.scale,
           CASE WHEN f.scale = 1 THEN t.traversals
                WHEN f.scale > 1
                    THEN CASE WHEN t.count + z * z / 2 - z * sqrt(t.count + z * z / 4) > 0
                              THEN (t.count + z * z / 2 - z * sqrt(t.count + z * z / 4))
                                   * f.scale
                              ELSE 0.0 END
                WHEN t.traversals - z * sqrt(t.variance) > 0
                    THEN t.traversals - z * sqrt(t.variance)
                ELSE 0.0 END AS traversals_low,
           CASE WHEN f.scale = 1 THEN t.traversals
                WHEN f.scale > 1
                    THEN (t.count + z * z / 2 + z * sqrt(t.count + z * z / 4)) * f.scale
                ELSE t.traversals + z * sqrt(t.variance) END AS traversals_high,
           row_number() OVER (PARTITION BY t.release, t.site
                              ORDER BY t.traversals DESC, t.path) AS path_rank
    FROM totals t
    JOIN functions f ON f.release = t.release AND f.site = t.site
    CROSS JOIN (SELECT 1.9599639845400536 AS z) k)
SELECT i.release,
       dense_rank() OVER (PARTITION BY i.release
                          ORDER BY i.function_traversals DESC, si.file, si.line, si.unit,
                                   si.unit_site) AS function_rank,
       si.file, si.line, si.function, si.unit, si.unit_site AS site, i.sampled, i.lost,
       i.function_traversals, i.path_rank, i.path, i.count, i.traversals, i.traversals_low,
       i.traversals_high
FROM intervals i JOIN sites si ON si.release = i.release AND si.site = i.site;

-- subpaths: each thread's list stands for tau / (rate * P(length))
-- occurrences per unit (P: 1 / length below the list's longest, 2 /
-- longest at it, 1 when every length was recorded); subpaths of one length
-- whose first blocks have one weight form a class, combined as the
-- values' lists (above): estimates summed over lists (subpath_totals), the
-- count on the class's largest scale (subpath_class_totals), Chernoff
-- bounds on it at 95%.  Surely hottest first: by the lower bound, then the
-- estimate, then the blocks.
CREATE VIEW subpaths_combined AS
WITH subpaths AS (
    SELECT t.release, t.n_blocks, t.blocks, k.scale, t.weighted / k.scale AS count
    FROM subpath_totals t
    JOIN subpath_class_totals k ON k.release = t.release AND k.n_blocks = t.n_blocks
                               AND k.weight = t.weight),
bounds AS (
    SELECT subpaths.*, count * scale AS estimate,
           ln(2 / (1 - CAST(0.95 AS DOUBLE PRECISION))) AS l
    FROM subpaths),
bounded AS (
    SELECT bounds.*,
           CASE WHEN scale = 1 THEN estimate
                WHEN count + l / 2 - sqrt(l * l / 4 + 2 * count * l) > 0
                    THEN (count + l / 2 - sqrt(l * l / 4 + 2 * count * l)) * scale
                ELSE 0.0 END AS low,
           CASE WHEN scale = 1 THEN estimate
                ELSE (count + l + sqrt(l * l + 2 * count * l)) * scale END AS high
    FROM bounds)
SELECT release,
       row_number() OVER (PARTITION BY release ORDER BY low DESC, estimate DESC, blocks)
           AS subpath_rank,
       estimate, low, high, n_blocks, count, scale, blocks
FROM bounded;

-- ---- Folding: what the current batch adds (fold-totals.sql) ----------------------------
-- The runs of the current fold batch (run_folds marks them with
-- fold_state's batch), their hot-lists, path samples and subpaths weighed
-- as the combined views weigh them, and their sums per key of each total.

CREATE VIEW batch_hot_lists AS
SELECT h.release, h.run, h.site, h.sampled, q.visits_per_sample,
       power(2.0, h.tau_log2) * q.visits_per_sample AS tau
FROM run_folds f
JOIN hot_lists h ON h.release = f.release AND h.run = f.run
JOIN run_site_rates q ON q.release = h.release AND q.run = h.run AND q.site = h.site
WHERE f.batch = (SELECT batch FROM fold_state)
  AND h.sampled > 0 AND q.visits_per_sample IS NOT NULL;

CREATE VIEW batch_path_samples AS
SELECT p.release, p.run, p.site, p.sampled, p.lost, q.visits_per_sample AS scale
FROM run_folds f
JOIN path_samples p ON p.release = f.release AND p.run = f.run
JOIN run_site_rates q ON q.release = p.release AND q.run = p.run AND q.site = p.site
WHERE f.batch = (SELECT batch FROM fold_state)
  AND p.sampled > 0 AND q.visits_per_sample IS NOT NULL;

CREATE VIEW batch_subpaths AS
SELECT c.release, c.n_blocks, si.weight, c.blocks, c.count,
       power(2.0, l.tau_log2) * q.visits_per_sample
       / CASE WHEN l.all_lengths = 1 THEN 1.0
              WHEN c.n_blocks < l.longest THEN 1.0 / c.n_blocks
              ELSE 2.0 / l.longest END AS scale
FROM run_folds f
JOIN subpath_counts c ON c.release = f.release AND c.run = f.run
JOIN subpath_lists l ON l.release = c.release AND l.run = c.run AND l.list_index = c.list_index
JOIN run_site_rates q ON q.release = c.release AND q.run = c.run AND q.site = c.first_site
JOIN sites si ON si.release = c.release AND si.site = c.first_site
WHERE f.batch = (SELECT batch FROM fold_state)
  AND c.n_blocks <= l.longest AND q.visits_per_sample IS NOT NULL;

CREATE VIEW batch_hour_sums AS
SELECT r.release, substr(CAST(r.received AS VARCHAR), 1, 13) AS hour, count(*) AS runs,
       sum(f.failed) AS failing
FROM run_folds f JOIN runs r ON r.release = f.release AND r.run = f.run
WHERE f.batch = (SELECT batch FROM fold_state)
GROUP BY r.release, substr(CAST(r.received AS VARCHAR), 1, 13);

CREATE VIEW batch_hot_site_sums AS
SELECT release, site, sum(sampled * visits_per_sample) AS site_visits, max(tau) AS tau
FROM batch_hot_lists GROUP BY release, site;

CREATE VIEW batch_hot_value_sums AS
SELECT l.release, l.site, v.hot_value, v.target, sum(v.count * l.tau) AS estimate
FROM batch_hot_lists l
JOIN hot_values v ON v.release = l.release AND v.run = l.run AND v.site = l.site
GROUP BY l.release, l.site, v.hot_value, v.target;

CREATE VIEW batch_path_function_sums AS
SELECT release, site, sum(sampled) AS sampled, sum(lost) AS lost,
       sum(sampled * scale) AS function_traversals, min(scale) AS min_scale,
       max(scale) AS max_scale
FROM batch_path_samples GROUP BY release, site;

CREATE VIEW batch_path_sums AS
SELECT s.release, s.site, c.path, sum(c.count) AS count, sum(c.count * s.scale) AS traversals,
       sum(c.count * s.scale * (s.scale - 1)) AS variance
FROM batch_path_samples s
JOIN path_counts c ON c.release = s.release AND c.run = s.run AND c.site = s.site
GROUP BY s.release, s.site, c.path;

CREATE VIEW batch_subpath_class_sums AS
SELECT release, n_blocks, weight, max(scale) AS scale
FROM batch_subpaths GROUP BY release, n_blocks, weight;

CREATE VIEW batch_subpath_sums AS
SELECT release, n_blocks, weight, blocks, sum(count * scale) AS weighted
FROM batch_subpaths GROUP BY release, n_blocks, weight, blocks;
