#!/bin/sh
# Binaries and files: ELF files of other kinds, files that are not ELF,
# missing files, a binary without site tables (named when units stay
# unknown), and the report's own program tried when no --binary is given
# (and why it did not help, said).  Every run repeated under ASan and UBSan.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
build_fixtures || fail "build binaries with site-table sections" "$scratch/build.log"

printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\001\000\003\000' >"$scratch/elf32.o"
expect_error "ELF32 binary" 2 \
    "sampler-report: $scratch/elf32.o: 32-bit ELF files are not supported (only ELF64)" \
    show "$scratch/run.report" --binary "$scratch/elf32.o"
printf '\177ELF\002\002\001\000\000\000\000\000\000\000\000\000' >"$scratch/big.o"
expect_error "big-endian binary" 2 \
    "sampler-report: $scratch/big.o: big-endian ELF files are not supported (only little-endian)" \
    show "$scratch/run.report" --binary "$scratch/big.o"
expect_error "non-ELF binary" 2 "sampler-report: $scratch/main.c: not an ELF file" \
    show "$scratch/run.report" --binary "$scratch/main.c"
expect_error "site table given as a binary" 2 \
    "sampler-report: $scratch/main.sites: not an ELF file (it looks like a site table: pass it with --sites)" \
    show "$scratch/run.report" --binary "$scratch/main.sites"
head -c 100 "$scratch/demo-prog" >"$scratch/truncated-prog"
expect_error "truncated ELF" 2 \
    "sampler-report: $scratch/truncated-prog: section header table lies outside the file (truncated or damaged ELF file)" \
    show "$scratch/run.report" --binary "$scratch/truncated-prog"
expect_error "directory as a binary" 2 "sampler-report: $scratch: not a regular file" \
    show "$scratch/run.report" --binary "$scratch"
expect_error "missing report" 2 "sampler-report: $scratch/missing.report: No such file or directory" \
    show "$scratch/missing.report"
expect_error "missing binary" 2 "sampler-report: $scratch/missing: No such file or directory" \
    show "$scratch/run.report" --binary "$scratch/missing"
expect_error "missing site table" 2 "sampler-report: $scratch/missing.sites: No such file or directory" \
    show "$scratch/run.report" --sites "$scratch/missing.sites"

# A binary without the section is no error, but is named when units stay unknown.
printf 'int plain (void) { return 0; }\n' >"$scratch/plain.c"
gcc -c "$scratch/plain.c" -o "$scratch/plain.o"
run_tool "binary without section" show "$scratch/run.report" --binary "$scratch/plain.o" \
    --binary "$scratch/demo-prog"
if [ "$(cat "$scratch/binary without section.status")" = 1 ] &&
   grep -qx "sampler-report: note: $scratch/plain.o has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" \
       "$scratch/binary without section.err"; then
    pass "binary without section"
else
    fail "binary without section" "$scratch/binary without section.err"
fi

# Without --binary, the report's program is tried, and why it did not help
# is said.
gcc "$scratch/plain.c" -Dplain=main -o "$scratch/plain-prog"
gone_message () {
    echo "sampler-report: unit $MAIN (demo/main.c) of $1: no site table found; pass the program or library with --binary, or a site-table file with --sites"
}
{ header "$scratch/plain-prog"; main_counts; record end; } >"$scratch/plain.report"
expect_messages "report's program without section" 1 "$(gone_message "$scratch/plain.report")
sampler-report: note: $scratch/plain-prog has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" \
    show "$scratch/plain.report"
{ header "$scratch/main.c"; main_counts; record end; } >"$scratch/script.report"
expect_messages "report's program not ELF" 1 "sampler-report: note: not using the report's program: $scratch/main.c: not an ELF file
$(gone_message "$scratch/script.report")" \
    show "$scratch/script.report"
{ header /nonexistent/prog; main_counts; record end; } >"$scratch/elsewhere.report"
expect_messages "report's program absent" 1 "$(gone_message "$scratch/elsewhere.report")
sampler-report: note: the report's program /nonexistent/prog does not exist here" \
    show "$scratch/elsewhere.report"
expect_output "report's program absent, tables from a file" auto-sites.txt 0 \
    show "$scratch/elsewhere.report" --sites "$scratch/main.sites"

sanitizer_check
finish
