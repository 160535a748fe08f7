/* The SQL files of tools/sql/, built into the collector (sql-files.c), so
   that the service runs the very statements sampler-sql runs.  Each is
   NUL-terminated text.  */
#ifndef SAMPLER_COLLECT_SQL_FILES_H
#define SAMPLER_COLLECT_SQL_FILES_H

extern const char sql_schema[];          /* schema.sql: version 1's tables */
extern const char sql_indexes[];         /* indexes.sql */
extern const char sql_partitions[];      /* postgresql/partitions.sql */
extern const char sql_migration_2[];     /* migrations/2.sql */
extern const char sql_migration_2_indexes[];
extern const char sql_migration_2_backfill[];
extern const char sql_analysis[];        /* analysis.sql: the views */
extern const char sql_fold_start[];      /* fold-start.sql */
extern const char sql_fold[];            /* fold.sql */
extern const char sql_fold_totals[];     /* fold-totals.sql */
extern const char sql_rank_start[];      /* rank-start.sql */
extern const char sql_rank_step[];       /* rank-step.sql */

#endif
