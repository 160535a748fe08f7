/* sampler.so: the sizes scheme (value profiles of memory operations'
   sizes, as GCC's -fprofile-values profiles the sizes of string
   operations).  A call to memcpy, memmove, memset, memcmp, strncpy,
   strncmp, malloc, calloc or realloc, their __builtin_ forms and the _chk
   forms of fortified code, whose size is not a constant, is a site
   ("memcpy size (unsigned)") with a hot-list of the sizes (merge kind
   HOT_LIST, as values: see schemes/values.cc).  calloc's size is its
   count times its element size.  The marker goes before the call, so that
   a call that does not return (a fault in memcpy) has its size observed.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

/* The size arguments of CALL if it is one of the functions, in ARGS (one,
   or calloc's two); false if not.  */
static bool
size_arguments (gcall *call, auto_vec<tree> &args)
{
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl || !fndecl_built_in_p (fndecl, BUILT_IN_NORMAL))
    return false;
  switch (DECL_FUNCTION_CODE (fndecl))
    {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMSET:
    case BUILT_IN_MEMCMP:
    case BUILT_IN_STRNCPY:
    case BUILT_IN_STRNCMP:
    case BUILT_IN_MEMCPY_CHK:
    case BUILT_IN_MEMMOVE_CHK:
    case BUILT_IN_MEMSET_CHK:
    case BUILT_IN_STRNCPY_CHK:
      args.safe_push (gimple_call_arg (call, 2));
      break;
    case BUILT_IN_MALLOC:
      args.safe_push (gimple_call_arg (call, 0));
      break;
    case BUILT_IN_REALLOC:
      args.safe_push (gimple_call_arg (call, 1));
      break;
    case BUILT_IN_CALLOC:
      args.safe_push (gimple_call_arg (call, 0));
      args.safe_push (gimple_call_arg (call, 1));
      break;
    default:
      return false;
    }
  return true;
}

static void
sizes_statement (gimple *stmt)
{
  gcall *call = dyn_cast <gcall *> (stmt);
  if (!call || !source_location_p (gimple_location (call)))
    return;
  auto_vec<tree> args;
  if (!size_arguments (call, args))
    return;
  /* A constant size says nothing a profile could.  */
  bool constant = true;
  for (tree arg : args)
    constant &= TREE_CODE (arg) == INTEGER_CST;
  if (constant)
    return;
  location_t loc = gimple_location (call);
  tree fndecl = gimple_call_fndecl (call);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  char *what = concat (name, " size", NULL);
  unsigned index = hot_list_site (SAMPLER_SCHEME_SIZES, loc, what,
				  size_type_node);
  free (what);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_insert_before (&gsi, build_marker (index, loc, args), GSI_SAME_STMT);
}

/* __sampler_value (COUNTERS, SIZE, CAPACITY); calloc's size the product
   of its two values.  */
static void
sizes_sample_call (gimple *marker, const site_info &site,
		   gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree type = long_long_unsigned_type_node;
  location_t loc = gimple_location (marker);
  tree size = converted (gsi, marker_value (marker, 0), type, loc);
  if (marker_num_values (marker) == 2)
    {
      tree other = converted (gsi, marker_value (marker, 1), type, loc);
      tree product = create_tmp_reg (type, "sampler_size");
      gassign *multiply = gimple_build_assign (product, MULT_EXPR, size,
					       other);
      gimple_set_location (multiply, loc);
      gsi_insert_before (gsi, multiply, GSI_SAME_STMT);
      size = product;
    }
  hot_list_sample_call (site, size, call);
}

const plugin_scheme SIZES_scheme = {
  .statement = sizes_statement,
  .sample_call = sizes_sample_call,
};
