#!/usr/bin/env bash
# Image benchmarks, side by side with libvips (vipsthumbnail, vips) and
# ImageMagick, each command run RUNS times (default 3) under a child
# subreaper that counts every process it starts (DeskBridge's image worker
# too) for its CPU time, wall time and peak memory; prints the median of
# each figure. Installs libvips-tools, imagemagick and time from Debian
# when they are missing. Not part of make test.
# Usage: scripts/bench-images.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}

need=()
for pkg in libvips-tools imagemagick time bc python3; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
im=/usr/bin/convert
[ -x "$im" ] || im=$(command -v magick)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws="$tmp/ws"
mkdir -p "$ws"
go build -trimpath -tags nodynamic -o "$tmp/deskbridge" ./cmd/deskbridge
go run ./scripts/imagebenchgen "$ws"
origin="chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
cat >"$tmp/config.json" <<JSON
{"workspaces":[{"name":"ws","path":"$ws"}],"allowed_origins":["$origin"],
 "decision_log":{"path":"$tmp/decisions.jsonl"},"state_dir":"$tmp/state"}
JSON
db() { "$tmp/deskbridge" --config "$tmp/config.json" call "$@" >"$tmp/last.json"; }

# reap.py OUT CMD...: runs CMD as a child subreaper, waits for every
# descendant, and appends "cpu wall maxrss_kib" to OUT. CPU is the
# children's rusage after minus before (a python3 started through a shim
# has children's time already).
cat >"$tmp/reap.py" <<'PY'
import ctypes, os, resource, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
rc = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL).returncode
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if rc != 0:
    sys.exit("%s exited %d" % (sys.argv[2], rc))
with open(sys.argv[1], "a") as f:
    print(ru.ru_utime + ru.ru_stime - before.ru_utime - before.ru_stime, wall, ru.ru_maxrss, file=f)
PY

# 1,000 inspect_image requests framed for one host process (stdin).
python3 - "$ws/many" "$tmp/inspect.frames" <<'PY'
import json, os, struct, sys
d, out = sys.argv[1], sys.argv[2]
with open(out, "wb") as f:
    for i, n in enumerate(sorted(os.listdir(d))):
        p = json.dumps({"version": 1, "id": str(i), "action": "inspect_image",
                        "arguments": {"path": os.path.join(d, n)}}).encode()
        f.write(struct.pack("<I", len(p)) + p)
PY

# measure NAME CMD...: RUNS runs; prints the median CPU time (user +
# system), wall time and peak RSS, and each run's CPU. On a shared
# machine quote CPU times and ratios: wall times wait for the processor.
# The command runs under a child subreaper (reap.py) that waits for every
# process it starts, so DeskBridge's image worker, a child the host
# leaves to end on its own, is counted with the host; the peak is the
# largest single process's.
measure() {
	local name=$1
	shift
	: >"$tmp/runs.txt"
	for _ in $(seq "$runs"); do
		python3 "$tmp/reap.py" "$tmp/runs.txt" "$@" 2>>"$tmp/stderr.txt"
	done
	local cpus walls rsss
	read -ra cpus <<<"$(awk '{print $1}' "$tmp/runs.txt" | tr '\n' ' ')"
	read -ra walls <<<"$(awk '{print $2}' "$tmp/runs.txt" | tr '\n' ' ')"
	read -ra rsss <<<"$(awk '{print $3}' "$tmp/runs.txt" | tr '\n' ' ')"
	last_cpu=$(median "${cpus[@]}")
	printf '%-44s cpu %6.3f s   wall %6.3f s   peak RSS %7.1f MiB   (runs: %s s)\n' "$name" \
		"$last_cpu" "$(median "${walls[@]}")" "$(echo "$(median "${rsss[@]}")/1024" | bc -l)" \
		"$(printf '%.3f ' "${cpus[@]}")"
}

# ratio A B: A/B to two places.
ratio() { printf '%.2f' "$(echo "$1/$2" | bc -l)"; }

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== the floor: inspect_image of the same 24-megapixel JPEG (host start, decision, header)"
measure "deskbridge inspect_image" "$tmp/deskbridge" --config "$tmp/config.json" call inspect_image "{\"path\":\"$ws/photo-24mp.jpg\"}"

echo "== resize a 24-megapixel JPEG (6000×4000) to 1600 px wide, JPEG quality 85"
measure "deskbridge resize_image" "$tmp/deskbridge" --config "$tmp/config.json" call resize_image \
	"{\"path\":\"$ws/photo-24mp.jpg\",\"width\":1600,\"destination\":\"$ws/ours-1600.jpg\",\"overwrite\":true}"
