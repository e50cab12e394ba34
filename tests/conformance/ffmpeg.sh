#!/usr/bin/env bash
# ffmpeg.sh BUILD_DIR - runs ffmpeg's OpenCL video filters (every one of them
# works on OpenCL images) on the build tree's device and on the other OpenCL
# implementations installed here (pocl through its ICD, Oclgrind through its
# wrapper), and compares the frames byte by byte.
#
# A filter passes when its frames equal those of one reference, or differ from
# one by at most 1 in any byte. Two implementations legitimately differ by
# one code where a float result lies within an ulp of a rounding boundary:
# pocl decodes UNORM_INT8 as c * (1/255) where the specification writes
# c / 255, so a blur whose exact average is k + 0.5 rounds to k on Lockstep
# and Oclgrind (round to nearest even, as specified) and to k + 1 on pocl.
# Anything else (a crash, an error, a frame of another size, a difference of
# 2 or more from every reference) fails. Exits 77 (a skip) without ffmpeg or
# without any reference; not part of `make check`: see `make ffmpeg`.
set -u

build=$(cd "${1:?usage: ffmpeg.sh BUILD_DIR}" && pwd)
if ! command -v ffmpeg >/dev/null 2>&1; then
  echo "SKIP: ffmpeg is not installed"
  exit 77
fi
refs=()
[ -f /etc/OpenCL/vendors/pocl.icd ] && refs+=(pocl)
command -v oclgrind >/dev/null 2>&1 && refs+=(oclgrind)
if [ ${#refs[@]} -eq 0 ]; then
  echo "SKIP: neither pocl nor Oclgrind is installed to compare with"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LOCKSTEP_CACHE=0
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc2=size=96x64:rate=5:duration=0.6 \
  -pix_fmt yuv420p a.mkv || exit 1
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=96x64:rate=5:duration=0.6 \
  -pix_fmt yuv420p b.mkv || exit 1

up="format=yuv420p,hwupload"
down="hwdownload,format=yuv420p"
two="[0:v]$up[a];[1:v]$up[b];[a][b]"
# name | inputs | filter graph
filters=(
  "avgblur|a|$up,avgblur_opencl=sizeX=3,$down"
  "boxblur|a|$up,boxblur_opencl=luma_radius=2:luma_power=2,$down"
  "convolution|a|$up,convolution_opencl=0m='0 1 0 1 -4 1 0 1 0':0rdiv=1,$down"
  "dilation|a|$up,dilation_opencl,$down"
  "erosion|a|$up,erosion_opencl,$down"
  "prewitt|a|$up,prewitt_opencl,$down"
  "roberts|a|$up,roberts_opencl,$down"
  "sobel|a|$up,sobel_opencl,$down"
  "unsharp|a|$up,unsharp_opencl=lx=5:ly=5:la=1.5,$down"
  "pad|a|$up,pad_opencl=w=128:h=96:x=16:y=16,$down"
  "transpose|a|$up,transpose_opencl=dir=clock,$down"
  "nlmeans|a|$up,nlmeans_opencl=s=3:p=3:r=7,$down"
  "deshake|a|$up,deshake_opencl,$down"
  "colorkey|a|format=rgba,hwupload,colorkey_opencl=color=0x3BBD1E:similarity=0.3:blend=0.2,hwdownload,format=rgba"
  "overlay|ab|[0:v]$up[a];[1:v]scale=48:32,$up[b];[a][b]overlay_opencl=x=8:y=8,$down"
  "xfade-fade|ab|${two}xfade_opencl=transition=fade:duration=0.4:offset=0.1,$down"
  "xfade-wipe|ab|${two}xfade_opencl=transition=wipeleft:duration=0.4:offset=0.1,$down"
)

# run IMPL NAME INPUTS GRAPH: the filter's frames in NAME.IMPL (empty on error)
run() {
  local impl=$1 name=$2 ins=() wrap=() vendors
  case $impl in
  lockstep) vendors="$build/vendors" ;;
  pocl) vendors=/etc/OpenCL/vendors/pocl.icd ;;
  oclgrind) vendors="" wrap=(oclgrind) ;;
  esac
  [[ $3 == *a* ]] && ins+=(-i a.mkv)
  [[ $3 == *b* ]] && ins+=(-i b.mkv)
  OCL_ICD_VENDORS=$vendors timeout 900 "${wrap[@]}" ffmpeg -hide_banner -loglevel error -y \
    -init_hw_device opencl=ocl:0.0 -filter_hw_device ocl "${ins[@]}" -filter_complex "$4" \
    -f rawvideo "$name.$impl" >"$name.$impl.log" 2>&1 || : >"$name.$impl"
}

# compare A B: prints "identical", "max 1 (N of M bytes)", or the difference
compare() {
  cmp -s "$1" "$2" && { echo identical; return; }
  local sa sb
  sa=$(stat -c %s "$1") sb=$(stat -c %s "$2")
  [ "$sa" -eq 0 ] || [ "$sb" -eq 0 ] || [ "$sa" -ne "$sb" ] && {
    echo "sizes $sa and $sb"
    return
  }
  python3 -c '
import sys
a, b = (open(f, "rb").read() for f in sys.argv[1:3])
d = [abs(x - y) for x, y in zip(a, b) if x != y]
print("max %d (%d of %d bytes)" % (max(d), len(d), len(a)))' "$1" "$2"
}

fail=0
for f in "${filters[@]}"; do
  IFS='|' read -r name ins graph <<<"$f"
  run lockstep "$name" "$ins" "$graph"
  if [ ! -s "$name.lockstep" ]; then
    echo "FAIL: $name: ffmpeg failed on Lockstep:"
    sed 's/^/  | /' "$name.lockstep.log" | tail -10
    fail=1
    continue
  fi
  ok=0 line=""
  for r in "${refs[@]}"; do
    run "$r" "$name" "$ins" "$graph"
    c=$(compare "$name.lockstep" "$name.$r")
    line+=" $r: $c;"
    [[ $c == identical || $c == "max 1 "* ]] && ok=1
  done
  if [ $ok = 1 ]; then echo "PASS: $name:$line"; else
    echo "FAIL: $name:$line"
    fail=1
  fi
done
exit $fail
