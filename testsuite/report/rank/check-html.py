#!/usr/bin/env python3
"""check-html.py PAGE: rank --format=html of the hand-made runs is one
self-contained, well-formed page, with bars and the source line of the
first branch."""
import html.parser, sys
text = open(sys.argv[1]).read()
class Parser(html.parser.HTMLParser):
    void = {"meta", "br", "img", "link", "input", "hr"}
    def __init__(self):
        super().__init__()
        self.stack, self.bars, self.pres = [], 0, []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
        if attrs.get("class") == "bar":
            self.bars += 1
        if tag not in self.void and tag not in ("tr", "td", "th"):
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in ("tr", "td", "th"):
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()
    def handle_data(self, data):
        if self.stack and self.stack[-1] == "pre":
            self.pres.append(data)
p = Parser()
p.feed(text)
assert not p.stack, p.stack
assert "http" not in text and "url(" not in text
assert p.bars >= 4, p.bars
assert any("if (p != 0)" in s for s in p.pres), p.pres
