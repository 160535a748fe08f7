/* A program that is not instrumented and does not link the runtime: it
   loads an instrumented DSO (which brings libsampler.so along), uses it,
   unloads it and exits with 0.  The runtime must outlive the dlclose, or
   its exit handler would run in unmapped memory.

   dso-loader DSO  */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    void *dso = dlopen(argv[1], RTLD_NOW);
    if (dso == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 4;
    }
    void (*bump)(void) = (void (*)(void))dlsym(dso, "report_dso_bump");
    if (bump == NULL)
        return 5;
    bump();
    if (dlclose(dso) != 0)
        return 6;
    /* The runtime leaves no dlerror() behind.  */
    return dlerror() == NULL ? 0 : 7;
}
