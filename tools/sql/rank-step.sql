-- One step of rank's elimination for each release still active in
-- in_play_runs: take the best kept predicate among the runs in play
-- (elimination_steps), drop the runs where it is true (dropped_runs), and
-- take their observations off the counts in play.  A release stops when
-- no predicate is kept or no failing run is left.  Each step reads the
-- observations of the runs it drops, and finds them through the
-- observations of the predicate's site.
BEGIN;

INSERT INTO elimination_steps (release, step, predicate, f, s, f_obs, s_obs, num_f, failure,
                               context, increase, increase_lower_bound, importance)
SELECT release, steps + 1, predicate, f, s, f_obs, s_obs, num_f, failure, context, increase,
       increase_lower_bound, importance
FROM (SELECT ps.*, r.steps,
             row_number() OVER (PARTITION BY ps.release
                                ORDER BY ps.importance DESC, ps.increase_lower_bound DESC,
                                         ps.f DESC, ps.tie_order) AS position
      FROM predicate_scores ps
      JOIN in_play_runs r ON r.release = ps.release
      WHERE ps.list = 'elimination' AND ps.kept = 1 AND r.active = 1) best
WHERE position = 1;

UPDATE in_play_runs SET active = 0
WHERE active = 1
  AND NOT EXISTS (SELECT 1 FROM elimination_steps e
                  WHERE e.release = in_play_runs.release AND e.step = in_play_runs.steps + 1);

-- The folded runs in play where the step's predicate is true.
INSERT INTO dropped_runs (release, run, step)
SELECT o.release, o.run, e.step
FROM in_play_runs r
JOIN elimination_steps e ON e.release = r.release AND e.step = r.steps + 1
JOIN predicates p ON p.release = e.release AND p.predicate = e.predicate
JOIN observations o ON o.release = p.release AND o.site = p.site AND o.word = p.word
JOIN run_folds f ON f.release = o.release AND f.run = o.run
WHERE r.active = 1 AND (o.truths & p.bit) <> 0
  AND NOT EXISTS (SELECT 1 FROM dropped_runs d WHERE d.release = o.release AND d.run = o.run);

-- Their true predicates ...
UPDATE in_play
SET f = in_play.f - d.f, s = in_play.s - d.s
FROM (SELECT p.release, p.predicate,
             sum(CASE WHEN t.failed = 1 THEN t.n ELSE 0 END) AS f,
             sum(CASE WHEN t.failed = 0 THEN t.n ELSE 0 END) AS s
      FROM (SELECT o.release, o.site, o.word, o.truths, f.failed, count(*) AS n
            FROM in_play_runs r
            JOIN dropped_runs d ON d.release = r.release AND d.step = r.steps + 1
            JOIN run_folds f ON f.release = d.release AND f.run = d.run
            JOIN observations o ON o.release = d.release AND o.run = d.run
            WHERE r.active = 1
            GROUP BY o.release, o.site, o.word, o.truths, f.failed) t
      JOIN predicates p ON p.release = t.release AND p.site = t.site AND p.word = t.word
      WHERE (t.truths & p.bit) <> 0
      GROUP BY p.release, p.predicate) d
WHERE in_play.release = d.release AND in_play.predicate = d.predicate;

-- ... and their observed sites, off every predicate of the site.
UPDATE in_play
SET f_obs = in_play.f_obs - d.f_obs, s_obs = in_play.s_obs - d.s_obs
FROM (SELECT p.release, p.predicate, t.f_obs, t.s_obs
      FROM (SELECT o.release, o.site, sum(f.failed) AS f_obs, sum(1 - f.failed) AS s_obs
            FROM in_play_runs r
            JOIN dropped_runs d ON d.release = r.release AND d.step = r.steps + 1
            JOIN run_folds f ON f.release = d.release AND f.run = d.run
            JOIN observations o ON o.release = d.release AND o.run = d.run
            WHERE r.active = 1 AND o.word = 0
            GROUP BY o.release, o.site) t
      JOIN predicates p ON p.release = t.release AND p.site = t.site) d
WHERE in_play.release = d.release AND in_play.predicate = d.predicate;

UPDATE in_play_runs
SET failing = in_play_runs.failing - d.failing,
    successful = in_play_runs.successful - d.successful, steps = in_play_runs.steps + 1
FROM (SELECT d.release, sum(f.failed) AS failing, sum(1 - f.failed) AS successful
      FROM in_play_runs r
      JOIN dropped_runs d ON d.release = r.release AND d.step = r.steps + 1
      JOIN run_folds f ON f.release = d.release AND f.run = d.run
      WHERE r.active = 1
      GROUP BY d.release) d
WHERE in_play_runs.release = d.release;

UPDATE in_play_runs SET active = 0 WHERE active = 1 AND failing = 0;

COMMIT;
