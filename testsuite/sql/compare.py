#!/usr/bin/env python3
"""compare.py KIND C-OUTPUT SQL-OUTPUT [EXPORT-DIR]: whether sampler-sql's
answer (CSV) agrees with sampler-report's (rank: CSV; values, paths,
subpaths: JSON lines, every number in full).  Prints what agreed; exits 1
with the first difference.

  rank      the same rows in the same order (elimination steps, then the
            ranking), the same counts, every score equal to 1e-9
  paths     the same functions and paths in the same order, counts equal,
            traversals and their bounds equal to 1e-9
  values    the same sites in the same order with the same visits; at each
            site whose hot-lists `values' combined without thinning (every
            run's list had one tau, the site took at most its capacity of
            distinct values: EXPORT-DIR says), the same values with the
            same counts, visits, shares and intervals; at the others, the
            same flag and, for an invariant or semi-invariant site, the
            same top value
  subpaths  the same subpaths with the same counts, estimates and bounds in
            every class (length, first block's weight) whose lists all had
            one scale; the same order when every class did
  engines   two sampler-sql answers of any kind: the same rows, numbers to
            1e-9
Standard library only."""
import csv, json, math, sys

TOLERANCE = 1e-9


class Disagreement(Exception):
    pass


def close(a, b):
    a, b = float(a), float(b)
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def expect(condition, *what):
    if not condition:
        raise Disagreement(" ".join(str(w) for w in what))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def compare_rank(c_path, sql_path, _):
    c, sql = rows(c_path), rows(sql_path)
    expect(len(c) == len(sql), "rows:", len(c), "from rank,", len(sql), "from SQL")
    for r, s in zip(c, sql):
        for key in ("list", "position", "unit", "site", "predicate_index", "f", "s",
                    "f_observed", "s_observed", "num_failing", "file", "line", "function",
                    "predicate"):
            expect(r[key] == s[key], key, "differs:", r, s)
        for key in ("importance_from_lower_bound", "increase", "increase_lower_bound",
                    "failure", "context"):
            expect(close(r[key], s[key]), key, r[key], "!=", s[key], "in", r["list"],
                   r["position"])
    steps = sum(r["list"] == "elimination" for r in c)
    return "%d elimination steps and %d ranked predicates agree" % (steps, len(c) - steps)


def value_text(row):
    value = int(row["hot_value"])
    if row["target"]:
        return row["target"]
    if row["value_kind"] == "pointer":
        return "0x%x" % (value % (1 << 64))
    if row["value_kind"] == "signed":
        return str(value)
    return str(value % (1 << 64))


def unthinned_sites(export):
    """The (unit, site) whose lists `values' combined without thinning."""
    sparsity = {r["run"]: r["sparsity"] for r in rows(export + "/runs.csv")}
    names = {r["site"]: (r["unit"], r["unit_site"], len(r["counters"].split(",")))
             for r in rows(export + "/sites.csv")}
    taus, distinct = {}, {}
    for r in rows(export + "/hot_lists.csv"):
        if r["sampled"] != "0":
            taus.setdefault(r["site"], set()).add((r["tau_log2"], sparsity[r["run"]]))
    for r in rows(export + "/hot_values.csv"):
        distinct.setdefault(r["site"], set()).add((r["hot_value"], r["target"]))
    exact = set()
    for site, kinds in taus.items():
        unit, index, counters = names[site]
        if len(kinds) == 1 and len(distinct.get(site, ())) <= (counters - 3) // 2:
            exact.add((unit, index))
    return exact


def compare_values(c_path, sql_path, export):
    c, sql = jsonl(c_path), rows(sql_path)
    exact = unthinned_sites(export)
    sites = []
    for r in sql:
        if not sites or sites[-1][0]["site_rank"] != r["site_rank"]:
            sites.append([])
        sites[-1].append(r)
    expect(len(c) == len(sites), "sites:", len(c), "from values,", len(sites), "from SQL")
    n_exact = 0
    for site, values in zip(c, sites):
        first = values[0]
        expect((site["unit"], str(site["site"])) == (first["unit"], first["site"]),
               "site order differs:", site["file"], site["line"], "against", first["file"],
               first["line"])
        expect(close(site["visits"], first["site_visits"]), "site visits", site["visits"],
               first["site_visits"])
        flag = site["flag"] or ""
        if (site["unit"], str(site["site"])) not in exact:
            expect(flag == first["flag"], "flag at", site["file"], site["line"], flag,
                   first["flag"])
            if flag:
                expect(site["values"][0]["value"] == value_text(first), "top value at",
                       site["file"], site["line"])
            continue
        n_exact += 1
        expect(close(site["tau"], first["tau"]) and close(site["sample"], first["sample"])
               and flag == first["flag"], "site", site["file"], site["line"], site, first)
        by_text = {value_text(r): r for r in values}
        expect(len(by_text) == len(site["values"]), "values at", site["file"], site["line"],
               sorted(by_text), [v["value"] for v in site["values"]])
        for v in site["values"]:
            s = by_text.get(v["value"])
            expect(s is not None, "value", v["value"], "missing at", site["file"], site["line"])
            expect(close(v["count"], s["count"]), "count of", v["value"], v["count"], s["count"])
            for key in ("visits", "visits_low", "visits_high", "share", "share_low",
                        "share_high"):
                expect(close(v[key], s[key]), key, "of", v["value"], v[key], s[key])
    return "%d sites in the same order; %d combined without thinning, their values agree" % (
        len(c), n_exact)


