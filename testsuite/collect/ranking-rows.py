#!/usr/bin/env python3
"""ranking-rows.py PAGE: the rows of the tables of a ranking page (the
page `sampler-report rank --format=html' writes, as a file or as a browser
serialized it), one line each: the headings before it, then its cells'
text, TAB-separated.  Standard library only."""
import html.parser
import sys


class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.heading, self.in_heading = "", False
        self.row, self.cell = None, None
        self.rows = []

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.in_heading, self.heading = True, ""
        elif tag == "tr":
            self.close_row()
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.close_cell()
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_heading = False
        elif tag in ("td", "th"):
            self.close_cell()
        elif tag in ("tr", "table"):
            self.close_row()

    def handle_data(self, data):
        if self.in_heading:
            self.heading += data
        elif self.cell is not None:
            self.cell += data

    def close_cell(self):
        if self.cell is not None and self.row is not None:
            self.row.append(" ".join(self.cell.split()))
        self.cell = None

    def close_row(self):
        self.close_cell()
        if self.row:
            self.rows.append(self.heading + "\t" + "\t".join(self.row))
        self.row = None


parser = Rows()
parser.feed(open(sys.argv[1], encoding="utf-8").read())
parser.close_row()
print("\n".join(parser.rows))
