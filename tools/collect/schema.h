/* The store's schema version (docs/schema.md, "Versions"): 1 is the
   analysis's tables (tools/sql/schema.sql), 2 adds what the collector
   needs (tools/sql/migrations/2.sql).  The service makes a store current
   when it starts, and `sampler-collect migrate' does it alone.  */
#ifndef SAMPLER_COLLECT_SCHEMA_H
#define SAMPLER_COLLECT_SCHEMA_H

#include <stdbool.h>

#include "store.h"

#define SCHEMA_VERSION 2

/* The store's version: 0 for an empty store, 1 for the tables of
   schema.sql without a version, else store_version's.  */
bool schema_version(struct store *store, int *version, struct diag *d);

/* Creates the schema in an empty store, or migrates an older one to
   SCHEMA_VERSION, and (re)makes the views; *FROM is the version found.  A
   store newer than this collector is an error.  */
bool schema_make_current(struct store *store, int *from, struct diag *d);

#endif
