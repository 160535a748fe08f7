# sqlite3: the database; configured as Debian does (separate sources, not
# the amalgamation; threadsafe, FTS4/5, JSON), libsqlite3.so through libtool
# and the sqlite3 shell linked against it.  Its Tcl suite runs in
# testfixture, which refuses to run as root.  The full suite takes hours:
# these are the .test files of the core SQL, the shell (through the shared
# library) and FTS5, each a test that passes with "0 errors".
PKG_OPT=-O2
PKG_DEPS="tcl-dev"
SQLITE_TESTS="select1 select2 select3 select4 select5 insert insert2 update
  delete index index2 join join2 where where2 expr func func2 func3 trigger1
  trigger2 view subquery with1 window1 json101 json102 fts3aa printf misc1
  misc5 collate1 date like types types2 vacuum coalesce analyze autoinc fkey1
  pragma shell1 shell2 shell3 shell4 shell5"

pkg_build () {
  ./configure CC="$CC" CFLAGS="$CFLAGS -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_DBSTAT_VTAB" \
      LDFLAGS="$LDFLAGS" --enable-threadsafe --enable-load-extension \
      --enable-json --enable-fts4 --enable-fts5 --disable-amalgamation \
      --with-tcl=/usr/lib/tcl8.6 &&
    # TESTSRC2 lists ext/fts3/fts3_term.c again, which TESTSRC has: built
    # from separate sources, testfixture would not link (sqlite 3.40).
    sed -i '/^TESTSRC2 =/,/^$/{/fts3_term\.c/d}' Makefile &&
    make -j"$JOBS" && make -j"$JOBS" testfixture
}

pkg_test () {
  local t
  for t in $SQLITE_TESTS; do
    run_case "$t" ./testfixture "test/$t.test"
  done
  run_case fts5aa ./testfixture ext/fts5/test/fts5aa.test
}

# The plain sqlite3 shell (libtool's real binary) with the instrumented
# libsqlite3.so.
pkg_dso_test () {
  local shell=$PLAIN_DIR/.libs/sqlite3 lib=$INST_DIR/.libs
  cd "$HOME" || return
  run_case plain-shell-with-instrumented-libsqlite3 sh -c '
    rm -f "$HOME/dso.db"
    out=$(LD_LIBRARY_PATH="$2" "$1" "$HOME/dso.db" "create table t(a integer primary key, b text);
      with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000)
      insert into t select x, printf(\"row %d\", x) from c;
      create index tb on t(b);
      select count(*), sum(a), max(b) from t where b like \"row 9%\";")
    [ "$out" = "111|95904|row 999" ]' sh "$shell" "$lib"
}
