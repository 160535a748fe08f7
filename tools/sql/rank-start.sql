-- Starts rank's elimination for the releases in elimination_requests:
-- every folded run in play, each predicate's counts from the aggregates.
-- Then rank-step.sql, once per step, while some release's in_play_runs
-- row is active (sampler-sql loops; so may any driver).
BEGIN;
DELETE FROM elimination_steps WHERE release IN (SELECT release FROM elimination_requests);
DELETE FROM dropped_runs WHERE release IN (SELECT release FROM elimination_requests);
DELETE FROM in_play WHERE release IN (SELECT release FROM elimination_requests);
DELETE FROM in_play_runs WHERE release IN (SELECT release FROM elimination_requests);

INSERT INTO in_play_runs (release, failing, successful, steps, active)
SELECT c.release, c.failing, c.successful, 0, CASE WHEN c.failing > 0 THEN 1 ELSE 0 END
FROM release_counts c
WHERE c.release IN (SELECT release FROM elimination_requests);

INSERT INTO in_play (release, predicate, f, s, f_obs, s_obs)
SELECT c.release, c.predicate, c.f, c.s, sc.f_obs, sc.s_obs
FROM predicate_counts c
JOIN predicates p ON p.release = c.release AND p.predicate = c.predicate
JOIN site_counts sc ON sc.release = p.release AND sc.site = p.site
WHERE c.release IN (SELECT release FROM elimination_requests);
COMMIT;
