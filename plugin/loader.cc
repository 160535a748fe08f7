/* sampler.so: the file GCC loads, which loads the plugin proper,
   sampler-main.so, from beside it once it has checked that this GCC is the
   one they were both built for.  Copyright (C) 2026 the sampler authors.
   GPL-3.0-or-later (see COPYING).

   The plugin proper uses GCC's internals, which change between versions:
   loaded into another major version of GCC, it does not get as far as its
   own version check, because GCC's dlopen stops on the first internal
   symbol that version lacks ("undefined symbol: _ZN6irange6union_ERK6vrange").
   This file uses nothing of GCC's but plugin_default_version_check, which
   every GCC since 4.5 has, so whichever GCC loads it hears why not.  */

#include "gcc-plugin.h"
#include "plugin-version.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* GCC refuses plugins that do not say they are GPL-compatible.  */
int plugin_is_GPL_compatible;

/* The plugin proper, in the directory of this file.  */
static const char main_library[] = "sampler-main.so";

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  /* Plain stdio: GCC's own diagnostics functions may be among what this
     GCC lacks.  A nonzero return makes GCC stop with an error.  */
  if (!plugin_default_version_check (version, &gcc_version))
    {
      fprintf (stderr, "sampler: error: %s was built for GCC %s and cannot "
	       "be loaded by GCC %s: use the sampler plugin built for GCC %s "
	       "(sampler-gcc chooses it), or build one with "
	       "make GCC=gcc-%.*s\n", info->full_name, gcc_version.basever,
	       version->basever, version->basever,
	       (int) strcspn (version->basever, "."), version->basever);
      return 1;
    }

  /* GCC's full_name is the path it loaded this file from.  */
  const char *slash = strrchr (info->full_name, '/');
  int dir_length = slash ? slash - info->full_name + 1 : 0;
  char path[4096];
  if (snprintf (path, sizeof path, "%.*s%s", dir_length, info->full_name,
		main_library) >= (int) sizeof path)
    {
      fprintf (stderr, "sampler: error: plugin path too long: %s\n",
	       info->full_name);
      return 1;
    }
  /* As GCC loads plugins: the plugin proper refers to GCC's symbols, and
     registers callbacks GCC calls after plugin_init returns.  */
  void *handle = dlopen (path, RTLD_NOW | RTLD_GLOBAL);
  if (!handle)
    {
      fprintf (stderr, "sampler: error: cannot load %s: %s\n", path,
	       dlerror ());
      return 1;
    }
  plugin_init_func main_init = (plugin_init_func) dlsym (handle,
							 "plugin_init");
  if (!main_init)
    {
      fprintf (stderr, "sampler: error: %s has no plugin_init\n", path);
      return 1;
    }
  return main_init (info, version);
}
