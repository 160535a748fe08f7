-- What a store of version 1 gains when it becomes version 2 (after 2.sql,
-- its indexes and analysis.sql's views): the run ids it holds, each once
-- (the first release's run where two releases had the same id), and the
-- profiles' totals of the runs it has folded: they are marked as one new
-- fold batch, which the migration then folds with fold-totals.sql alone
-- (their predicates are counted already).
INSERT INTO run_ids (run_id, release)
SELECT r.run_id, r.release FROM runs r
WHERE NOT EXISTS (SELECT 1 FROM runs o WHERE o.run_id = r.run_id AND o.release < r.release);

UPDATE fold_state SET batch = batch + 1;
UPDATE run_folds SET batch = (SELECT batch FROM fold_state);
