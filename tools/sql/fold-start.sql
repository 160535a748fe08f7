-- Starts a fold (docs/schema.md, "Keeping the ranking current"): a new
-- batch, zero counts for the releases, sites and predicates registered
-- since the last fold, and every run not yet folded marked as the batch's
-- in run_folds.  Then fold.sql and fold-totals.sql add the batch's runs to
-- the aggregates, in the same transaction (`sampler-sql fold' runs the
-- three between BEGIN and COMMIT).  Safe when runs arrive meanwhile: a run
-- is folded once, by the fold that marks it (the first UPDATE makes
-- concurrent folds wait for each other).  The collector marks the runs
-- it folds itself, those it queued in fold_queue (a search for every run
-- without a mark reads every run), and makes the zero counts when it
-- registers a release.

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
