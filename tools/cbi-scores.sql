-- The scores of `sampler-report rank' (before elimination) in SQL, from the
-- tables `sampler-report export' writes, so that a team with more runs than
-- one machine holds can compute them on a distributed SQL engine.  Written
-- for SQLite 3.35 or later built with its math functions (ln, sqrt:
-- check with "SELECT sqrt(4)"); nothing but CASTs, CTEs and
-- aggregates, so other engines need few changes.
--
--   sampler-report export REPORTS... --output DIR
--   sqlite3 cbi.db ".import --csv DIR/runs.csv runs" \
--                  ".import --csv DIR/sites.csv sites" \
--                  ".import --csv DIR/counts.csv counts" \
--                  ".read tools/cbi-scores.sql" \
--                  "SELECT * FROM cbi_scores ORDER BY position LIMIT 20"
--
-- The imported columns are text; every use CASTs.  The confidence level's
-- two-sided critical value z and the minimum support min_failing (a kept
-- predicate is true in at least that many failing runs) come from the
-- table cbi_parameters, made here with 1.959963984540054 (95%) and 3, as
-- rank's defaults, unless it exists already.
--
-- Increase's lower bound is rank's (tools/report/statistics/stats.h, docs/ranking.md):
-- Newcombe's hybrid score bound from the Wilson intervals of Failure and
-- Context,
--   bound = Increase - sqrt((Failure - wilson_lower(F, F + S))^2
--                           + (wilson_upper(F obs, F obs + S obs) - Context)^2)
-- and Importance is the harmonic mean of that bound and log F / log NumF.
--
-- Predicates, as in tools/report/statistics/predicates.h, numbered per site (k):
--   branches false,true    k 0: P (true > 0), k 1: !P (false > 0)
--   branches (switch)      k: arm k taken
--   returns, scalar-pairs  k 0..5: <, >=, ==, !=, >, <= from the <, ==, > counters
--   float-kinds            k: class k seen
--   function-entries, checks  k 0: entered / ran; observed in every run
--   bounds signed, double  k 0..4: min < 0, min <= 0, max > 0, max >= 0,
--                          min or max not 0 (nothing when min or max is NaN)
--   bounds unsigned        k 0..1: min = 0, max > 0
-- The result, cbi_scores, has one row per kept predicate (Increase's bound
-- above 0, true in at least min_failing failing runs), ranked as rank
-- ranks them (position 1 is the best); ties go to branches and returns
-- before other schemes before scalar pairs, then to source order.

CREATE TABLE IF NOT EXISTS cbi_parameters (z REAL NOT NULL, min_failing INTEGER NOT NULL);
INSERT INTO cbi_parameters SELECT 1.959963984540054, 3
    WHERE NOT EXISTS (SELECT 1 FROM cbi_parameters);

DROP TABLE IF EXISTS cbi_scores;
CREATE TABLE cbi_scores AS
WITH
site_info AS (
    SELECT rowid AS order_key, unit, CAST(site AS INTEGER) AS site, file,
           CAST(line AS INTEGER) AS line, CAST("column" AS INTEGER) AS column_number,
           function, scheme, predicate, counters,
           CASE WHEN scheme IN ('branches', 'returns') THEN 0
                WHEN scheme = 'scalar-pairs' THEN 2 ELSE 1 END AS readability,
           CASE WHEN scheme = 'bounds' AND predicate LIKE '%(unsigned)' THEN 'unsigned'
                WHEN scheme = 'bounds' THEN 'signed or double' END AS bound_kind,
           scheme IN ('function-entries', 'checks') AS every_run
    FROM sites),
run_info AS (
    SELECT CAST(run AS INTEGER) AS run, label = 'failure' AS failed FROM runs),
totals AS (
    SELECT sum(failed) AS num_f FROM run_info),
typed_counts AS (
    SELECT CAST(run AS INTEGER) AS run, unit, CAST(site AS INTEGER) AS site,
           CAST(counter AS INTEGER) AS counter, CAST(NULLIF(count, '') AS REAL) AS count
    FROM counts),
-- A site is observed in a run when the export has its counters.
observed AS (
    SELECT DISTINCT run, unit, site FROM typed_counts),
pivot AS (
    SELECT run, unit, site,
           max(CASE WHEN counter = 0 THEN count END) AS c0,
           max(CASE WHEN counter = 1 THEN count END) AS c1,
           max(CASE WHEN counter = 2 THEN count END) AS c2,
           sum(CASE WHEN counter IN (1, 2) AND count IS NULL THEN 1 ELSE 0 END) AS nans
    FROM typed_counts GROUP BY run, unit, site),
relations (k, lt, eq, gt) AS (
    VALUES (0, 1, 0, 0), (1, 0, 1, 1), (2, 0, 1, 0), (3, 1, 0, 1), (4, 0, 0, 1), (5, 1, 1, 0)),