ours=$last_cpu
measure "vipsthumbnail" vipsthumbnail "$ws/photo-24mp.jpg" --size 1600x -o "$ws/vips-1600.jpg[Q=85]"
vips=$last_cpu
measure "ImageMagick convert -resize" "$im" "$ws/photo-24mp.jpg" -resize 1600x -quality 85 "$ws/im-1600.jpg"
printf '%-44s %s× vipsthumbnail, %s× ImageMagick\n' "deskbridge resize_image CPU" "$(ratio "$ours" "$vips")" "$(ratio "$ours" "$last_cpu")"
printf '%-44s %s dB\n' "PSNR deskbridge vs vipsthumbnail" "$(compare -metric PSNR "$ws/ours-1600.jpg" "$ws/vips-1600.jpg" null: 2>&1 || true)"
printf '%-44s %s dB\n' "PSNR ImageMagick vs vipsthumbnail" "$(compare -metric PSNR "$ws/im-1600.jpg" "$ws/vips-1600.jpg" null: 2>&1 || true)"

echo "== compress the 24-megapixel JPEG (6.9 MB) to at most 2,000,000 bytes"
measure "deskbridge compress_image max_bytes" "$tmp/deskbridge" --config "$tmp/config.json" call compress_image \
	"{\"path\":\"$ws/photo-24mp.jpg\",\"max_bytes\":2000000,\"destination\":\"$ws/ours-2mb.jpg\",\"overwrite\":true}"
ours=$last_cpu
measure "ImageMagick convert -define jpeg:extent" "$im" "$ws/photo-24mp.jpg" -define jpeg:extent=2000000 "$ws/im-2mb.jpg"
printf '%-44s %s× ImageMagick\n' "deskbridge compress_image CPU" "$(ratio "$ours" "$last_cpu")"
identify -format '%f %wx%h %b q%Q\n' "$ws/ours-2mb.jpg" "$ws/im-2mb.jpg"

echo "== convert a 3-megapixel PNG (2120×1415) to lossless WebP (a 12 MP one passes the image worker's memory and is refused)"
vips resize "$ws/photo-12mp.png" "$ws/photo-3mp.png" 0.5
measure "deskbridge convert_image" "$tmp/deskbridge" --config "$tmp/config.json" call convert_image \
	"{\"path\":\"$ws/photo-3mp.png\",\"destination\":\"$ws/ours.webp\",\"format\":\"webp\",\"lossless\":true,\"overwrite\":true}"
measure "vips copy (lossless WebP)" vips copy "$ws/photo-3mp.png" "$ws/vips.webp[lossless]"
measure "ImageMagick convert (lossless WebP)" "$im" "$ws/photo-3mp.png" -define webp:lossless=true "$ws/im.webp"
ls -l "$ws/ours.webp" "$ws/vips.webp" "$ws/im.webp" | awk '{printf "%-44s %d bytes\n", $9, $5}' | sed "s|$ws/||"

echo "== inspect 1,000 images (6 formats, headers and metadata)"
# The host is started as a browser starts it and sent the 1,000 frames; the
# port is closed only once every answer has come (closing it earlier
# cancels what is in flight). Wall time from the start to the last answer
# and the host's CPU time; RUNS runs, medians.
for _ in $(seq "$runs"); do
	python3 - "$tmp/deskbridge" "$tmp/config.json" "$origin" "$tmp/inspect.frames" <<'PY'
import json, resource, struct, subprocess, sys, threading, time
host, config, origin, frames = sys.argv[1:5]
data = open(frames, "rb").read()
t0 = time.time()
p = subprocess.Popen([host, "--config", config, origin], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
threading.Thread(target=lambda: (p.stdin.write(data), p.stdin.flush())).start()
ok = 0
for _ in range(1000):
    n = struct.unpack("<I", p.stdout.read(4))[0]
    ok += json.loads(p.stdout.read(n))["success"]
wall = time.time() - t0
p.stdin.close()
p.wait()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, ru.ru_utime + ru.ru_stime, ok)
PY
done >"$tmp/inspect.txt"
awk '$3 != 1000 {print "deskbridge: an inspect_image failed"; exit 1}' "$tmp/inspect.txt"
printf '%-44s cpu %6.3f s   wall %6.3f s   %.0f images/s\n' "deskbridge: 1,000 inspect_image, one host" \
	"$(median $(awk '{print $2}' "$tmp/inspect.txt"))" "$(median $(awk '{print $1}' "$tmp/inspect.txt"))" \
	"$(echo "1000/$(median $(awk '{print $1}' "$tmp/inspect.txt"))" | bc -l)"
measure "vipsheader, one process" sh -c "exec vipsheader \"$ws\"/many/*"
measure "ImageMagick identify -ping, one process" sh -c "exec identify -ping \"$ws\"/many/*"
