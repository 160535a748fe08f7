/* sampler.so: the first pass, which finds the sites of the unit.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What: once per unit, after all functions are lowered to GIMPLE with a
   CFG and before GCC's optimisers, it makes the unsampled clones
   (unsampled.cc), puts a marker at each site of the selected functions
   (sites.cc), keeps the clones of the functions that got sites, finds
   the weighty functions (weightless.cc), with outline-entry clones the
   functions whose entry region's slow copy goes out of line
   (outline-entry.cc), and emits the unit's counters, descriptor and site
   table (site-table.cc).  The transformation (transform-pass.cc) runs
   much later, on each function, and works from the markers.

   Why one IPA pass: the weightless fixpoint needs every function of the
   unit at once, before inlining merges them.

   How to debug: with -fdump-ipa-all, the dump file *.sampler shows the
   functions with their markers (asm "# sampler site"); site-table=FILE
   writes the unit's site table.  */

#include "sampler-plugin.h"

#include "context.h"
#include "tree-pass.h"
#include "diagnostic-core.h"

/* The first pass: finds the sites of the unit's selected functions and
   which functions are weightless, and emits the unit's data.  */

static const pass_data sites_pass_data = {
  SIMPLE_IPA_PASS,
  "sampler",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg,
  0,
  0,
  0,
  0
};

class sites_pass : public simple_ipa_opt_pass
{
public:
  sites_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (sites_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    create_unsampled_clones ();
    discover_sites ();
    report_rates ();
    keep_unsampled_clones ();
    find_weighty_functions ();
    create_sampled_clones ();
    emit_unit ();
    return 0;
  }
};

opt_pass *
make_sites_pass (gcc::context *ctxt)
{
  return new sites_pass (ctxt);
}
