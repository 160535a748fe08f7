# dg-directives.awk: the DejaGnu directives of a GCC torture test, honoured
# simply, for an x86_64-linux-gnu LP64 target (run-torture.sh's header says
# which).  Usage: awk -f dg-directives.awk TEST.c.  Output lines:
#   OPTS <options>          options to add (dg-options, dg-additional-options)
#   SKIP <reason>           the test does not apply here
#   SKIPLEVEL <-Ox> <reason>
#   TFACTOR <number>
#   DO <what>               dg-do action (run, compile, assemble, link, ...)
function tokenize(s,    n, c, j) {
  n = 0
  while (length(s) > 0) {
    c = substr(s, 1, 1)
    if (c ~ /[ \t]/) { s = substr(s, 2); continue }
    if (c == "{" || c == "}") { tok[++n] = c; s = substr(s, 2); continue }
    if (c == "\"") {
      j = index(substr(s, 2), "\"")
      if (j == 0) { tok[++n] = s; s = ""; break }
      tok[++n] = substr(s, 1, j + 1); s = substr(s, j + 2); continue
    }
    if (match(s, /^[^ \t{}"]+/)) { tok[++n] = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1); continue }
    s = substr(s, 2)
  }
  return n
}
function unq(w) { if (w ~ /^".*"$/) return substr(w, 2, length(w) - 2); return w }
function globre(g,   r) {
  r = g
  gsub(/[.+^$()|\[\]]/, "\\\\&", r)
  gsub(/\*/, ".*", r); gsub(/\?/, ".", r)
  return "^" r "$"
}
function word_true(w,    parts, k, n, any) {
  w = unq(w)
  n = split(w, parts, /[ \t]+/)
  any = 0
  for (k = 1; k <= n; k++) {
    if (parts[k] == "") continue
    if (parts[k] ~ /-.*-|^\*$/) { if (TRIPLET ~ globre(parts[k])) any = 1 }
    else if (!(parts[k] in FALSE_ET)) any = 1
  }
  return any
}
# recursive descent over tok[pos..lim]
function p_expr(   v, w) { v = p_and(); while (pos <= lim && tok[pos] == "||") { pos++; w = p_and(); v = v || w } return v }
function p_and(   v, w) { v = p_list(); while (pos <= lim && tok[pos] == "&&") { pos++; w = p_list(); v = v && w } return v }
function p_list(   v, w) {
  v = p_unary()
  while (pos <= lim && tok[pos] != "||" && tok[pos] != "&&" && tok[pos] != "}") { w = p_unary(); v = v || w }
  return v
}
function p_unary(   v) { if (tok[pos] == "!") { pos++; v = p_unary(); return !v } return p_primary() }
function p_primary(   v) {
  if (tok[pos] == "{") { pos++; v = p_expr(); if (tok[pos] == "}") pos++; return v }
  v = word_true(tok[pos]); pos++; return v
}
# items of the directive: item_s[i]..item_e[i] token ranges
function items(n,    i, depth, k) {
  k = 0; i = 3
  while (i < n) {
    k++; item_s[k] = i
    if (tok[i] == "{") {
      depth = 0
      for (; i < n; i++) { if (tok[i] == "{") depth++; else if (tok[i] == "}") { depth--; if (depth == 0) break } }
    }
    item_e[k] = i; i++
  }
  return k
}
function item_text(k,    i, s, a, b) {
  a = item_s[k]; b = item_e[k]; s = ""
  if (tok[a] == "{") { a++; b-- }
  for (i = a; i <= b; i++) s = s (s == "" ? "" : " ") unq(tok[i])
  return s
}
# a selector item { target SEL } or a bare list item; true if it applies here
function sel_true(k,   a, b) {
  a = item_s[k]; b = item_e[k]
  if (tok[a] == "{") { a++; b-- }
  if (tok[a] == "target") a++
  else if (tok[a] == "xfail") return 1
  if (a > b) return 1
  pos = a; lim = b
  return p_expr()
}
function item_true(k) { return sel_true(k) }
BEGIN {
  TRIPLET = "x86_64-pc-linux-gnu"
  split("ia32 ilp32 llp64 x32 int16 freestanding newlib_nano_io short_enums vxworks_kernel run_expensive_tests nonpic avr ptr_eq_short int_eq_float lto", fl, " ")
  for (k in fl) FALSE_ET[fl[k]] = 1
}
{
  line = $0
  while ((p = match(line, /\{[ \t]*dg-[a-z-]+/)) > 0) {
    rest = substr(line, p)
    # balanced braces from here
    depth = 0; e = 0; inq = 0
    for (i = 1; i <= length(rest); i++) {
      c = substr(rest, i, 1)
      if (c == "\"") inq = !inq
      else if (!inq && c == "{") depth++
      else if (!inq && c == "}") { depth--; if (depth == 0) { e = i; break } }
    }
    if (e == 0) break
    d = substr(rest, 1, e)
    line = substr(rest, e + 1)
    delete tok
    n = tokenize(d)
    name = tok[2]
    ni = items(n)
    if (name == "dg-options" || name == "dg-additional-options") {
      if (ni >= 2 && !sel_true(2)) continue
      print "OPTS " item_text(1)
    } else if (name == "dg-do") {
      if (ni >= 2 && !sel_true(2)) print "SKIP dg-do target is not x86_64-linux"
      print "DO " item_text(1)
    } else if (name == "dg-require-effective-target") {
      w = item_text(1)
      if (ni >= 2 && !sel_true(2)) continue
      if (w in FALSE_ET) print "SKIP requires effective target " w
    } else if (name == "dg-skip-if") {
      if (ni < 2 || !sel_true(2)) continue
      inc = (ni >= 3) ? item_text(3) : "*"
      exc = (ni >= 4) ? item_text(4) : ""
      if (inc == "" || inc ~ /(^| )\*( |$)/) {
        if (exc == "" ) print "SKIP dg-skip-if: " item_text(1)
        else { m = split(exc, xs, " "); for (k = 1; k <= m; k++) if (xs[k] ~ /^-O/) print "ONLYLEVEL " xs[k] }
      } else {
        m = split(inc, xs, " ")
        for (k = 1; k <= m; k++)
          if (xs[k] ~ /^-O[0-3sg]?$/) print "SKIPLEVEL " xs[k] " dg-skip-if: " item_text(1)
          else print "SKIPOPT " xs[k] " dg-skip-if: " item_text(1)
      }
    } else if (name == "dg-timeout-factor") {
      print "TFACTOR " item_text(1)
    }
  }
}
