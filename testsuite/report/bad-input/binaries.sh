#!/bin/sh
# Bad binaries (--binary, or a report's own program) given to show and
# merge (lib.sh): files of other kinds, a directory, a missing file, ELF
# files cut short, 32-bit, big-endian, with another section header size,
# with compressed site tables, and without site tables.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-6-binaries
# Binaries (--binary, or a report's own program).
binary_case () {
    what=$1 pattern=$2 file=$3
    tool_case Binary "$what" "$pattern" show "$report" --binary "$file"
    tool_case Binary "$what" "$pattern" merge "$report" --binary "$file" -o "$scratch/out"
}
object="$corpus/elf/prog-object"
binary_case "a site table instead" "program: not an ELF file \(it looks like a site table: pass it with --sites\)" "$sites"
binary_case "a report instead" "good.report: not an ELF file \(it looks like a report\)" "$report"
binary_case "a directory" "a-directory: not a regular file" "$scratch/a-directory"
binary_case "no such file" "nothing-here: No such file or directory" "$(bad nothing-here)"
head -c 40 "$object" >"$(bad elf-header)"
binary_case "cut inside the ELF header" "elf-header: truncated ELF header" "$(bad elf-header)"
head -c 3000 "$object" >"$(bad elf-cut)"
binary_case "cut before its section headers" "elf-cut: section header table lies outside the file \(truncated or damaged ELF file\)" "$(bad elf-cut)"
# ELF identification bytes: class (4) and data encoding (5).
patch_byte () {   # patch_byte FILE OFFSET OCTAL-VALUE OUT
    cp "$1" "$4" && printf "\\$3" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
patch_byte "$object" 4 001 "$(bad elf32)"
binary_case "32-bit ELF" "elf32: 32-bit ELF files are not supported \(only ELF64\)" "$(bad elf32)"
patch_byte "$object" 5 002 "$(bad elf-be)"
binary_case "big-endian ELF" "elf-be: big-endian ELF files are not supported \(only little-endian\)" "$(bad elf-be)"
patch_byte "$object" 58 020 "$(bad elf-shentsize)"
binary_case "section header size 16" "elf-shentsize: unexpected section header size 16" "$(bad elf-shentsize)"
if objcopy --compress-debug-sections=zlib "$object" "$(bad compressed)" 2>/dev/null; then
    binary_case "its site tables compressed" "compressed: section .debug_sampler_sites is compressed, which sampler-report does not read; decompress it with objcopy --decompress-debug-sections" "$(bad compressed)"
fi
objcopy --remove-section=.debug_sampler_sites "$object" "$(bad no-tables)"
rm -rf "$scratch/out"
"$tool" merge "$report" --binary "$(bad no-tables)" -o "$scratch/out" >"$scratch/tool.out" 2>"$scratch/tool.err"
status=$?
if [ $status = 2 ] && grep -q "note: .*no-tables has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" "$scratch/tool.err" \
        && grep -q "no site table found; pass the program or library with --binary" "$scratch/tool.err" \
        && [ ! -e "$scratch/out" ]; then
    pass "Binary: no site tables"
    row Binary "without .debug_sampler_sites" "$(sed "s|$scratch/||g; s|$corpus/||g; s/^/\`/; s/$/\`/" "$scratch/tool.err" | paste -sd ' ' -); exit 2, nothing written"
else
    fail "Binary: no site tables (exit $status)" "$scratch/tool.err"
fi

finish
