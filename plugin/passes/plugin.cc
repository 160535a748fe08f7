/* sampler.so: the plugin's entry: its callbacks, and where its passes go
   in GCC's pipeline.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  plugin_init reads the arguments (support/arguments.cc),
   registers the `sampled' attribute (sites/selection.cc) and the
   callbacks, and puts the passes in GCC's pipeline, each where the
   comment beside it says: the sites pass (passes/sites-pass.cc) before
   GCC's optimisers, the transformation (passes/transform-pass.cc) after
   them, and the passes that help them (transform/).  docs/design.md has
   the table of the passes.  */

#include "schemes.h"
#include "runtime-decls.h"
#include "plugin-version.h"

#include <dlfcn.h>

#include "context.h"
#include "tree-pass.h"
#include "diagnostic-core.h"
#include "cpplib.h"
#include "options.h"
#include "langhooks.h"

/* GCC refuses plugins that do not say they are GPL-compatible.  */
int plugin_is_GPL_compatible;

static struct plugin_info sampler_plugin_info = { "0.1.0", NULL };

/* Defines __SAMPLER__ so sources can use the attribute only when the plugin
   is there.  parse_in exists only in the C-family front ends, so look it up
   rather than link against it (the plugin may be loaded by lto1).  */
static void
define_sampler_macro (void *, void *)
{
  cpp_reader **reader = (cpp_reader **) dlsym (RTLD_DEFAULT, "parse_in");
  /* Already-preprocessed input (-fpreprocessed, -save-temps, ccache) has
     its macros expanded, and cpp_define would crash on it.  */
  if (reader && *reader && !cpp_get_options (*reader)->preprocessed)
    cpp_define (*reader, "__SAMPLER__=1");
}

/* Puts PASS at POSITION relative to instance INSTANCE of REFERENCE (0:
   every instance).  */
static void
add_pass (struct plugin_name_args *info, opt_pass *pass, const char *reference,
	  enum pass_positioning_ops position, int instance = 1)
{
  struct register_pass_info where;
  where.pass = pass;
  where.reference_pass_name = reference;
  where.ref_pass_instance_number = instance;
  where.pos_op = position;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &where);
}

void
finish_schemes (void)
{
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if ((sampler_opts.schemes & SCHEME_BIT (id)) && plugin_schemes[id]->finish_unit)
      plugin_schemes[id]->finish_unit ();
}

/* PLUGIN_FINISH_UNIT: the clone fallbacks, then each enabled scheme's
   finish_unit hook.  */
static void
finish_unit (void *gcc_data, void *user_data)
{
  emit_clone_fallbacks (gcc_data, user_data);
  finish_schemes ();
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("sampler: this plugin was built for GCC %s and cannot be loaded "
	     "by GCC %s", gcc_version.basever, version->basever);
      return 1;
    }
  sampler_plugin_info.help = sampler_help ();
  register_callback (info->base_name, PLUGIN_INFO, NULL, &sampler_plugin_info);
  /* Register the attribute first, so annotated code builds even when the
     arguments are wrong and the compile is about to fail.  */
  /* lto1 (WPA, LTRANS, or a whole link at once) reads units this plugin
     already instrumented when they were compiled, with their site tables
     and descriptors: it has nothing to do (docs/lto.md).  */
  if (strcmp (lang_hooks.name, "GNU GIMPLE") == 0)
    return 0;
  register_callback (info->base_name, PLUGIN_ATTRIBUTES,
		     register_sampled_attribute, NULL);
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_END,
		     release_unneeded_clones, NULL);
  register_callback (info->base_name, PLUGIN_START_UNIT,
		     define_sampler_macro, NULL);
  register_callback (info->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
  if (!parse_arguments (info))
    return 0;
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) runtime_decls_gc_roots);

  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if ((sampler_opts.schemes & SCHEME_BIT (id)) && plugin_schemes[id]->setup)
      plugin_schemes[id]->setup ();

  /* After all functions are lowered to GIMPLE with a CFG, before
     into-SSA and early inlining: the weightless fixpoint sees the whole
     unit, and the sites are the source's own conditionals, calls and
     assignments.  */
  add_pass (info, make_sites_pass (g), "visibility", PASS_POS_INSERT_AFTER);
  /* After GCC's optimisers, at every level, just before the last clean-up
     of the CFG: the fast copy is the optimised code.  */
  add_pass (info, make_transform_pass (g), "optimized",
	    PASS_POS_INSERT_BEFORE);
  /* With -flto, before the units are streamed (docs/lto.md).  The pass
     before "optimized" then finds no markers left, in a fat object's code
     as anywhere.  */
  if (flag_generate_lto)
    add_pass (info, make_lto_transform_pass (g), "remove_symbols",
	      PASS_POS_INSERT_BEFORE);
  /* Among the loop optimisers, before if-conversion and vectorisation,
     which the version without sites is for.  */
  add_pass (info, make_versioning_pass (g), "ifcvt", PASS_POS_INSERT_BEFORE);
  /* The markers' weight out of the inliners' estimates (inline-weight.cc):
     after every local summary, and before the IPA inliner.  */
  add_pass (info, make_local_weight_pass (g), "local-fnsummary",
	    PASS_POS_INSERT_AFTER, 0);
  add_pass (info, make_ipa_weight_pass (g), "inline", PASS_POS_INSERT_BEFORE);
  register_callback (info->base_name, PLUGIN_OVERRIDE_GATE,
		    skip_rtl_pre_in_cloned_functions, NULL);
  /* Once the frame is laid out (the prologue made): the red-zone skips out
     of the runtime calls where the red zone is unused.  */
  add_pass (info, make_red_zone_pass (g), "pro_and_epilogue",
	    PASS_POS_INSERT_AFTER);
  /* Right after the sites pass, before any inlining.  */
  add_pass (info, make_redirect_pass (g), "sampler", PASS_POS_INSERT_AFTER);
  return 0;
}