truths AS (
    SELECT c.run, c.unit, c.site, c.counter AS k
    FROM typed_counts c JOIN site_info s ON s.unit = c.unit AND s.site = c.site
    WHERE (s.scheme IN ('float-kinds', 'function-entries', 'checks')
           OR (s.scheme = 'branches' AND s.counters <> 'false,true'))
      AND c.count > 0
    UNION ALL
    SELECT p.run, p.unit, p.site, b.k
    FROM pivot p JOIN site_info s ON s.unit = p.unit AND s.site = p.site
         JOIN (SELECT 0 AS k UNION ALL SELECT 1) b
    WHERE s.scheme = 'branches' AND s.counters = 'false,true'
      AND ((b.k = 0 AND p.c1 > 0) OR (b.k = 1 AND p.c0 > 0))
    UNION ALL
    SELECT p.run, p.unit, p.site, r.k
    FROM pivot p JOIN site_info s ON s.unit = p.unit AND s.site = p.site
         CROSS JOIN relations r
    WHERE s.scheme IN ('returns', 'scalar-pairs')
      AND ((r.lt AND p.c0 > 0) OR (r.eq AND p.c1 > 0) OR (r.gt AND p.c2 > 0))
    UNION ALL
    SELECT p.run, p.unit, p.site, b.k
    FROM pivot p JOIN site_info s ON s.unit = p.unit AND s.site = p.site
         JOIN (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
               UNION ALL SELECT 4) b
    WHERE s.bound_kind = 'signed or double' AND p.c0 > 0 AND p.nans = 0
      AND ((b.k = 0 AND p.c1 < 0) OR (b.k = 1 AND p.c1 <= 0) OR (b.k = 2 AND p.c2 > 0)
           OR (b.k = 3 AND p.c2 >= 0) OR (b.k = 4 AND (p.c1 <> 0 OR p.c2 <> 0)))
    UNION ALL
    SELECT p.run, p.unit, p.site, b.k
    FROM pivot p JOIN site_info s ON s.unit = p.unit AND s.site = p.site
         JOIN (SELECT 0 AS k UNION ALL SELECT 1) b
    WHERE s.bound_kind = 'unsigned' AND p.c0 > 0
      AND ((b.k = 0 AND p.c1 = 0) OR (b.k = 1 AND p.c2 > 0))),
true_counts AS (
    SELECT t.unit, t.site, t.k, sum(r.failed) AS f, count(*) - sum(r.failed) AS s
    FROM truths t JOIN run_info r ON r.run = t.run GROUP BY t.unit, t.site, t.k),
observed_counts AS (
    SELECT o.unit, o.site, sum(r.failed) AS f_obs, count(*) - sum(r.failed) AS s_obs
    FROM observed o JOIN run_info r ON r.run = o.run GROUP BY o.unit, o.site),
counted AS (
    SELECT si.order_key, si.readability, si.column_number, tc.unit, tc.site, tc.k, si.file,
           si.line, si.function, si.scheme,
           si.predicate, tc.f, tc.s,
           CASE WHEN si.every_run THEN t.num_f ELSE oc.f_obs END AS f_obs,
           CASE WHEN si.every_run THEN (SELECT count(*) FROM run_info) - t.num_f
                ELSE oc.s_obs END AS s_obs,
           t.num_f
    FROM true_counts tc JOIN site_info si ON si.unit = tc.unit AND si.site = tc.site
         LEFT JOIN observed_counts oc ON oc.unit = tc.unit AND oc.site = tc.site
         CROSS JOIN totals t),
rates AS (
    SELECT *, CAST(f AS REAL) / (f + s) AS failure,
           CAST(f_obs AS REAL) / (f_obs + s_obs) AS context
    FROM counted),
-- Wilson's interval for x of n at z:
--   (p + z^2 / 2n -+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)
wilson AS (
    SELECT r.*, p.z, p.min_failing,
           failure - (failure + p.z * p.z / (2.0 * (f + s))
                      - p.z * sqrt(failure * (1 - failure) / (f + s)
                                   + p.z * p.z / (4.0 * (f + s) * (f + s))))
                     / (1 + p.z * p.z / (f + s)) AS failure_below,
           (context + p.z * p.z / (2.0 * (f_obs + s_obs))
            + p.z * sqrt(context * (1 - context) / (f_obs + s_obs)
                         + p.z * p.z / (4.0 * (f_obs + s_obs) * (f_obs + s_obs))))
           / (1 + p.z * p.z / (f_obs + s_obs)) - context AS context_above
    FROM rates r CROSS JOIN (SELECT z, min_failing FROM cbi_parameters LIMIT 1) p),
bounded AS (
    SELECT *, failure - context AS increase,
           (failure - context)
           - sqrt(failure_below * failure_below + context_above * context_above)
               AS increase_lower_bound
    FROM wilson),
kept AS (
    SELECT *,
           CASE WHEN f <= 1 AND num_f > 1 THEN 0.0
                WHEN num_f <= 1 THEN 2 / (1 / increase_lower_bound + 1)
                ELSE 2 / (1 / increase_lower_bound + ln(num_f) / ln(f))
           END AS importance_from_lower_bound
    FROM bounded WHERE increase_lower_bound > 0 AND f >= min_failing)
SELECT row_number() OVER (ORDER BY importance_from_lower_bound DESC, increase_lower_bound DESC,
                                   f DESC, readability, file, line, column_number, order_key, k)
           AS position,
       unit, site, k AS predicate_index, file, line, function, scheme, predicate,
       importance_from_lower_bound, increase, increase_lower_bound, failure, context,
       f, s, f_obs, s_obs
FROM kept;
