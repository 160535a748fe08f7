/* sampler.so: the x86-64 call sequence that calls the runtime from the
   slow copy without costing the fast copy a register.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  build_preserving_call makes RESULT = FN (ARGS), or FN (ARGS)
   that reads and sets the thread's countdown, as one volatile asm
   statement, on x86-64:

	lea -128(%rsp), %rsp		step over the red zone
	push %rdi ... push %rcx		save the N argument registers used
	push %N ... push %1		each argument, from wherever it is
	pop %rdi ... pop %rcx		  into its register
	lea %aI, %reg			the address of a static of the unit,
					  IP-relative, straight into its register
	call *FN@GOTPCREL(%rip)		through the GOT
	pop %rcx ... pop %rdi		restore the argument registers
	lea 128(%rsp), %rsp		back over the red zone

   Its operands: one output, the result in %rax ("=a") or the countdown in
   memory ("=m"), then the arguments, each "le" (any register but %rsp, or
   a 32-bit constant) or "i" (a static's address), then the memory FN
   reads and the countdown as inputs; it clobbers only the flags.  Not
   %rsp ("r" allows it): the sequence moves the stack pointer before it
   reads the arguments, and from GCC 14 the address of a local at the
   bottom of the frame, such as the array of scalar-pairs' values, comes
   as %rsp itself.

   Why.  A plain call clobbers every caller-saved register, so the register
   allocator would keep the function's values in callee-saved ones wherever
   they live across a slow copy's call, and save those in the prologue:
   the fast copy, which shares the values' registers with the slow copy,
   would pay for it.  A fixed register per argument would keep the values
   out of those registers in the same way.  Passing the arguments through
   the stack lets them come from any register, in any order, without one
   overwriting another before it is read; the argument registers are saved
   around the call and restored, so the asm pins none but the result's.
   The call steps over the 128-byte red zone, where a function that makes
   no call of its own may keep data below the stack pointer (red-zone.cc
   takes the two `lea's out where the function keeps nothing there).  It
   goes through the GOT, bound when the program is loaded, not through a
   PLT entry, whose lazy binding may change %r10 and %r11.

   The contract with the runtime (runtime/sampler-abi.h and
   sampler-internal.h): FN takes at most four integer or pointer arguments
   and saves every register it changes, the flags excepted
   (SAMPLER_PRESERVING: no_caller_saved_registers, general-regs-only); it
   runs code that uses vector or x87 registers only through
   sampler_call_saving_vectors; it copes with a stack aligned to 8 only;
   with no result it sets the countdown in memory.  Other targets get a
   plain call.

   How to debug.  With -fdump-tree-all, the dump file *.sampler-transform
   shows each asm's text, and -S the code as emitted; `objdump -d' of an
   instrumented object shows the sequences in the slow copies
   (.text.unlikely).  A register the runtime clobbers shows up as
   a program whose results differ from plain's at sparsity 1, where every
   visit is sampled; check-plugin's red-zone tests run a leaf that keeps
   data in its red zone at several sparsities.  */

#include "sampler-plugin.h"

#include <stdio.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "stringpool.h"
#include "tree-dfa.h"
#include "ggc.h"

#if defined(__x86_64__)
const char preserving_call_red_zone_skip[] = "lea -128(%%rsp), %%rsp\n\t";
const char preserving_call_red_zone_return[] = "lea 128(%%rsp), %%rsp";

/* Whether ARG is the address of (part of) a variable of the unit's own
   with static storage, in a code model where all of the unit's data is
   within reach of an address relative to the instruction pointer: an "i"
   operand, printed as such an address.  GCC takes a symbol plus an offset
   as such a constant only for offsets below 16 MiB (the small models
   leave that much room at the end of the 2 GiB), which a unit's counters
   pass with large hot-lists.  */
static bool
static_address_p (tree arg)
{
  if (TREE_CODE (arg) != ADDR_EXPR
      || (ix86_cmodel != CM_SMALL && ix86_cmodel != CM_SMALL_PIC
	  && ix86_cmodel != CM_KERNEL))
    return false;
  poly_int64 offset;
  tree base = get_addr_base_and_unit_offset (TREE_OPERAND (arg, 0), &offset);
  return (base && VAR_P (base) && TREE_STATIC (base) && !TREE_PUBLIC (base)
	  && !DECL_EXTERNAL (base) && !DECL_THREAD_LOCAL_P (base)
	  && known_lt (offset, 16 * 1024 * 1024) && known_ge (offset, 0));
}
#endif

gimple *
build_preserving_call (tree fn, const vec<tree> &args, tree result,
		       tree memory)
{
#if defined(__x86_64__)
  static const char *const arg_registers[] = { "rdi", "rsi", "rdx", "rcx" };
  gcc_assert (args.length () <= ARRAY_SIZE (arg_registers));
  /* The sequence at the top of the file.  */
  unsigned n = args.length ();
  bool direct[ARRAY_SIZE (arg_registers)];
  for (unsigned i = 0; i < n; i++)
    direct[i] = static_address_p (args[i]);
  auto_vec<char> text;
  auto add = [&text] (const char *part)
    {
      for (const char *c = part; *c; c++)
	text.safe_push (*c);
    };
  char operand[32];
  add (preserving_call_red_zone_skip);
  for (unsigned i = 0; i < n; i++)
    {
      add ("push %%");
      add (arg_registers[i]);
      add ("\n\t");
    }
  for (unsigned i = n; i-- > 0;)
    if (!direct[i])
      {
	snprintf (operand, sizeof operand, "push %%%u\n\t", i + 1);
	add (operand);
      }
  for (unsigned i = 0; i < n; i++)
    if (!direct[i])
      {
	add ("pop %%");
	add (arg_registers[i]);
	add ("\n\t");
      }
  /* The address of a static (the site's counters) goes straight into its
     register, relative to the instruction pointer: no register of the
     function holds it for the call.  */
  for (unsigned i = 0; i < n; i++)
    if (direct[i])
      {
	snprintf (operand, sizeof operand, "lea %%a%u, %%%%%s\n\t", i + 1,
		  arg_registers[i]);
	add (operand);
      }
  add ("call *");
  add (IDENTIFIER_POINTER (DECL_NAME (fn)));
  add ("@GOTPCREL(%%rip)\n\t");
  for (unsigned i = n; i-- > 0;)
    {
      add ("pop %%");
      add (arg_registers[i]);
      add ("\n\t");
    }
  add (preserving_call_red_zone_return);
  text.safe_push (0);
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL, *clobbers = NULL;
  /* One output either way, so the arguments are %1 to %N.  */
  if (result)
    vec_safe_push (outputs, asm_operand ("=a", result));
  else
    vec_safe_push (outputs, asm_operand ("=m", countdown_reference ()));
  for (unsigned i = 0; i < n; i++)
    vec_safe_push (inputs, asm_operand (direct[i] ? "i" : "le", args[i]));
  if (memory)
    vec_safe_push (inputs, asm_operand ("m", memory));
  if (!result)
    vec_safe_push (inputs, asm_operand ("m", countdown_reference ()));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  gasm *call = gimple_build_asm_vec (ggc_strdup (text.address ()), inputs,
				     outputs, clobbers, NULL);
  gimple_asm_set_volatile (call, true);
  return call;
#else
  (void) memory;
  gcall *call = gimple_build_call_vec (fn, args);
  if (result)
    gimple_call_set_lhs (call, result);
  return call;
#endif
}

