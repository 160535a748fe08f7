# torture-test.sh, sourced by run-torture.sh (bash): the worker, which tests
# one torture test in every configuration asked for.
# ---------------------------------------------------------------------------
# Worker: one test.  Environment from the driver (exported T_*).
# Writes $T_RES/<set>__<name>.res: lines PASS, SKIP <reason>, FAIL <text>,
# NOTE <text>; prints FAIL lines on stdout.

res_line () { printf '%s\n' "$*" >> "$RES"; }
fail () {
  res_line "FAIL $*"
  printf 'FAIL: %s\n' "$*"
}

# Quote a command line for display.
qcmd () {
  local a out=""
  for a in "$@"; do
    case $a in
      *[!A-Za-z0-9_./=,+:@%-]*|'') out+="${out:+ }$(printf '%q' "$a")" ;;
      *) out+="${out:+ }$a" ;;
    esac
  done
  printf '%s' "$out"
}

classify_compile_failure () {   # $1 = log, $2 = status
  if grep -q 'internal compiler error' "$1"; then echo "ICE"
  elif [ "$2" = 124 ] || [ "$2" = 137 ]; then echo "compile timeout"
  elif grep -q ': error: ' "$1"; then echo "error"
  else echo "status $2"; fi
}
first_diag () { grep -m1 -E 'internal compiler error|: error: |: sorry, unimplemented|undefined reference|Error:' "$1" | cut -c1-300; }

run_with () {   # $1 timeout, $2 out, $3 err, rest: command; prints status
  local t=$1 o=$2 e=$3; shift 3
  timeout -k 2 "$t" "$@" < /dev/null > "$o" 2> "$e"
  echo $?
}

# The size of the text section (code) of an object or executable.
text_size () { size -A "$1" 2>/dev/null | awk '$1 == ".text" { print $2; exit }'; }

set_dir () { if [ "$1" = ieee ]; then echo execute/ieee; else echo "$1"; fi; }

do_levels () {   # levels for test $2 of set $1; the first one gates
  if [ "$1" = compile ]; then echo "$T_CLEVELS"; return; fi
  local levels=$T_LEVELS
  if [ "$T_O3EVERY" -gt 0 ] && [ $(( $2 % T_O3EVERY )) -eq 0 ]; then
    case " $levels " in *" -O3 "*) ;; *) levels="$levels -O3" ;; esac
  fi
  echo "$levels"
}

