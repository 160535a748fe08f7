#!/bin/bash
# The systemd user units pass systemd-analyze verify.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"

if command -v systemd-analyze > /dev/null; then
    if systemd-analyze verify "$build/lib/systemd/user/sampler-submit.service" \
           "$build/lib/systemd/user/sampler-submit.timer" > "$scratch/units.log" 2>&1 &&
       [ ! -s "$scratch/units.log" ] &&
       grep -qx "ExecStart=$build/bin/sampler-submit" "$build/lib/systemd/user/sampler-submit.service"; then
        pass "units: the service and the timer verify"
    else fail "units: the service and the timer verify" "$scratch/units.log"; fi
else
    skip "units" "no systemd-analyze"
fi
finish
