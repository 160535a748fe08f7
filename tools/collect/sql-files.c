/* The SQL files of tools/sql/ as text in the collector (sql-files.h),
   included by the assembler from the source tree (the Makefile builds
   this file from the top directory and knows the dependencies).  */
#include "sql-files.h"

#define SQL_FILE(name, path)                                 \
    __asm__(".section .rodata\n"                             \
            ".global " #name "\n"                            \
            ".type " #name ", @object\n"                     \
            #name ":\n"                                      \
            ".incbin \"" path "\"\n"                         \
            ".byte 0\n"                                      \
            ".size " #name ", . - " #name "\n"               \
            ".previous\n")

SQL_FILE(sql_schema, "tools/sql/schema.sql");
SQL_FILE(sql_indexes, "tools/sql/indexes.sql");
SQL_FILE(sql_partitions, "tools/sql/postgresql/partitions.sql");
SQL_FILE(sql_migration_2, "tools/sql/migrations/2.sql");
SQL_FILE(sql_migration_2_indexes, "tools/sql/migrations/2-indexes.sql");
SQL_FILE(sql_migration_2_backfill, "tools/sql/migrations/2-backfill.sql");
SQL_FILE(sql_analysis, "tools/sql/analysis.sql");
SQL_FILE(sql_fold_start, "tools/sql/fold-start.sql");
SQL_FILE(sql_fold, "tools/sql/fold.sql");
SQL_FILE(sql_fold_totals, "tools/sql/fold-totals.sql");
SQL_FILE(sql_rank_start, "tools/sql/rank-start.sql");
SQL_FILE(sql_rank_step, "tools/sql/rank-step.sql");
