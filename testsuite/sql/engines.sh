#!/bin/sh
# The three engines are there: PostgreSQL 15 starts, DuckDB from npm,
# SQLite.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
if start_postgresql; then
    pass "PostgreSQL $(psql -X -A -t -d "$pg_url/postgres" -c 'SHOW server_version' | cut -d' ' -f1) started on 127.0.0.1:$pg_port"
fi
if [ -f "$SAMPLER_DUCKDB" ]; then
    pass "DuckDB $(node "$SAMPLER_DUCKDB" :memory: -c 'SELECT version()' | sed -n 2p) from npm"
else
    fail "no $SAMPLER_DUCKDB: make sql-deps installs DuckDB"
fi
command -v sqlite3 >/dev/null && pass "SQLite $(sqlite3 --version | cut -d' ' -f1)" ||
    fail "sqlite3 is not installed (make deps installs it)"
finish
