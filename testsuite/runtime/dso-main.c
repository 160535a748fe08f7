/* Loads instrumented libraries: dso-main A B
   main_check() 5 times; A's plugin_run(100); dlclose(A); A again (loaded
   anew), plugin_run(10); B's plugin_run(7); exits with 0, B still
   loaded.  */
#include <dlfcn.h>
#include <stdio.h>

#include <sampler.h>

static unsigned long checked;

void main_check(void) SAMPLER_SAMPLED;
void main_check(void) { checked++; }

static int run(const char *path, int n, int unload)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return -1;
    }
    unsigned long (*plugin_run)(int) = (unsigned long (*)(int))dlsym(library, "plugin_run");
    if (plugin_run == NULL)
        return -1;
    printf("%s %lu\n", path, plugin_run(n));
    return unload ? dlclose(library) : 0;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    for (int i = 0; i < 5; i++)
        main_check();
    if (run(argv[1], 100, 1) != 0 || run(argv[1], 10, 0) != 0 || run(argv[2], 7, 0) != 0)
        return 4;
    return 0;
}
