-- Adds the runs of the current fold batch (fold-start.sql says how a fold
-- goes) to the aggregates of version 2 (migrations/2.sql): runs per hour,
-- and the totals that hot_values_combined, paths_combined and
-- subpaths_combined read (analysis.sql).  Each table: the keys it has
-- already take the batch's sums (UPDATE), then the batch's new keys are
-- inserted with theirs.  The batch_* views of analysis.sql say what the
-- batch holds, weighed as the combined views weigh it.

UPDATE release_hours
SET runs = release_hours.runs + d.runs, failing = release_hours.failing + d.failing
FROM batch_hour_sums d
WHERE release_hours.release = d.release AND release_hours.hour = d.hour;
INSERT INTO release_hours (release, hour, runs, failing)
SELECT d.release, d.hour, d.runs, d.failing
FROM batch_hour_sums d
WHERE NOT EXISTS (SELECT 1 FROM release_hours h WHERE h.release = d.release AND h.hour = d.hour);

-- values
UPDATE hot_site_totals
SET site_visits = hot_site_totals.site_visits + d.site_visits,
    tau = CASE WHEN d.tau > hot_site_totals.tau THEN d.tau ELSE hot_site_totals.tau END
FROM batch_hot_site_sums d
WHERE hot_site_totals.release = d.release AND hot_site_totals.site = d.site;
INSERT INTO hot_site_totals (release, site, site_visits, tau)
SELECT d.release, d.site, d.site_visits, d.tau
FROM batch_hot_site_sums d
WHERE NOT EXISTS (SELECT 1 FROM hot_site_totals t
                  WHERE t.release = d.release AND t.site = d.site);

UPDATE hot_value_totals
SET estimate = hot_value_totals.estimate + d.estimate
FROM batch_hot_value_sums d
WHERE hot_value_totals.release = d.release AND hot_value_totals.site = d.site
  AND hot_value_totals.hot_value = d.hot_value AND hot_value_totals.target = d.target;
INSERT INTO hot_value_totals (release, site, hot_value, target, estimate)
SELECT d.release, d.site, d.hot_value, d.target, d.estimate
FROM batch_hot_value_sums d
WHERE NOT EXISTS (SELECT 1 FROM hot_value_totals t
                  WHERE t.release = d.release AND t.site = d.site
                    AND t.hot_value = d.hot_value AND t.target = d.target);

-- paths
UPDATE path_function_totals
SET sampled = path_function_totals.sampled + d.sampled,
    lost = path_function_totals.lost + d.lost,
    function_traversals = path_function_totals.function_traversals + d.function_traversals,
    min_scale = CASE WHEN d.min_scale < path_function_totals.min_scale THEN d.min_scale
                     ELSE path_function_totals.min_scale END,
    max_scale = CASE WHEN d.max_scale > path_function_totals.max_scale THEN d.max_scale
                     ELSE path_function_totals.max_scale END
FROM batch_path_function_sums d
WHERE path_function_totals.release = d.release AND path_function_totals.site = d.site;
INSERT INTO path_function_totals (release, site, sampled, lost, function_traversals, min_scale,
                                  max_scale)
SELECT d.release, d.site, d.sampled, d.lost, d.function_traversals, d.min_scale, d.max_scale
FROM batch_path_function_sums d
WHERE NOT EXISTS (SELECT 1 FROM path_function_totals t
                  WHERE t.release = d.release AND t.site = d.site);

UPDATE path_totals
SET count = path_totals.count + d.count, traversals = path_totals.traversals + d.traversals,
    variance = path_totals.variance + d.variance
FROM batch_path_sums d
WHERE path_totals.release = d.release AND path_totals.site = d.site
  AND path_totals.path = d.path;
INSERT INTO path_totals (release, site, path, count, traversals, variance)
SELECT d.release, d.site, d.path, d.count, d.traversals, d.variance
FROM batch_path_sums d
WHERE NOT EXISTS (SELECT 1 FROM path_totals t
                  WHERE t.release = d.release AND t.site = d.site AND t.path = d.path);

-- subpaths
UPDATE subpath_class_totals
SET scale = CASE WHEN d.scale > subpath_class_totals.scale THEN d.scale
                 ELSE subpath_class_totals.scale END
FROM batch_subpath_class_sums d
WHERE subpath_class_totals.release = d.release AND subpath_class_totals.n_blocks = d.n_blocks
  AND subpath_class_totals.weight = d.weight;
INSERT INTO subpath_class_totals (release, n_blocks, weight, scale)
SELECT d.release, d.n_blocks, d.weight, d.scale
FROM batch_subpath_class_sums d
WHERE NOT EXISTS (SELECT 1 FROM subpath_class_totals t
                  WHERE t.release = d.release AND t.n_blocks = d.n_blocks
                    AND t.weight = d.weight);

UPDATE subpath_totals
SET weighted = subpath_totals.weighted + d.weighted
FROM batch_subpath_sums d
WHERE subpath_totals.release = d.release AND subpath_totals.n_blocks = d.n_blocks
  AND subpath_totals.weight = d.weight AND subpath_totals.blocks = d.blocks;
INSERT INTO subpath_totals (release, n_blocks, weight, blocks, weighted)
SELECT d.release, d.n_blocks, d.weight, d.blocks, d.weighted
FROM batch_subpath_sums d
WHERE NOT EXISTS (SELECT 1 FROM subpath_totals t
                  WHERE t.release = d.release AND t.n_blocks = d.n_blocks
                    AND t.weight = d.weight AND t.blocks = d.blocks);
