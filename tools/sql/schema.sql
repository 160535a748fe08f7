-- The store of sampler's runs and their analysis (docs/schema.md), for
-- PostgreSQL, DuckDB and SQLite alike.  The tables of a release's sites
-- and runs are partitioned by release where the engine partitions:
-- PostgreSQL takes the comments "/* PARTITION BY LIST (release) */" as
-- clauses (sampler-sql strips the comment marks) and postgresql/
-- partitions.sql adds each release's partitions.  indexes.sql has the
-- indexes PostgreSQL and SQLite need (DuckDB scans).
--
-- Every table is keyed by release first: a release's rows are one
-- partition.  The data tables are what `sampler-report export' writes
-- (one CSV file each) and what the collector inserts, a run at a time;
-- the aggregate tables are kept by fold.sql; the analysis tables by
-- rank-start.sql and rank-step.sql.

-- ---- Data -----------------------------------------------------------------

CREATE TABLE IF NOT EXISTS releases (
    release INTEGER NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL UNIQUE
);

-- One row per run.  failed is its label (1: failure); exit_kind and
-- exit_code are its outcome as the report says.  A run's rate is its
-- sparsity and countdown unit with each site's weight (sites).
CREATE TABLE IF NOT EXISTS runs (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,              -- 1, 2, ... within the release
    run_id VARCHAR(32) NOT NULL,       -- 128 bits in hex
    origin VARCHAR NOT NULL,
    program VARCHAR NOT NULL,
    pid BIGINT NOT NULL,
    sparsity BIGINT NOT NULL,
    countdown_unit BIGINT NOT NULL,
    seed VARCHAR NOT NULL,
    exit_kind VARCHAR NOT NULL,
    exit_code INTEGER NOT NULL,
    failed SMALLINT NOT NULL,
    received TIMESTAMP NOT NULL,
    PRIMARY KEY (release, run),
    UNIQUE (release, run_id)
) /* PARTITION BY LIST (release) */;

-- The release's site tables: sites numbered 0, 1, ... over its units.
CREATE TABLE IF NOT EXISTS sites (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    unit VARCHAR(32) NOT NULL,         -- the unit's signature
    unit_site INTEGER NOT NULL,        -- the site's index in its unit
    scheme VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL,
    column_number INTEGER NOT NULL,
    function VARCHAR NOT NULL,
    site_text VARCHAR NOT NULL,        -- the site table's predicate text
    counters VARCHAR NOT NULL,         -- the counters' names, comma-separated
    weight INTEGER NOT NULL,           -- countdown units per visit; 0: off
    value_kind VARCHAR NOT NULL,       -- signed, unsigned, double, pointer or ''
    every_run SMALLINT NOT NULL,       -- its predicates count as observed in every run
    tie_group SMALLINT NOT NULL,       -- rank's order among ties: branches, returns first
    PRIMARY KEY (release, site),
    UNIQUE (release, unit, unit_site)
) /* PARTITION BY LIST (release) */;

-- rank's predicates, numbered 0, 1, ... in site order.  Predicate k of a
-- site is bit `bit' (2^(k mod 62)) of word k / 62 of its observations.
CREATE TABLE IF NOT EXISTS predicates (
    release INTEGER NOT NULL,
    predicate INTEGER NOT NULL,
    site INTEGER NOT NULL,
    k INTEGER NOT NULL,
    word INTEGER NOT NULL,
    bit BIGINT NOT NULL,
    text VARCHAR NOT NULL,
    tie_order INTEGER NOT NULL,        -- rank's order among equal scores
    PRIMARY KEY (release, predicate)
) /* PARTITION BY LIST (release) */;

