-- Brings the aggregates up to date (docs/schema.md, "Keeping the ranking
-- current"): zero counts for sites and predicates registered since the
-- last fold, then every run not yet folded added to release_counts,
-- site_counts and predicate_counts.  The collector runs it after storing
-- reports (after each, or every few seconds: one fold takes every run
-- stored since the last); `sampler-sql load' runs it after a load.  One
-- transaction.  Safe when runs arrive meanwhile: a run is folded once,
-- by the fold that marks it in run_folds (the first UPDATE makes
-- concurrent folds wait for each other).
BEGIN;

UPDATE fold_state SET batch = batch + 1;

INSERT INTO release_counts (release, failing, successful)
SELECT r.release, 0, 0 FROM releases r
WHERE NOT EXISTS (SELECT 1 FROM release_counts c WHERE c.release = r.release);

INSERT INTO site_counts (release, site, f_obs, s_obs)
SELECT si.release, si.site, 0, 0 FROM sites si
WHERE NOT EXISTS (SELECT 1 FROM site_counts c
                  WHERE c.release = si.release AND c.site = si.site);

INSERT INTO predicate_counts (release, predicate, f, s)
SELECT p.release, p.predicate, 0, 0 FROM predicates p
WHERE NOT EXISTS (SELECT 1 FROM predicate_counts c
                  WHERE c.release = p.release AND c.predicate = p.predicate);

INSERT INTO run_folds (release, run, batch, failed)
SELECT r.release, r.run, (SELECT batch FROM fold_state), r.failed FROM runs r
WHERE NOT EXISTS (SELECT 1 FROM run_folds f WHERE f.release = r.release AND f.run = r.run);

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

COMMIT;