def compare_paths(c_path, sql_path, _):
    c, sql = jsonl(c_path), rows(sql_path)
    flat = [(f, p) for f in c for p in f["hot"]]
    expect(len(flat) == len(sql), "paths:", len(flat), "from paths,", len(sql), "from SQL")
    for (f, p), s in zip(flat, sql):
        expect((f["unit"], str(f["site"]), str(p["path"]), str(p["count"]))
               == (s["unit"], s["site"], s["path"], s["count"]), "path differs:", f["file"],
               f["line"], p, s)
        expect(close(f["traversals"], s["function_traversals"]) and str(f["sampled"])
               == s["sampled"] and str(f["lost"]) == s["lost"], "function", f["function"])
        for key in ("traversals", "traversals_low", "traversals_high"):
            expect(close(p[key], s[key]), key, "of path", p["path"], "in", f["function"])
    return "%d functions, %d paths in the same order with the same counts and bounds" % (
        len(c), len(flat))


def unthinned_classes(export):
    """The (n_blocks, first site) of classes whose lists had one scale."""
    runs = {r["run"]: r["sparsity"] for r in rows(export + "/runs.csv")}
    weight = {r["site"]: r["weight"] for r in rows(export + "/sites.csv")}
    lists = {(r["run"], r["list_index"]): r for r in rows(export + "/subpath_lists.csv")}
    scales, first_sites = {}, {}
    for r in rows(export + "/subpath_counts.csv"):
        l = lists[(r["run"], r["list_index"])]
        key = (r["n_blocks"], weight[r["first_site"]])
        scales.setdefault(key, set()).add((l["tau_log2"], runs[r["run"]], l["longest"],
                                           l["all_lengths"]))
        first_sites[r["blocks"]] = key
    return {blocks for blocks, key in first_sites.items() if len(scales[key]) == 1}, \
        all(len(s) == 1 for s in scales.values())


def compare_subpaths(c_path, sql_path, export):
    c, sql = jsonl(c_path), rows(sql_path)
    exact, all_exact = unthinned_classes(export)
    by_blocks = {s["blocks"]: s for s in sql}
    n_exact = 0
    for p in c:
        blocks = " ".join(b["site"] for b in p["blocks"])
        if blocks not in exact:
            continue
        n_exact += 1
        s = by_blocks.get(blocks)
        expect(s is not None, "subpath", blocks, "missing from SQL")
        expect(close(p["count"], s["count"]), "count of", blocks, p["count"], s["count"])
        for key in ("estimate", "low", "high", "scale"):
            expect(close(p[key], s[key]), key, "of", blocks, p[key], s[key])
    if all_exact:
        expect([" ".join(b["site"] for b in p["blocks"]) for p in c]
               == [s["blocks"] for s in sql[:len(c)]], "order of the subpaths differs")
    expect(n_exact > 0 or not c, "no subpath of an unthinned class to compare")
    return "%d of %d subpaths in classes without thinning agree%s" % (
        n_exact, len(c), "; the same order" if all_exact else "")


def compare_engines(a_path, b_path, _):
    a, b = rows(a_path), rows(b_path)
    expect(len(a) == len(b) and (not a or list(a[0]) == list(b[0])), "rows or columns differ")
    for x, y in zip(a, b):
        for key in x:
            same = x[key] == y[key]
            if not same:
                try:
                    same = close(x[key], y[key])
                except ValueError:
                    pass
            expect(same, key, "differs:", x, y)
    return "%d rows agree" % len(a)


def main():
    kinds = {"rank": compare_rank, "values": compare_values, "paths": compare_paths,
             "subpaths": compare_subpaths, "engines": compare_engines}
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in kinds:
        sys.exit(__doc__)
    try:
        print(kinds[sys.argv[1]](sys.argv[2], sys.argv[3],
                                 sys.argv[4] if len(sys.argv) == 5 else None))
    except Disagreement as error:
        print("disagree:", error)
        sys.exit(1)


main()
