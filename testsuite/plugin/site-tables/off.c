/* Scope rules and attributes: which functions get sites.  */
__attribute__ ((sampled ("off"))) int hot (int x) { if (x > 0) return 1; return 0; }
__attribute__ ((no_instrument_function)) int handler (int x) { if (x > 1) return 1; return 0; }
int excluded_by_rule (int x) { if (x > 2) return 1; return 0; }
__attribute__ ((sampled)) int selected_despite_rule (int x) { if (x > 3) return 1; return 0; }
int kept (int x) { if (x > 4) return 1; return 0; }

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-exclude-function=excluded_* -fplugin-arg-sampler-exclude-function=selected_*  */
