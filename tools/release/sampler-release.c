/* sampler-release: checks a release configuration (docs/remote.md) and
   turns it into the assembly of an object that a release carries.

     sampler-release check FILE   print the configuration as the release
                                  will carry it (every setting, defaults
                                  filled in)
     sampler-release asm FILE     print the assembly of the object that
                                  sampler-gcc --sampler-release=FILE links in

   A bad file: `FILE:LINE: error: ...' on stderr and exit status 1; bad
   usage: status 2.  The object holds the configuration as text in the
   allocated section .sampler_release, under the symbol __sampler_release
   that the runtime looks up (runtime/field.c); `readelf -p
   .sampler_release PROGRAM' shows it, also in a stripped program.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "release.h"

static int usage(void)
{
    fputs("usage: sampler-release check FILE\n"
          "       sampler-release asm FILE\n", stderr);
    return 2;
}

/* Reads at most SAMPLER_RELEASE_TEXT_MAX + 1 bytes of PATH into TEXT.  */
static bool read_text(const char *path, char *text, size_t *length)
{
    FILE *file = fopen(path, "rb");
    struct stat status;

    if (file == NULL) {
        fprintf(stderr, "%s: error: cannot read the release configuration: %s\n", path,
                strerror(errno));
        return false;
    }
    if (fstat(fileno(file), &status) != 0 || !S_ISREG(status.st_mode)) {
        fprintf(stderr, "%s: error: the release configuration is not a regular file\n", path);
        fclose(file);
        return false;
    }
    *length = fread(text, 1, SAMPLER_RELEASE_TEXT_MAX + 1, file);
    bool failed = ferror(file);
    fclose(file);
    if (failed) {
        fprintf(stderr, "%s: error: cannot read the release configuration\n", path);
        return false;
    }
    return true;
}

/* The text as one .ascii string per line, then its NUL.  */
static void write_assembly(const char *text, size_t length)
{
    fputs("\t.section .sampler_release,\"a\",@progbits\n"
          "\t.globl __sampler_release\n"
          "\t.type __sampler_release, @object\n"
          "__sampler_release:\n", stdout);
    for (size_t i = 0; i < length;) {
        fputs("\t.ascii \"", stdout);
        for (; i < length; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c == '\n') {
                fputs("\\n", stdout);
                i++;
                break;
            }
            if (c == '"' || c == '\\')
                printf("\\%c", c);
            else if (c < 0x20 || c >= 0x7f)
                printf("\\%03o", c);
            else
                putchar(c);
        }
        fputs("\"\n", stdout);
    }
    fputs("\t.byte 0\n"
          "\t.size __sampler_release, .-__sampler_release\n"
          "\t.section .note.GNU-stack,\"\",@progbits\n", stdout);
#if defined(__x86_64__)
    /* The object holds no code, so it is IBT and shadow-stack clean; it
       must say so, or the linker takes the property from the whole program
       built with -fcf-protection (docs/distributions.md).  */
    fputs("\t.section .note.gnu.property,\"a\"\n"
          "\t.align 8\n"
          "\t.long 4\n"           /* name size: "GNU" */
          "\t.long 16\n"          /* descriptor size */
          "\t.long 5\n"           /* NT_GNU_PROPERTY_TYPE_0 */
          "\t.string \"GNU\"\n"
          "\t.long 0xc0000002\n"  /* GNU_PROPERTY_X86_FEATURE_1_AND */
          "\t.long 4\n"
          "\t.long 3\n"           /* IBT | SHSTK */
          "\t.align 8\n", stdout);
#endif
}

int main(int argc, char **argv)
{
    static char text[SAMPLER_RELEASE_TEXT_MAX + 1];
    static char normal[SAMPLER_RELEASE_TEXT_MAX];
    struct sampler_release release;
    char error[SAMPLER_RELEASE_ERROR_SIZE];
    unsigned long line;
    size_t length;

    if (argc != 3 || (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "asm") != 0))
        return usage();
    const char *path = argv[2];
    if (!read_text(path, text, &length))
        return 1;
    if (!sampler_release_parse(text, length, &release, &line, error)) {
        if (line > 0)
            fprintf(stderr, "%s:%lu: error: %s\n", path, line, error);
        else
            fprintf(stderr, "%s: error: %s\n", path, error);
        return 1;
    }
    int header = snprintf(normal, sizeof normal, "# sampler release configuration\n");
    long written = sampler_release_format(&release, normal + header, sizeof normal - (size_t)header);
    if (written < 0) {
        fprintf(stderr, "%s: error: the configuration does not fit\n", path);
        return 1;
    }
    length = (size_t)header + (size_t)written;
    if (strcmp(argv[1], "check") == 0)
        fwrite(normal, 1, length, stdout);
    else
        write_assembly(normal, length);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sampler-release: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
