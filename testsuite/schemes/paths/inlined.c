/* A loop whose condition calls getchar, which glibc's <stdio.h> defines
   inline: the paths' exits and branches are spelled by this file's lines
   (the loop at line 17), never by the header's.  */
#include <stdio.h>

static int classify(int c)
{
    if (c >= 'a' && c <= 'z')
        return 1;
    return 0;
}

int main(void)
{
    int counts[2] = { 0 };
    int c;
    while ((c = getchar()) != EOF)
        counts[classify(c)]++;
    printf("%d %d\n", counts[0], counts[1]);
    return 0;
}
