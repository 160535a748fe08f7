/* Prints the plugin's table of arguments, plugin/arguments.def, one line
   per key: KEY, KIND, MIN, MAX, DEFAULT (empty: none) and VALUE, TAB-
   separated, for every-key.py.  */
#include <stdio.h>

int
main (void)
{
#define SAMPLER_ARGUMENT(KEY, KIND, FIELD, MIN, MAX, DEFAULT, VALUE, HELP) \
  {									\
    const char *given_default = DEFAULT;				\
    printf ("%s\t%s\t%ld\t%ld\t%s\t%s\n", KEY, #KIND, (long) (MIN),	\
	    (long) (MAX), given_default ? given_default : "", VALUE);	\
  }
#include "../../../plugin/arguments.def"
  return 0;
}
