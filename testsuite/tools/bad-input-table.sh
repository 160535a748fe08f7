# bad-input-table.sh, sourced by the cases that try bad input: the rows of
# the table of what was tried and what it gets (testsuite/README.md, "Bad
# input"), the messages as they were printed.  Each case writes its part
# afresh to $BUILD/bad-input/PART.md; `make bad-input-table' joins the parts,
# in name order, into $BUILD/bad-input-table.md.
#   table_part PART             starts this case's part
#   section TITLE               starts a section of the table
#   row INPUT TRIED OUTCOME     one line of the table, $T cut from paths
table_part () {
    table=$BUILD/bad-input/$1.md
    mkdir -p "$BUILD/bad-input" && : >"$table"
}
row () {
    tried=$(printf '%s' "$2" | sed "s|$T/||g; s/|/\\\\|/g")
    outcome=$(printf '%s' "$3" | sed "s|$T/||g; s/|/\\\\|/g")
    printf '| %s | %s | %s |\n' "$1" "$tried" "$outcome" >>"$table"
}
section () {
    printf '\n**%s**\n\n| Input | Tried | What it gets |\n|---|---|---|\n' "$1" >>"$table"
}
