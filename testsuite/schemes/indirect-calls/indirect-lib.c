/* indirect-lib.c: a library indirect.c loads with dlopen, not
   instrumented: its function is named from its own symbol table.  */
int triple (int x) { return 3 * x; }
