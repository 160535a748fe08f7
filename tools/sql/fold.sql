-- Adds the runs of the current fold batch (those run_folds marks with
-- fold_state's batch: fold-start.sql marks them, or the collector as it
-- stores them) to release_counts, site_counts and predicate_counts.  Part
-- of a fold's transaction (fold-start.sql says how a fold goes); one pass
-- over the batch's observations, grouped by site and pattern of truths
-- before the predicates are counted.

UPDATE release_counts
SET failing = release_counts.failing + d.failing,
    successful = release_counts.successful + d.successful
FROM (SELECT f.release, sum(f.failed) AS failing, sum(1 - f.failed) AS successful
      FROM run_folds f
      WHERE f.batch = (SELECT batch FROM fold_state)
      GROUP BY f.release) d
WHERE release_counts.release = d.release;

-- Word 0 of an observation says its site was observed.
UPDATE site_counts
SET f_obs = site_counts.f_obs + d.f_obs, s_obs = site_counts.s_obs + d.s_obs
FROM (SELECT o.release, o.site, sum(f.failed) AS f_obs, sum(1 - f.failed) AS s_obs
      FROM observations o
      JOIN run_folds f ON f.release = o.release AND f.run = o.run
      WHERE f.batch = (SELECT batch FROM fold_state) AND o.word = 0
      GROUP BY o.release, o.site) d
WHERE site_counts.release = d.release AND site_counts.site = d.site;

-- Runs with the same truths at a site counted once, then each pattern
-- shared out to the predicates whose bits it has.
UPDATE predicate_counts
SET f = predicate_counts.f + d.f, s = predicate_counts.s + d.s
FROM (SELECT p.release, p.predicate,
             sum(CASE WHEN t.failed = 1 THEN t.n ELSE 0 END) AS f,
             sum(CASE WHEN t.failed = 0 THEN t.n ELSE 0 END) AS s
      FROM (SELECT o.release, o.site, o.word, o.truths, f.failed, count(*) AS n
            FROM observations o
            JOIN run_folds f ON f.release = o.release AND f.run = o.run
            WHERE f.batch = (SELECT batch FROM fold_state)
            GROUP BY o.release, o.site, o.word, o.truths, f.failed) t
      JOIN predicates p ON p.release = t.release AND p.site = t.site AND p.word = t.word
      WHERE (t.truths & p.bit) <> 0
      GROUP BY p.release, p.predicate) d
WHERE predicate_counts.release = d.release AND predicate_counts.predicate = d.predicate;