worker () {
  local set=$1 idx=$2 name=$3
  local src="$T_SRC/$(set_dir "$set")/$name.c"
  RES="$T_RES/${set}__$name.res"
  : > "$RES"
  local w="$T_SCRATCH/$set/$name"
  rm -rf "$w"; mkdir -p "$w"; cd "$w" || return
  ulimit -v 8000000 2>/dev/null

  # skip list
  local why
  why=$(awk -v n="$set/$name" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$T_SKIPFILE" 2>/dev/null)
  if [ -n "$why" ]; then res_line "SKIP skip.txt: $why"; rm -rf "$w"; return; fi

  local opts="" skip="" tf=1 key rest
  local -a skiplevels=() onlylevels=() skipopts=()
  while read -r key rest; do
    case $key in
      OPTS) opts+=" $rest" ;;
      SKIP) [ -z "$skip" ] && skip=$rest ;;
      SKIPLEVEL) skiplevels+=("$rest") ;;
      ONLYLEVEL) onlylevels+=("$rest") ;;
      SKIPOPT) skipopts+=("$rest") ;;
      TFACTOR) tf=${rest%%.*}; [ -z "$tf" ] || [ "$tf" -lt 1 ] && tf=1 ;;
    esac
  done < <(dg_parse "$src")
  if [ -n "$skip" ]; then res_line "SKIP $skip"; rm -rf "$w"; return; fi
  local so
  for so in ${skipopts[@]+"${skipopts[@]}"}; do
    case " $opts " in *" ${so%% *} "*) res_line "SKIP ${so#* }"; rm -rf "$w"; return ;; esac
  done
  # options, word-split as DejaGnu would
  local -a o
  # execute/ieee: ieee.exp adds -fno-inline (and -ffloat-store only for ia32)
  [ "$set" = ieee ] && opts="-fno-inline $opts"
  read -r -a o <<< "$opts"

  local rt=$(( T_RUN_TIMEOUT * tf ))
  local irt=$(( rt * 3 )) ct=$(( rt * 12 )) ict=$(( rt * 36 ))
  local -a plain inst
  local s

  local level lv first=1
  if [ "$set" = compile ]; then
    local prc irc nfail=0 ran=0 what
    for level in $(do_levels compile "$idx"); do
      lv=${level#-}
      plain=("$T_CC" "$level" -w $T_EXTRA ${o[@]+"${o[@]}"} -c "$src" -o "$w/plain$lv.o")
      inst=("$T_WRAPPER" "$level" -w -fchecking "-fplugin-arg-sampler-schemes=$ALL_SCHEMES" $T_PLUGIN_ARGS $T_EXTRA ${o[@]+"${o[@]}"} -c "$src" -o "$w/inst$lv.o")
      prc=$(run_with "$ct" /dev/null "plain$lv.log" "${plain[@]}")
      if grep -q 'internal compiler error' "plain$lv.log" || [ "$prc" = 124 ] || [ "$prc" = 137 ]; then
        if [ "$first" = 1 ]; then res_line "SKIP plain compile ICE or timeout"; rm -rf "$w"; return; fi
        res_line "NOTE $level skipped: plain compile ICE or timeout"; continue
      fi
      first=0; ran=1
      irc=$(run_with "$ict" /dev/null "inst$lv.log" "${inst[@]}")
      what=""
      if grep -q 'internal compiler error' "inst$lv.log"; then what="ICE"
      elif [ "$irc" = 124 ] || [ "$irc" = 137 ]; then what="compile timeout"
      elif [ "$irc" != 0 ] && [ "$prc" = 0 ]; then what="compile fails, plain succeeds ($(classify_compile_failure "inst$lv.log" "$irc"))"
      else
        grep -E ': (error|sorry, unimplemented): ' "plain$lv.log" | sort -u > "plain$lv.err"
        grep -E ': (error|sorry, unimplemented): ' "inst$lv.log" | sort -u > "inst$lv.err"
        if [ -n "$(comm -13 "plain$lv.err" "inst$lv.err")" ]; then what="new error"; fi
        if [ "$irc" = 0 ] && [ "$prc" != 0 ]; then res_line "NOTE $level plain compile fails, instrumented succeeds"; fi
      fi
      if [ -n "$what" ]; then
        fail "compile/$name $level: $what: $(first_diag "inst$lv.log") | $(qcmd "${inst[@]}")"
        res_line "CONF compile $level fail"
        nfail=$((nfail + 1)); continue
      fi
      res_line "CONF compile $level pass"
      [ "$prc" = 0 ] && res_line "SIZE compile $level $(text_size "$w/plain$lv.o") $(text_size "$w/inst$lv.o")"
      [ "$prc" != 0 ] && res_line "NOTE $level expected errors, same with sampler"
    done
    if [ "$nfail" = 0 ]; then res_line PASS; rm -rf "$w"; fi
    return
  fi

  # execute
  local prc nfail=0 ran=0 sp rc
  for level in $(do_levels execute "$idx"); do
    lv=${level#-}
    local skipthis=""
    for s in ${skiplevels[@]+"${skiplevels[@]}"}; do [ "${s%% *}" = "$level" ] && skipthis=${s#* }; done
    if [ ${#onlylevels[@]} -gt 0 ]; then
      skipthis="dg-skip-if: not at $level"
      for s in "${onlylevels[@]}"; do [ "$s" = "$level" ] && skipthis=""; done
    fi
    if [ -n "$skipthis" ]; then
      res_line "NOTE $level skipped: $skipthis"; continue
    fi
    plain=("$T_CC" "$level" -w $T_EXTRA ${o[@]+"${o[@]}"} "$src" -o "$w/plain$lv" -lm)
    prc=$(run_with "$ct" /dev/null "plain$lv.log" "${plain[@]}")
    if [ "$prc" != 0 ]; then
      if [ "$first" = 1 ]; then res_line "SKIP plain build fails"; rm -rf "$w"; return; fi
      res_line "NOTE $level skipped: plain build fails"; continue
    fi
    prc=$(run_with "$rt" "plain$lv.out" "plain$lv.stderr" "$w/plain$lv")
    if [ "$prc" != 0 ]; then
      if [ "$first" = 1 ]; then
        if [ "$prc" = 124 ] || [ "$prc" = 137 ]; then res_line "SKIP plain run times out"
        else res_line "SKIP plain run fails"; fi
        rm -rf "$w"; return
      fi
      res_line "NOTE $level skipped: plain run fails ($prc)"; continue
    fi
    first=0
    inst=("$T_WRAPPER" "$level" -w -fchecking "-fplugin-arg-sampler-schemes=$ALL_SCHEMES" $T_PLUGIN_ARGS $T_EXTRA ${o[@]+"${o[@]}"} "$src" -o "$w/inst$lv" -lm ${T_EXTRA_LINK})
    irc=$(run_with "$ict" /dev/null "inst$lv.log" "${inst[@]}")
    ran=1
    if [ "$irc" != 0 ]; then
      fail "$set/$name $level: $(classify_compile_failure "inst$lv.log" "$irc"): $(first_diag "inst$lv.log") | $(qcmd "${inst[@]}")"
      for sp in $T_SPARSITIES; do res_line "CONF $set $level sparsity=$sp fail"; done
      nfail=$((nfail + 1)); continue
    fi
    res_line "SIZE $set $level $(text_size "$w/plain$lv") $(text_size "$w/inst$lv")"
    for sp in $T_SPARSITIES; do
      rc=$(SAMPLER_SPARSITY=$sp SAMPLER_SEED=$T_SEED SAMPLER_FILE="$w/report-$lv-$sp" \
           run_with "$irt" "inst$lv-$sp.out" "inst$lv-$sp.stderr" "$w/inst$lv")
      local diff=""
      if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then diff="timeout (${irt}s; plain exits $prc)"
      elif [ "$rc" != "$prc" ]; then diff="exit status $rc, plain $prc"
      elif ! cmp -s "inst$lv-$sp.out" "plain$lv.out"; then diff="stdout differs from plain"
      fi
      if [ -n "$diff" ]; then
        fail "$set/$name $level SAMPLER_SPARSITY=$sp: $diff | $(qcmd "${inst[@]}") && SAMPLER_SPARSITY=$sp SAMPLER_SEED=$T_SEED $w/inst$lv"
        res_line "CONF $set $level sparsity=$sp fail"
        nfail=$((nfail + 1))
      else
        res_line "CONF $set $level sparsity=$sp pass"
      fi
    done
  done
  if [ "$nfail" = 0 ]; then
    if [ "$ran" = 0 ]; then res_line "SKIP dg-skip-if at every level tested"; else res_line PASS; fi
    rm -rf "$w"
  fi
}

