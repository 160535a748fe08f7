/* sampler.so: declarations shared by the plugin's parts.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */
#ifndef SAMPLER_PLUGIN_H
#define SAMPLER_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"

/* Instrumentation schemes, as bits.  */
enum sampler_scheme
{
  SCHEME_CHECKS = 1 << 0
};

/* What the command line asked for (-fplugin-arg-sampler-KEY=VALUE).  */
struct sampler_options
{
  unsigned schemes;		/* SCHEME_* bits.  */
  bool verbose;			/* Say what was done to each function.  */
  const char *dump_file;	/* Append the checks and weights here.  */
  /* Function names the user asserts are weightless (comma list, or NULL).  */
  const char *weightless_names;
};

extern struct sampler_options sampler_opts;

/* The attribute's name and the forms of its optional argument.  */
#define SAMPLED_ATTR "sampled"
#define SAMPLED_ARG_OFF "off"
#define SAMPLED_ARG_WEIGHTLESS "weightless"

/* Registers the transformation pass.  */
opt_pass *make_sampler_pass (gcc::context *ctxt);

/* The attribute form of DECL: 0 none, 1 plain `sampled', or the argument.  */
enum sampled_form
{
  SAMPLED_NONE,
  SAMPLED_PLAIN,
  SAMPLED_OFF,
  SAMPLED_WEIGHTLESS
};
enum sampled_form sampled_attribute_form (tree decl);

#endif
