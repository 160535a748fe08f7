-- The indexes PostgreSQL and SQLite need on the store (schema.sql): the
-- rows of a run (folding, elimination subtracting a dropped run), the
-- runs where a site was observed (elimination finding the runs where the
-- predicate it takes is true).  DuckDB scans its columns instead: an index
-- there would cost memory for nothing.
CREATE UNIQUE INDEX IF NOT EXISTS observations_by_run ON observations (release, run, site, word);
CREATE INDEX IF NOT EXISTS observations_by_site ON observations (release, site, word);
CREATE INDEX IF NOT EXISTS hot_lists_by_run ON hot_lists (release, run);
CREATE INDEX IF NOT EXISTS hot_values_by_run ON hot_values (release, run);
CREATE INDEX IF NOT EXISTS path_samples_by_run ON path_samples (release, run);
CREATE INDEX IF NOT EXISTS path_counts_by_run ON path_counts (release, run);
CREATE INDEX IF NOT EXISTS subpath_lists_by_run ON subpath_lists (release, run);
CREATE INDEX IF NOT EXISTS subpath_counts_by_run ON subpath_counts (release, run);
CREATE INDEX IF NOT EXISTS predicates_by_site ON predicates (release, site);
