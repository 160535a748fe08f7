#!/usr/bin/env python3
"""check-page.py PAGE MAX_BYTES: PAGE is at most MAX_BYTES, parses as HTML
(html.parser), and each element of those that must be closed (html, body,
table, tbody, thead, h1, h2, code, div, pre) closes in order.  Prints what
is wrong and exits 1, else prints the page's size and its count of h2
headings."""
import html.parser
import os
import sys

CLOSED = {"html", "body", "table", "tbody", "thead", "h1", "h2", "code", "div", "pre"}


class Checker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.h2 = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.h2 += 1
        if tag in CLOSED:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if tag not in CLOSED:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> at line {self.getpos()[0]} closes "
                               f"{self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check-page.py PAGE MAX_BYTES")
    page, limit = sys.argv[1], int(sys.argv[2])
    size = os.path.getsize(page)
    if size > limit:
        print(f"{page}: {size} bytes, above {limit}")
        return 1
    checker = Checker()
    with open(page, encoding="utf-8") as f:
        checker.feed(f.read())
    checker.close()
    errors = checker.errors + [f"<{t}> at line {p[0]} never closed" for t, p in checker.stack]
    if errors:
        print("\n".join(f"{page}: {e}" for e in errors[:5]))
        return 1
    print(size, checker.h2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
