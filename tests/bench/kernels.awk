# kernels.awk - the table of tests/bench/kernels.sh from its
# "run<TAB>what<TAB>value" lines (run: native, interp, t1, t2, stats, pocl,
# oclgrind; what: a kernel's row name with its median seconds, build or
# rebuild with milliseconds, slices:PREFIX with one launch's native warp
# slices, summed over the kernels whose name starts with PREFIX).
function cell(run, k) { return ((run, k) in v) ? v[run, k] : "" }
function secs(x) { return x == "" ? "-" : x < 0 ? "FAIL" : sprintf("%.4f", x) }
function ratio(a, b, fmt) { return (a > 0 && b > 0) ? sprintf(fmt, a / b) : "-" }
function ms(x) { return x == "" ? "-" : sprintf("%.1f", x) }
{
  if ($2 ~ /^slices:/) { sl[substr($2, 8)] += $3; next }
  # a setting run twice keeps its first build, each kernel's faster time,
  # and a failure
  if (($1, $2) in v && ($2 ~ /build$/ || v[$1, $2] < 0 || ($3 >= 0 && v[$1, $2] < $3))) next
  v[$1, $2] = $3
  if ($2 != "build" && $2 != "rebuild" && !($2 in seen)) { seen[$2] = 1; order[nk++] = $2 }
}
END {
  printf "%-15s %9s %9s %9s %10s %11s %15s %9s %9s %8s %13s\n", "kernel", "native s",
         "interp s", "pocl s", "oclgrind s", "native/pocl", "oclgrind/native", "1 thr s",
         "2 thr s", "speed-up", "native slices"
  for (i = 0; i < nk; i++) {
    k = order[i]; split(k, w, " ")
    n = cell("native", k); p = cell("pocl", k); o = cell("oclgrind", k)
    a = cell("t1", k); b = cell("t2", k)
    printf "%-15s %9s %9s %9s %10s %11s %15s %9s %9s %8s %13s\n", k, secs(n),
           secs(cell("interp", k)), secs(p), secs(o), ratio(n, p, "%.2fx"),
           ratio(o, n, "%.0fx"), secs(a), secs(b), ratio(a, b, "%.2fx"),
           (w[1] in sl) ? sl[w[1]] : "-"
  }
  printf "(median seconds; speed-up: the native engine's 1-thread time / 2-thread time; native\n"
  printf " slices: warp slices it ran in a warm-up and one launch, 0 when it ran the interpreter)\n"
  printf "\nclBuildProgram of the benchmark program, ms\n"
  printf "  Lockstep cold (LOCKSTEP_CACHE=0)           %10s\n", ms(cell("native", "build"))
  printf "  Lockstep first build, empty cache (stores) %10s\n", ms(cell("interp", "build"))
  printf "  Lockstep cache hit, same process           %10s\n", ms(cell("interp", "rebuild"))
  printf "  Lockstep cache hit, new process            %10s\n", ms(cell("t1", "build"))
  printf "  pocl build / rebuild (it compiles kernels at their first launch) %s / %s\n",
         ms(cell("pocl", "build")), ms(cell("pocl", "rebuild"))
  printf "  Oclgrind build / rebuild                   %s / %s\n", ms(cell("oclgrind", "build")),
         ms(cell("oclgrind", "rebuild"))
}