-- One row per run, observed site (with predicates) and word: the site was
-- sampled in the run (word 0 always), and its true predicates as bits.
CREATE TABLE IF NOT EXISTS observations (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    site INTEGER NOT NULL,
    word INTEGER NOT NULL,
    truths BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;

-- values, sizes and indirect-calls: a run's hot-list of a site (tau is
-- 2^tau_log2 sampled visits per unit) and its entries; an indirect call's
-- target is named (hot_value 0), other values are 64-bit patterns.
CREATE TABLE IF NOT EXISTS hot_lists (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    site INTEGER NOT NULL,
    sampled BIGINT NOT NULL,
    tau_log2 INTEGER NOT NULL
) /* PARTITION BY LIST (release) */;
CREATE TABLE IF NOT EXISTS hot_values (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    site INTEGER NOT NULL,
    hot_value BIGINT NOT NULL,
    target VARCHAR NOT NULL,
    count BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;

-- paths: a run's sampled and lost traversals of a function's regions,
-- and its count of each Ball-Larus path.
CREATE TABLE IF NOT EXISTS path_samples (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    site INTEGER NOT NULL,
    sampled BIGINT NOT NULL,
    lost BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;
CREATE TABLE IF NOT EXISTS path_counts (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    site INTEGER NOT NULL,
    path BIGINT NOT NULL,
    count BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;

-- subpaths: each thread's list of a run, and its subpaths, their blocks
-- as "unit:site unit:site ...", the first block's site numbered.
CREATE TABLE IF NOT EXISTS subpath_lists (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    list_index INTEGER NOT NULL,
    longest INTEGER NOT NULL,
    all_lengths SMALLINT NOT NULL,
    offered BIGINT NOT NULL,
    tau_log2 INTEGER NOT NULL,
    capacity BIGINT NOT NULL,
    dropped BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;
CREATE TABLE IF NOT EXISTS subpath_counts (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    list_index INTEGER NOT NULL,
    n_blocks INTEGER NOT NULL,
    first_site INTEGER NOT NULL,
    blocks VARCHAR NOT NULL,
    count BIGINT NOT NULL
) /* PARTITION BY LIST (release) */;

-- ---- Aggregates, kept by fold.sql ---------------------------------------------

-- Which runs the aggregates hold, and in which fold.
CREATE TABLE IF NOT EXISTS run_folds (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    batch INTEGER NOT NULL,
    failed SMALLINT NOT NULL,
    PRIMARY KEY (release, run)
) /* PARTITION BY LIST (release) */;
CREATE TABLE IF NOT EXISTS fold_state (
    batch INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS release_counts (
    release INTEGER NOT NULL PRIMARY KEY,
    failing BIGINT NOT NULL,
    successful BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS site_counts (
    release INTEGER NOT NULL,
    site INTEGER NOT NULL,
    f_obs BIGINT NOT NULL,
    s_obs BIGINT NOT NULL,
    PRIMARY KEY (release, site)
);
CREATE TABLE IF NOT EXISTS predicate_counts (
    release INTEGER NOT NULL,
    predicate INTEGER NOT NULL,
    f BIGINT NOT NULL,
    s BIGINT NOT NULL,
    PRIMARY KEY (release, predicate)
);

-- ---- Analysis -----------------------------------------------------------------

-- rank's --confidence as its two-sided critical value z, and --min-failing.
CREATE TABLE IF NOT EXISTS rank_settings (
    z DOUBLE PRECISION NOT NULL,
    min_failing INTEGER NOT NULL
);

-- The releases rank-start.sql starts to eliminate for.
CREATE TABLE IF NOT EXISTS elimination_requests (
    release INTEGER NOT NULL PRIMARY KEY
);
-- The runs in play and each predicate's counts among them.
CREATE TABLE IF NOT EXISTS in_play_runs (
    release INTEGER NOT NULL PRIMARY KEY,
    failing BIGINT NOT NULL,
    successful BIGINT NOT NULL,
    steps INTEGER NOT NULL,
    active SMALLINT NOT NULL
);
CREATE TABLE IF NOT EXISTS in_play (
    release INTEGER NOT NULL,
    predicate INTEGER NOT NULL,
    f BIGINT NOT NULL,
    s BIGINT NOT NULL,
    f_obs BIGINT NOT NULL,
    s_obs BIGINT NOT NULL,
    PRIMARY KEY (release, predicate)
);
CREATE TABLE IF NOT EXISTS dropped_runs (
    release INTEGER NOT NULL,
    run INTEGER NOT NULL,
    step INTEGER NOT NULL,
    PRIMARY KEY (release, run)
);
-- Each step: the predicate taken, its scores, and the runs it dropped (f, s).
CREATE TABLE IF NOT EXISTS elimination_steps (
    release INTEGER NOT NULL,
    step INTEGER NOT NULL,
    predicate INTEGER NOT NULL,
    f BIGINT NOT NULL,
    s BIGINT NOT NULL,
    f_obs BIGINT NOT NULL,
    s_obs BIGINT NOT NULL,
    num_f BIGINT NOT NULL,
    failure DOUBLE PRECISION NOT NULL,
    context DOUBLE PRECISION NOT NULL,
    increase DOUBLE PRECISION NOT NULL,
    increase_lower_bound DOUBLE PRECISION NOT NULL,
    importance DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (release, step)
);
