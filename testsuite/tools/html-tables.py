#!/usr/bin/env python3
"""html-tables.py FILE: checks that FILE is one well-formed, self-contained
HTML page, then prints its headings, notes and tables as JSON.

Well-formed here is stricter than HTML needs: every element but the void
ones is closed explicitly, in order; no character references are left
unresolved; nothing is fetched from elsewhere (no src, href or url()).
Printed: {"h2": [text...], "notes": [text...], "tables": [{"after": the
last h2 before it, "rows": [[cell text...]...]}...]}, where a cell's list
items are its text's lines.  Exit status 1, with the reason, when the
page is not well-formed.
"""
import html.parser
import json
import sys

VOID = {"meta", "br", "img", "link", "input", "hr", "col", "wbr"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.h2, self.notes, self.tables = [], [], []
        self.text = None          # the element being collected, as a list
        self.row = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            if key in attrs:
                raise ValueError("a link out: <%s %s=%r>" % (tag, key, attrs[key]))
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "table":
            self.tables.append({"after": self.h2[-1] if self.h2 else None, "rows": []})
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th", "h2") or (tag == "p" and attrs.get("class") == "note"):
            self.text = []
        elif tag == "li" and self.text is not None and self.text:
            self.text.append("\n")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            raise ValueError("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
        self.stack.pop()
        if tag in ("td", "th") and self.row is not None:
            self.row.append("".join(self.text))
            self.text = None
        elif tag == "tr" and self.row is not None:
            self.tables[-1]["rows"].append(self.row)
            self.row = None
        elif tag == "h2":
            self.h2.append("".join(self.text))
            self.text = None
        elif tag == "p" and self.text is not None:
            self.notes.append("".join(self.text))
            self.text = None

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>"):
        sys.exit("%s: no <!DOCTYPE html>" % sys.argv[1])
    if "url(" in text:
        sys.exit("%s: a url() in the style" % sys.argv[1])
    page = Page()
    try:
        page.feed(text)
        page.close()
    except ValueError as e:
        sys.exit("%s: %s" % (sys.argv[1], e))
    if page.stack:
        sys.exit("%s: left open: %s" % (sys.argv[1], page.stack))
    json.dump({"h2": page.h2, "notes": page.notes, "tables": page.tables}, sys.stdout)
    print()


main()
