-- Version 2's indexes (PostgreSQL and SQLite, as indexes.sql): a fold
-- finds its batch's runs without reading every run's mark.
CREATE INDEX IF NOT EXISTS run_folds_by_batch ON run_folds (batch);
