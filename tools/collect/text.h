/* Text from reports on its way into the store: PostgreSQL's text must be
   valid UTF-8, and a report may name a program in any bytes.  */
#ifndef SAMPLER_COLLECT_TEXT_H
#define SAMPLER_COLLECT_TEXT_H

#include <stdbool.h>

/* Whether TEXT is valid UTF-8 (no overlong forms, no surrogates).  */
bool utf8_valid(const char *text);

/* TEXT with each byte that is not part of valid UTF-8 written \xNN (and
   each backslash \\, so that the form is unambiguous); malloc'd.  */
char *utf8_escaped(const char *text);

#endif
