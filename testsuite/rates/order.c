/* Sites of one key (function, scheme and predicate) on several lines,
   which the sites pass numbers in another order than their lines': the
   assignment in the while loop's condition (line 17) comes after the one
   in its body (line 18), both comparing AT with HAYSTACK and NEEDLE.  The
   rates tests give each site its line's number as weight and check that
   each site gets its own.  */
#include <stddef.h>
#include <string.h>

/* Where NEEDLE (NEEDLE_LENGTH bytes, at least 1) first occurs in the
   LENGTH bytes at HAYSTACK, or NULL.  */
const char *find(const char *haystack, size_t length, const char *needle, size_t needle_length)
{
    const char *at;
    needle_length--;
    length -= needle_length;
    while (length > 0 && (at = memchr(haystack, *needle, length)) != NULL) {
        at++;
        if (memcmp(at, needle + 1, needle_length) == 0)
            return at - 1;
        length -= at - haystack;
        haystack = at;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    return find("sampled visits", 14 - argc, "it", 2) != NULL;
}
