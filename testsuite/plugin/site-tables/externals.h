/* Globals of another unit, declared on lines after the ones of
   externals.c that use them (lines of two files do not compare).





















   */
extern int array_count;
extern int variable_count;
extern int unused_count;
