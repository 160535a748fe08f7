/* sampler.so: what differs between the GCC versions the plugin builds for
   (12 to 16), in one place.  Copyright (C) 2026 the sampler authors.
   GPL-3.0-or-later (see COPYING).

   The plugin is written against GCC 12's internals; each later version's
   change it meets gets a shim here, named after GCC 12's form, so the
   passes read the same for every version.  BUILDING_GCC_VERSION is the
   version of the GCC whose headers the plugin is built with (bversion.h),
   which is also the only GCC that will load it (plugin_init).
   docs/gcc-versions.md lists the differences and how they were found.

   Included by sampler-plugin.h, after GCC's coretypes.h and tree.h and
   before any other GCC header.  */
#ifndef SAMPLER_GCC_COMPAT_H
#define SAMPLER_GCC_COMPAT_H

#include "bversion.h"

#if BUILDING_GCC_VERSION < 12000
#error "sampler.so needs GCC 12 or later"
#endif

/* last_stmt (BB), the last statement of BB that is not a debug statement,
   is gone in GCC 14, renamed last_nondebug_stmt (tree-cfg.h); the
   declaration is repeated so that this header needs no more than
   coretypes.h.  */
#if BUILDING_GCC_VERSION >= 14000
extern gimple *last_nondebug_stmt (basic_block);

inline gimple *
last_stmt (basic_block bb)
{
  return last_nondebug_stmt (bb);
}
#endif

/* GCC 14 moved IPA-CP's lattices from ipa-prop.h into a new ipa-cp.h,
   which ipa-prop.h needs included before it.  Files that include
   ipa-prop.h include IPA_PROP_PREREQUISITES just before it: ipa-cp.h, or
   before GCC 14, where there is none, bversion.h again (no effect: it
   defines the same macros the same way).  */
#if BUILDING_GCC_VERSION >= 14000
#define IPA_PROP_PREREQUISITES "ipa-cp.h"
#else
#define IPA_PROP_PREREQUISITES "bversion.h"
#endif

#endif /* SAMPLER_GCC_COMPAT_H */
