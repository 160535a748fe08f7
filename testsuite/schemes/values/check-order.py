#!/usr/bin/env python3
"""check-order.py CSV FOLDED_TEXT ALL_TEXT: of one run's `values' output,
CSV (--format=csv), FOLDED_TEXT (text, --fold-below=0.3) and ALL_TEXT
(text, --fold-below=0 --top=1): the text lists sites by their top value's
share's lower bound, highest first (and the run has sites of more than
one bound, so the order says something); at --fold-below=0.3 it shows
the sites whose bound reaches 0.3 and one line counting the others.
Exits 1 saying what differs (exact.sh)."""
import csv
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check-order.py CSV FOLDED_TEXT ALL_TEXT")
    tops = [float(r["share_low"]) for r in csv.DictReader(open(sys.argv[1]))
            if r["rank"] == "1"]
    shown = [float(m.group(1)) / 100 for line in open(sys.argv[3])
             for m in [re.search(r"share [0-9.]+% \[([0-9.]+)%", line)] if m]
    assert len(shown) == len(tops), f"{len(shown)} sites in text, {len(tops)} in csv"
    assert shown == sorted(shown, reverse=True), f"lower bounds out of order: {shown}"
    assert sorted(shown) != shown, f"a run whose order says nothing: {shown}"
    text = open(sys.argv[2]).read().splitlines()
    sites = [line for line in text if not line.startswith(" ") and "not shown" not in line]
    folded = [int(m.group(1)) for line in text
              for m in [re.match(r"(\d+) sites whose top value's share has its lower bound "
                                 r"below 30% not shown; use --fold-below=0$", line)] if m]
    assert len(sites) == sum(t >= 0.3 for t in tops), f"{len(sites)} shown, tops {tops}"
    assert sum(folded) == sum(t < 0.3 for t in tops) > 0, f"folded {folded}, tops {tops}"


if __name__ == "__main__":
    main()
