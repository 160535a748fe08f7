/* sampler.so: the red-zone skip taken out of the runtime calls of functions
   that keep nothing in their red zone.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   A preserving call (build_preserving_call, call-builder.cc) is an asm
   statement that pushes below the stack pointer, so it steps over the
   128 bytes there first, where a function that makes no call may keep
   data.  Only such a leaf function does, and only once its frame is laid
   out after register allocation is it known whether it does: this pass
   runs after the prologue is made, and where the frame puts nothing in
   the red zone (any function that calls, or a leaf whose locals and saved
   registers all fit in registers), it removes the two `lea' instructions,
   13 bytes, from each call's text.  */

#include "sampler-plugin.h"

#include <string.h>

#include "context.h"
#include "tm.h"
#include "function.h"
#include "memmodel.h"
#include "rtl.h"
#include "rtl-iter.h"
#include "emit-rtl.h"
#include "tree-pass.h"
#include "ggc.h"

#if defined(__x86_64__)

/* TEXT without the red-zone skip, if it is a preserving call's; else
   NULL.  */
static const char *
without_red_zone_skip (const char *text)
{
  size_t skip = strlen (preserving_call_red_zone_skip);
  size_t back = strlen (preserving_call_red_zone_return);
  size_t len = strlen (text);
  if (len < skip + back
      || strncmp (text, preserving_call_red_zone_skip, skip) != 0
      || strcmp (text + len - back, preserving_call_red_zone_return) != 0)
    return NULL;
  return ggc_alloc_string (text + skip, len - skip - back);
}

static unsigned int
drop_red_zone_skips (function *fn)
{
  if (fn->machine->frame.red_zone_size != 0)
    return 0;
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      if (!NONDEBUG_INSN_P (insn))
	continue;
      /* An asm with outputs has an ASM_OPERANDS per output, all with the
	 same text.  */
      subrtx_var_iterator::array_type array;
      FOR_EACH_SUBRTX_VAR (iter, array, PATTERN (insn), NONCONST)
	if (GET_CODE (*iter) == ASM_OPERANDS)
	  if (const char *text
	      = without_red_zone_skip (ASM_OPERANDS_TEMPLATE (*iter)))
	    ASM_OPERANDS_TEMPLATE (*iter) = text;
    }
  return 0;
}

#endif

static const pass_data red_zone_pass_data = {
  RTL_PASS,
  "sampler-red-zone",
  OPTGROUP_NONE,
  TV_NONE,
  0,
  0,
  0,
  0,
  0
};

class red_zone_pass : public rtl_opt_pass
{
public:
  red_zone_pass (gcc::context *ctxt)
    : rtl_opt_pass (red_zone_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
#if defined(__x86_64__)
    return TARGET_64BIT;
#else
    return false;
#endif
  }

  virtual unsigned int execute (function *fn)
  {
#if defined(__x86_64__)
    return drop_red_zone_skips (fn);
#else
    (void) fn;
    return 0;
#endif
  }
};

opt_pass *
make_red_zone_pass (gcc::context *ctxt)
{
  return new red_zone_pass (ctxt);
}
