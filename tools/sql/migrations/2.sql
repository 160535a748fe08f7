-- Version 2 of the store (docs/schema.md, "Versions"): what the collector
-- (sampler-collect) needs beyond the analysis's tables of version 1
-- (schema.sql), and aggregates that keep the profiles current as runs
-- arrive.  Run after schema.sql on a new store; on a store of version 1,
-- sampler-collect runs it, then folds the profiles of the runs already
-- folded (migrations/2-backfill.sql, then fold-totals.sql).  PostgreSQL
-- takes the partition comments as clauses, as in schema.sql.

-- The store's version: one row.
CREATE TABLE IF NOT EXISTS store_version (
    version INTEGER NOT NULL
);

-- The releases the collector takes reports for, with what it needs to
-- label and number their runs.
CREATE TABLE IF NOT EXISTS collected_releases (
    release INTEGER NOT NULL PRIMARY KEY,
    product VARCHAR NOT NULL,
    version VARCHAR NOT NULL,
    fail_if VARCHAR NOT NULL,          -- the failure rule its runs are labelled by
    state VARCHAR NOT NULL,            -- 'open', or 'retired': no more reports
    next_run INTEGER NOT NULL,         -- the number the next run stored gets
    registered TIMESTAMP NOT NULL,
    UNIQUE (product, version)
);

-- Upload keys: each names one release.
CREATE TABLE IF NOT EXISTS upload_keys (
    upload_key VARCHAR NOT NULL PRIMARY KEY,
    release INTEGER NOT NULL,
    state VARCHAR NOT NULL,            -- 'active', or 'revoked'
    hourly_quota BIGINT NOT NULL       -- reports an hour under the key; 0: the service's
);

-- The site tables (and path tables) of a release, as the plugin wrote
-- them into each binary registered, in the order given.
CREATE TABLE IF NOT EXISTS release_tables (
    release INTEGER NOT NULL,
    position INTEGER NOT NULL,
    origin VARCHAR NOT NULL,           -- the binary's file name
    tables VARCHAR NOT NULL,
    PRIMARY KEY (release, position)
);

-- Every run id stored, across releases: a report sent again is stored once.
CREATE TABLE IF NOT EXISTS run_ids (
    run_id VARCHAR(32) NOT NULL PRIMARY KEY,
    release INTEGER NOT NULL
);

-- Each report as it was received (gzip), runs and interim reports alike.
CREATE TABLE IF NOT EXISTS reports (
    release INTEGER NOT NULL,
    run_id VARCHAR(32) NOT NULL,
    received TIMESTAMP NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (release, run_id)
) /* PARTITION BY LIST (release) */;

-- Runs the collector stored (their reports are in reports) and has not
-- analysed yet: it numbers and labels each when it arrives, then turns
-- the report into the run's rows (runs, observations, ...), marks it in
-- run_folds and folds it, a batch at a time.
CREATE TABLE IF NOT EXISTS fold_queue (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    run_id VARCHAR(32) NOT NULL,
    failed SMALLINT NOT NULL,
    received TIMESTAMP NOT NULL,
    PRIMARY KEY (release, run)
);

-- ---- Aggregates, kept by fold-totals.sql --------------------------------------------

-- Runs folded per hour of their arrival ('YYYY-MM-DD HH', UTC).
CREATE TABLE IF NOT EXISTS release_hours (
    release INTEGER NOT NULL,
    hour VARCHAR(13) NOT NULL,
    runs BIGINT NOT NULL,
    failing BIGINT NOT NULL,
    PRIMARY KEY (release, hour)
);

-- values: per site, the visits its lists stand for and the largest tau;
-- per value, count x tau summed over the runs.
CREATE TABLE IF NOT EXISTS hot_site_totals (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    site_visits DOUBLE PRECISION NOT NULL,
    tau DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, site)
);
CREATE TABLE IF NOT EXISTS hot_value_totals (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    hot_value BIGINT NOT NULL,
    target VARCHAR NOT NULL,
    estimate DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, site, hot_value, target)
);

-- paths: per function, its sampled and lost traversals, the traversals
-- they stand for and the least and greatest scale; per path, its count,
-- traversals and their variance, summed over the runs.
CREATE TABLE IF NOT EXISTS path_function_totals (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    sampled BIGINT NOT NULL,
    lost BIGINT NOT NULL,
    function_traversals DOUBLE PRECISION NOT NULL,
    min_scale DOUBLE PRECISION NOT NULL,
    max_scale DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, site)
);
CREATE TABLE IF NOT EXISTS path_totals (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    path BIGINT NOT NULL,
    count BIGINT NOT NULL,
    traversals DOUBLE PRECISION NOT NULL,
    variance DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, site, path)
);

-- subpaths: per class (length, first block's weight) the largest scale;
-- per subpath, count x scale summed over the lists.
CREATE TABLE IF NOT EXISTS subpath_class_totals (
    release INTEGER NOT NULL,
    n_blocks INTEGER NOT NULL,
    weight INTEGER NOT NULL,
    scale DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, n_blocks, weight)
);
CREATE TABLE IF NOT EXISTS subpath_totals (
    release INTEGER NOT NULL,
    n_blocks INTEGER NOT NULL,
    weight INTEGER NOT NULL,
    blocks VARCHAR NOT NULL,
    weighted DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, n_blocks, weight, blocks)
);

INSERT INTO store_version (version) SELECT 2 WHERE NOT EXISTS (SELECT 1 FROM store_version);
UPDATE store_version SET version = 2;
