#!/usr/bin/env bash
# Benchmarks Ortak side by side with nginx on this machine, in one run, and prints ratios.
#
#   ./scripts/bench.sh            # release build, 1,000 then 10,000 startups
#   BENCH_SECONDS=5 ./scripts/bench.sh
#   BENCH_ONLY=mixed ./scripts/bench.sh     # only the mixed load of many members (issue 29)
#   BENCH_ONLY=attacks ./scripts/bench.sh   # the 1,000-startup figures and the attacks on memory
#   BENCH_ONLY=afresh ./scripts/bench.sh    # only the member pages made with nothing kept
#
# 1. 1,000 startups (real SQLite database, release binary): /startups with filters, the home
#    page, a startup's page (signed in) and an island's JSON endpoint, each with wrk at 64
#    connections; /startups against nginx serving the very same HTML bytes as a static file.
#    Prints requests per second, p50/p99 latency and the ratio to nginx.
#    Then the member's pages again with nothing kept in memory (ORTAK_KEEP_BETWEEN_WRITES=false),
#    which is what making each page costs.
# 2. 10,000 startups, 100,000 users and 1,000,000 favourites: list and filter latency with one
#    connection (p50/p95/p99) with nothing kept, so each request runs its queries, and the
#    server's peak memory (VmHWM) over both servers of that size.
#
# Installs wrk, nginx and sqlite3 from Debian when missing. Writes nothing outside a temporary
# folder. Targets (issue 7): at least half of nginx's throughput on /startups, p99 <= 20 ms,
# peak memory <= 60 MB, list p95 <= 10 ms at the large size. Issue 29: the mixed load of many
# members (first below) at 0.3 of nginx serving the same pages, p99 <= 15 ms, at 0, 2 and 20
# writes a second, peak memory <= 60 MB; staff JSON of 1,000 rows >= 2,500 req/s, p99 <=
# 50 ms; cold start to the first 200 as before (15-21 ms). Each figure is printed beside its
# goal ("goal ... met" or "NOT MET").
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN="${BENCH_SECONDS:-10}"
CONNECTIONS=64
THREADS=2

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for tool in wrk nginx sqlite3; do command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

cargo build --release -p ortak --locked
BIN="$PWD/target/release/ortak"

WORK=$(mktemp -d)
# nginx's workers drop root for an unprivileged user, who must be able to read the page.
chmod 755 "$WORK"
SERVER_PID=""
NGINX_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# wrk reports p50/p95/p99 (ms) and requests per second on one line.
cat >"$WORK/report.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.0f p50=%.2f p95=%.2f p99=%.2f errors=%d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Fills the database with N startups, U users and F favourites (plain SQL, in one transaction).
seed() {
  local db=$1 startups=$2 users=$3 favourites=$4
  sqlite3 "$db" >/dev/null <<SQL
PRAGMA journal_mode=WAL;
BEGIN;
INSERT OR IGNORE INTO funds (id, slug, name) VALUES (1, 'bench-fund', 'Bench Fund');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $startups)
INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city, description_tr,
    description_en, stage, funding_goal_kurus, raised_kurus, completion_pct, investor_count, funded,
    period_kind, period_starts_on, period_ends_on, published, created_at)
SELECT 'bench-' || i, 'Girişim ' || i, printf('girisim %06d', i), printf('girisim %06d', i),
    json_extract('["agriculture","communications","consumer-software","cybersecurity","energy","fintech","healthcare","mobility"]', '\$[' || (i % 8) || ']'),
    1, json_extract('["İstanbul","Ankara","İzmir","Bursa","Antalya"]', '\$[' || (i % 5) || ']'),
    'Açıklama ' || i, 'Description ' || i, 'seed', 100000000 + i * 1000, (i * 7919) % 100000000,
    ((i * 7919) % 100000000) * 100 / (100000000 + i * 1000), i % 300, i % 7 = 0,
    CASE WHEN i % 3 = 0 THEN 'pre_investment' ELSE 'investment' END,
    date('now', '-' || (i % 20) || ' days'), date('now', '+' || (10 + i % 30) || ' days'), 0,
    strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || i || ' minutes')
FROM n;
-- Published as the committee would (issue 27): an approved campaign version each; campaigns
-- run 60 days at most (the database refuses longer ones).
INSERT INTO campaign_versions (startup_id, number, content, submitted_at, status, decided_at)
SELECT id, 1, '{"legacy":true}', created_at, 'approved', created_at FROM startups
WHERE slug LIKE 'bench-%';
UPDATE startups SET published = 1, approved_version_id = (
    SELECT v.id FROM campaign_versions v WHERE v.startup_id = startups.id AND v.number = 1)
WHERE slug LIKE 'bench-%';
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $users)
INSERT INTO users (email, first_name, last_name, email_verified_at, onboarding_step)
SELECT 'bench-' || i || '@example.com', 'Ad' || i, 'Soyad' || i, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 6 FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $favourites - 1)
INSERT OR IGNORE INTO favorites (user_id, startup_id)
SELECT (SELECT MIN(id) FROM users) + (i % $users),
       (SELECT MIN(id) FROM startups) + ((i % $users) + (i / $users) * ($users + 997)) % $startups
FROM n;
COMMIT;
ANALYZE;
SQL
}

start_server() { # data folder [keep between writes: true (default) or false]
  local data=$1
  PORT=$(free_port)
  # Trusting the loopback proxy lets the mixed load give each member an address of their own
  # (X-Forwarded-For); the other runs send none.
  ORTAK_TRUSTED_PROXIES=127.0.0.1 ORTAK_KEEP_BETWEEN_WRITES="${2:-true}" ORTAK_ADDR="127.0.0.1:$PORT" ORTAK_DATA_DIR="$data" RUST_LOG=warn "$BIN" serve >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1
}

stop_server() { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }

# nginx serves $WORK/nginx/www: /startups from startups.html, any other path P from P.html.
start_nginx() {
  NGINX_PORT=$(free_port)
  mkdir -p "$WORK/nginx/logs" "$WORK/nginx/www"
  cat >"$WORK/nginx/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/nginx/www;
    location = /startups { default_type text/html; try_files /startups.html =404; }
    location / { default_type text/html; try_files \$uri.html =404; }
  }
}
NGINX
  "$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" -g 'daemon off;' &
  NGINX_PID=$!
  sleep 0.5
}

peak_kb() { awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status"; }

# Writes the server counted so far (each one ends what pages keep in memory, `db::writes`).
writes_counted() { curl -fsS "http://127.0.0.1:$PORT/metrics" | awk '/^ortak_writes_counted / {print $2}'; }

# Staff sign in with two factors: enrol an authenticator (the page shows its key), give its code.
second_factor() { # cookie jar, base URL, CSRF token
  local setup secret
  setup=$(curl -kfsS -b "$1" -c "$1" "$2/signin/2fa/setup")
  secret=$(printf '%s' "$setup" | grep -o 'data-secret="[^"]*"' | sed 's/.*="//;s/"$//')
  curl -kfsS -o /dev/null -b "$1" -c "$1" -H "Origin: $2" --data-urlencode "csrf=$3" \
    --data-urlencode "code=$(python3 scripts/totp.py "$secret")" "$2/signin/2fa/setup"
}

# Signs EMAIL in with the benchmark password into cookie jar JAR; prints the CSRF token used.
password_sign_in() { # jar email
  local base="http://127.0.0.1:$PORT" token
  rm -f "$1"
  token=$(curl -fsS -c "$1" "$base/signin" | grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"//')
  curl -fsS -o /dev/null -b "$1" -c "$1" -H "Origin: $base" \
    --data-urlencode "csrf=$token" --data-urlencode "email=$2" \
    --data-urlencode "password=bench-password-1" --data-urlencode "terms=1" --data-urlencode "next=/" "$base/signin"
  printf '%s' "$token"
}

# The Cookie header value of a cookie jar.
cookie_header() { awk '$6 ~ /ortak_/ {printf "%s%s=%s", sep, $6, $7; sep="; "}' "$1"; }

# Signs the benchmark admin in (enrolling its authenticator: create-admin removed any earlier
# one); prints the Cookie header value.
sign_in() {
  local jar="$WORK/cookies" token
  token=$(password_sign_in "$jar" bench@example.com)
  second_factor "$jar" "http://127.0.0.1:$PORT" "$token"
  cookie_header "$jar"
}

# A member (no second factor): the first seeded user, given the benchmark admin's password.
member_sign_in() { # database
  local jar="$WORK/member-cookies"
  sqlite3 "$1" "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'bench@example.com') WHERE email = 'bench-1@example.com'"
  password_sign_in "$jar" bench-1@example.com >/dev/null
  cookie_header "$jar"
}

# Prints a figure beside its goal: goal LABEL VALUE OP LIMIT (OP: ge or le).
goal() {
  local verdict
  if python3 -c "import sys; v, l = float('$2'), float('$4'); sys.exit(0 if (v >= l if '$3' == 'ge' else v <= l) else 1)"; then
    verdict="met"
  else
    verdict="NOT MET"
  fi
  printf '  goal %-52s %10s (%s %s): %s\n' "$1" "$2" "$([ "$3" = ge ] && echo '>=' || echo '<=')" "$4" "$verdict"
}

# Every benchmarked answer must be a success: a run full of errors measures nothing.
check_errors() { # label line
  local errors
  errors=$(sed 's/.*errors=\([0-9]*\).*/\1/' <<<"$2")
  if [ "$errors" != "0" ]; then
    echo "$1: $errors errors; the figures above are not valid" >&2
    exit 1
  fi
}

run() { # label url [cookie] [connections]
  local label=$1 url=$2 cookie=${3:-} conns=${4:-$CONNECTIONS}
  local threads=$(( conns < THREADS ? conns : THREADS ))
  local args=(-t "$threads" -c "$conns" -d "${SECONDS_PER_RUN}s" -s "$WORK/report.lua")
  [ -n "$cookie" ] && args+=(-H "Cookie: $cookie")
  local line
  line=$(wrk "${args[@]}" "$url" | grep '^RESULT')
  printf '%-44s %s\n' "$label" "${line#RESULT }"
  check_errors "$label" "$line"
  LAST_RPS=$(sed 's/.*rps=\([0-9]*\).*/\1/' <<<"$line")
  LAST_P95=$(sed 's/.*p95=\([0-9.]*\).*/\1/' <<<"$line")
  LAST_P99=$(sed 's/.*p99=\([0-9.]*\).*/\1/' <<<"$line")
}

# What making each page costs, with nothing kept at all (not even what members share); the
# goals are twice the figures issue 29 measured before its work (/startups 2,369, /overview
# 1,188 req/s).
made_afresh() {
  echo
  echo "-- the same pages with nothing kept in memory (ORTAK_KEEP_BETWEEN_WRITES=false): each request reads and renders"
  start_server "$DATA" false
  BASE="http://127.0.0.1:$PORT"
  local member page
  member=$(member_sign_in "$DATA/ortak.db")
  for page in "/startups?sector=fintech&sort=a-z" /overview /startups/bench-42 /favorites; do
    run "ortak $page, signed in, made afresh" "$BASE$page" "$member"
    case $page in
      /startups\?*) goal "nothing kept: $page, req/s" "$LAST_RPS" ge 4738 ;;
      /overview) goal "nothing kept: $page, req/s" "$LAST_RPS" ge 2376 ;;
    esac
  done
  stop_server
}

echo "== Ortak benchmarks on $(nproc) cores, $(date -u +%F), ${SECONDS_PER_RUN}s per run, wrk $CONNECTIONS connections"

# ---- 1,000 startups --------------------------------------------------------------------------
DATA="$WORK/small"
mkdir -p "$DATA"
ORTAK_DATA_DIR="$DATA" "$BIN" migrate --create >/dev/null
ORTAK_DATA_DIR="$DATA" "$BIN" create-admin --email bench@example.com --password bench-password-1 --super >/dev/null
seed "$DATA/ortak.db" 1000 1000 10000
if [ "${BENCH_ONLY:-}" = afresh ]; then made_afresh; exit 0; fi
# ---- Mixed load (issue 29): many members, their own pages, writes going on ------------------
# 200 members, each signed in with a session of their own, ask for a random mix of 17 member
# pages (the catalogue, two filtered catalogues, saved startups, the overview, twelve startup
# pages) while other members save and unsave startups through the site at 0, 2 and 20 writes a
# second; nginx serves the very same pages' bytes in the same random mix. Then 10,000 visitors'
# requests with distinct query strings; peak memory through all of it.
MIXED_PAGES=(/startups "/startups?sector=fintech&sort=a-z" "/startups?sector=energy&city=%C4%B0zmir&sort=a-z"
  /favorites /overview)
for n in 7 42 100 150 233 301 377 420 512 640 777 901; do MIXED_PAGES+=("/startups/bench-$n"); done
sqlite3 "$DATA/ortak.db" "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'bench@example.com') WHERE email LIKE 'bench-%@example.com'"
start_server "$DATA"
BASE="http://127.0.0.1:$PORT"
python3 scripts/bench/members.py sign-in "$BASE" 200 "$WORK/members.lua"
echo "peak memory (VmHWM) after 200 members signed in: $(( $(peak_kb) / 1024 )) MB"
mkdir -p "$WORK/nginx/www/mixed"
FIRST_COOKIE=$(awk -F'"' '/cookie = /{print $2; exit}' "$WORK/members.lua")
{
  echo "pages = {"
  for i in "${!MIXED_PAGES[@]}"; do
    curl -fsS -H "Cookie: $FIRST_COOKIE" -H "X-Forwarded-For: 10.9.0.2" "$BASE${MIXED_PAGES[$i]}" >"$WORK/nginx/www/mixed/$i.html"
    grep -q 'Ad1' "$WORK/nginx/www/mixed/$i.html" || { echo "${MIXED_PAGES[$i]}: not signed in" >&2; exit 1; }
    printf '  {ortak = "%s", static = "/mixed/%d"},\n' "${MIXED_PAGES[$i]}" "$i"
  done
  echo "}"
} >"$WORK/pages.lua"
cat "$WORK/members.lua" "$WORK/pages.lua" - "$WORK/report.lua" >"$WORK/mixed.lua" <<'LUA'
math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100003)
local target = os.getenv("MIXED_TARGET")
request = function()
  local page = pages[math.random(#pages)]
  if target == "nginx" then
    return wrk.format("GET", page.static)
  end
  local member = members[math.random(#members)]
  return wrk.format("GET", page.ortak, {["Cookie"] = member.cookie, ["X-Forwarded-For"] = member.ip})
end
LUA
start_nginx
mixed() { # label base target
  local line
  line=$(MIXED_TARGET=$3 wrk -t "$THREADS" -c "$CONNECTIONS" -d "${SECONDS_PER_RUN}s" -s "$WORK/mixed.lua" "$2" | grep '^RESULT')
  printf '%-44s %s\n' "$1" "${line#RESULT }"
  check_errors "$1" "$line"
  LAST_RPS=$(sed 's/.*rps=\([0-9]*\).*/\1/' <<<"$line")
  LAST_P99=$(sed 's/.*p99=\([0-9.]*\).*/\1/' <<<"$line")
}
echo
echo "-- mixed load: 200 members with their own sessions, 17 pages at random, writes going on (issue 29)"
for rate in 0 2 20; do
  mixed "nginx, the same pages' bytes at random" "http://127.0.0.1:$NGINX_PORT" nginx
  static_rps=$LAST_RPS
  python3 scripts/bench/members.py write "$BASE" "$WORK/members.lua" "$rate" "$SECONDS_PER_RUN" >"$WORK/writer.out" &
  WRITER=$!
  mixed "ortak, 200 members, $rate writes/s" "$BASE" ortak
  wait "$WRITER"
  echo "  writer: $(cat "$WORK/writer.out")"
  goal "mixed load at $rate writes/s, ratio to nginx" "$(python3 -c "print(f'{$LAST_RPS/$static_rps:.3f}')")" ge 0.3
  goal "mixed load at $rate writes/s, p99 ms" "$LAST_P99" le 15
done
kill "$NGINX_PID"; wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=""
echo "peak memory (VmHWM) after the mixed load: $(( $(peak_kb) / 1024 )) MB"
python3 - "$PORT" <<'PY'
import concurrent.futures, http.client, sys
port = int(sys.argv[1])
def send(start):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for i in range(start, start + 1250):
        conn.request("GET", f"/startups?sector=fintech&ref={i}")
        conn.getresponse().read()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    list(pool.map(send, range(0, 10000, 1250)))
PY
MIXED_PEAK_KB=$(peak_kb)
echo "peak memory (VmHWM) through the mixed load and 10,000 distinct query strings: $(( MIXED_PEAK_KB / 1024 )) MB"
goal "peak memory through the mixed load, MB" "$(( MIXED_PEAK_KB / 1024 ))" le 60
stop_server
[ "${BENCH_ONLY:-}" = mixed ] && exit 0

# Cold start: from exec to the first 200 of the home page, on an existing database. One start
# moves by a third with the machine's load, so the figure is the median of nine.
ORTAK_DATA_DIR="$DATA" RUST_LOG=warn timeout 10 "$BIN" serve >/dev/null 2>&1 &
WARM_PID=$!; sleep 2; kill "$WARM_PID"; wait "$WARM_PID" 2>/dev/null || true
COLD_STARTS=$(python3 - "$BIN" "$DATA" <<'PY'
import os, socket, statistics, subprocess, sys, time, urllib.request
def cold_start():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    env = dict(os.environ, ORTAK_ADDR=f"127.0.0.1:{port}", ORTAK_DATA_DIR=sys.argv[2], RUST_LOG="warn")
    started = time.monotonic()
    p = subprocess.Popen([sys.argv[1], "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).status == 200:
                break
        except OSError:
            time.sleep(0.001)
    elapsed = (time.monotonic() - started) * 1000
    p.terminate(); p.wait()
    return elapsed
runs = sorted(cold_start() for _ in range(9))
print(f"{statistics.median(runs):.1f} {runs[0]:.1f} {runs[-1]:.1f}")
PY
)
read -r COLD_START_MS COLD_START_MIN COLD_START_MAX <<<"$COLD_STARTS"
start_server "$DATA"
BASE="http://127.0.0.1:$PORT"
LIST="/startups?sector=fintech&sort=a-z"
curl -fsS "$BASE$LIST" >"$WORK/startups.html"
COOKIE=$(sign_in)
MEMBER=$(member_sign_in "$DATA/ortak.db")
# nginx serves each member page's very bytes as a static file, at the same path.
mkdir -p "$WORK/nginx/www/startups"
for page in "$LIST" /overview /startups/bench-42 /favorites; do
  file="$WORK/nginx/www/$(sed 's/[?&=]/_/g' <<<"${page#/}").html"
  curl -fsS -H "Cookie: $MEMBER" "$BASE$page" >"$file"
  grep -q 'bench-1@example.com\|Ad1' "$file" || { echo "$page: not signed in" >&2; exit 1; }
done

mkdir -p "$WORK/nginx/www"
cp "$WORK/startups.html" "$WORK/nginx/www/startups.html"
start_nginx

WRITES_BEFORE=$(writes_counted)
echo
echo "-- 1,000 startups: throughput and latency (ms)"
run "nginx, the same /startups HTML (static)" "http://127.0.0.1:$NGINX_PORT/startups"
NGINX_RPS=$LAST_RPS
run "ortak /startups (sector filter, A-Z)" "$BASE$LIST"
ORTAK_RPS=$LAST_RPS
run "ortak / (home)" "$BASE/"
run "ortak /startups/bench-42 (signed in)" "$BASE/startups/bench-42" "$COOKIE"
run "ortak /dashboard/startups.json (island JSON)" "$BASE/dashboard/startups.json" "$COOKIE"
JSON_RPS=$LAST_RPS; JSON_P99=$LAST_P99
echo "ratio ortak/nginx on /startups: $(python3 -c "print(f'{$ORTAK_RPS/$NGINX_RPS:.2f}')")"

echo
# One member repeating one page: no longer a goal (issue 29). It measured the per-member page
# cache, which real traffic (the mixed load above) did not use; the figures stay for comparison.
echo "-- one member repeating each of their pages, against nginx serving the same bytes"
for page in "$LIST" /overview /startups/bench-42 /favorites; do
  static="/$(sed 's/[?&=]/_/g' <<<"${page#/}")"
  run "nginx, $page's bytes" "http://127.0.0.1:$NGINX_PORT$static"
  static_rps=$LAST_RPS
  run "ortak $page, signed in" "$BASE$page" "$MEMBER"
  echo "  $page signed in, ratio to nginx: $(python3 -c "print(f'{$LAST_RPS/$static_rps:.2f}')")"
done
goal "staff JSON of 1,000 rows, req/s" "$JSON_RPS" ge 2500
goal "staff JSON of 1,000 rows, p99 ms" "$JSON_P99" le 50
goal "/startups visitors, ratio to nginx" "$(python3 -c "print(f'{$ORTAK_RPS/$NGINX_RPS:.2f}')")" ge 0.5
echo "cold start to the first 200, nine starts: median $COLD_START_MS ms (fastest $COLD_START_MIN, slowest $COLD_START_MAX)"
goal "cold start to the first 200 (median), ms" "$COLD_START_MS" le 21
kill "$NGINX_PID"; wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=""
echo "writes counted during the runs (background jobs and session expiry refreshes): $(( $(writes_counted) - WRITES_BEFORE ))"
SMALL_PEAK_KB=$(peak_kb)
echo "peak memory (VmHWM): $(( SMALL_PEAK_KB / 1024 )) MB"
goal "peak memory at 1,000 startups, MB" "$(( SMALL_PEAK_KB / 1024 ))" le 60
stop_server

made_afresh

# ---- Attacks on memory (issue 26) ------------------------------------------------------------
# Nobody may grow the server for good: 20,000 made-up HTTP methods (each used to become a
# metrics series kept for ever), 128 bodies of 1 MiB at once (refused before they are read in
# full), and 64 members signing in at once (password hashing is bounded by
# ORTAK_HASHING_MEMORY_MB and gives its memory back).
echo
echo "-- attacks on memory: made-up methods, large bodies, sign-ins at once"
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$SERVER_PID/status"; }
metrics_bytes() { curl -fsS "http://127.0.0.1:$PORT/metrics" | wc -c; }
sqlite3 "$DATA/ortak.db" "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'bench@example.com') WHERE email IN ($(seq -f "'bench-%g@example.com'" -s, 1 64))"
start_server "$DATA"
curl -fsS "http://127.0.0.1:$PORT/" >/dev/null
RSS_START=$(rss_kb); METRICS_START=$(metrics_bytes)
python3 - "$PORT" methods <<'PY'
import concurrent.futures, http.client, sys
port = int(sys.argv[1])
def send(start):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for i in range(start, start + 2500):
        try:
            conn.request(f"M{i:06d}", "/startups")
            conn.getresponse().read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    list(pool.map(send, range(0, 20000, 2500)))
PY
RSS_METHODS=$(rss_kb); PEAK_METHODS=$(peak_kb); METRICS_METHODS=$(metrics_bytes)
python3 - "$PORT" bodies <<'PY'
import concurrent.futures, http.client, sys
port = int(sys.argv[1])
body = b"email=" + b"a" * (1024 * 1024)
def send(_):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/signin", body, {"Content-Type": "application/x-www-form-urlencoded"})
        return conn.getresponse().status
    except (OSError, http.client.HTTPException):
        return "closed"
with concurrent.futures.ThreadPoolExecutor(128) as pool:
    print("   1 MiB bodies answered:", sorted(set(map(str, pool.map(send, range(128))))))
PY
RSS_BODIES=$(rss_kb); PEAK_BODIES=$(peak_kb)
python3 - "$PORT" signins <<'PY'
import concurrent.futures, http.cookiejar, re, sys, urllib.parse, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
def sign_in(i):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    html = opener.open(f"{base}/signin", timeout=30).read().decode()
    csrf = re.search(r'name="csrf" value="([^"]*)"', html).group(1)
    form = urllib.parse.urlencode({"csrf": csrf, "email": f"bench-{i}@example.com",
        "password": "bench-password-1", "terms": "1", "next": "/"}).encode()
    request = urllib.request.Request(f"{base}/signin", form, {"Origin": base})
    try:
        return opener.open(request, timeout=60).status
    except urllib.error.HTTPError as e:
        return e.code
with concurrent.futures.ThreadPoolExecutor(64) as pool:
    print("   sign-ins answered:", sorted(set(map(str, pool.map(sign_in, range(1, 65))))))
PY
sleep 1
RSS_END=$(rss_kb); PEAK_ATTACKS=$(peak_kb)
stop_server
printf '  resident memory: %d MB at start, %d MB after 20,000 made-up methods, %d MB after 128 x 1 MiB bodies, %d MB after 64 sign-ins; peak %d MB\n' \
  $((RSS_START / 1024)) $((RSS_METHODS / 1024)) $((RSS_BODIES / 1024)) $((RSS_END / 1024)) $((PEAK_ATTACKS / 1024))
printf '  peak so far: %d MB after the made-up methods, %d MB after the bodies, %d MB after the sign-ins\n' \
  $((PEAK_METHODS / 1024)) $((PEAK_BODIES / 1024)) $((PEAK_ATTACKS / 1024))
printf '  /metrics: %d bytes at start, %d after the made-up methods\n' "$METRICS_START" "$METRICS_METHODS"
goal "memory growth after 20,000 made-up methods (MB)" $(( (RSS_METHODS - RSS_START) / 1024 )) le 5
goal "/metrics growth after them (bytes)" $((METRICS_METHODS - METRICS_START)) le 4096
goal "resident memory after the bodies (MB)" $((RSS_BODIES / 1024)) le 60
goal "peak resident memory through the three attacks (MB)" $((PEAK_ATTACKS / 1024)) le 80
goal "resident memory once the sign-ins are done (MB)" $((RSS_END / 1024)) le 80
[ "${BENCH_ONLY:-}" = attacks ] && exit 0

# ---- 10,000 startups, 100,000 users, 1,000,000 favourites --------------------------------------
DATA="$WORK/large"
mkdir -p "$DATA"
ORTAK_DATA_DIR="$DATA" "$BIN" migrate --create >/dev/null
ORTAK_DATA_DIR="$DATA" "$BIN" create-admin --email bench@example.com --password bench-password-1 --super >/dev/null
echo
echo "-- seeding 10,000 startups, 100,000 users, 1,000,000 favourites"
seed "$DATA/ortak.db" 10000 100000 1000000
# Nothing kept in memory, so that each request runs its queries and renders.
start_server "$DATA" false
BASE="http://127.0.0.1:$PORT"
COOKIE=$(sign_in)
echo "-- large size: list and filter latency, signed in, nothing kept, one connection (ms)"
LIST_P95=0
for list in "/startups" "/startups?page=200" "/startups?sector=energy&city=%C4%B0zmir&sort=a-z"; do
  run "$list" "$BASE$list" "$COOKIE" 1
  LIST_P95=$(python3 -c "print(max($LIST_P95, $LAST_P95))")
done
run "/startups completion + goal range" "$BASE/startups?completion=50-75&goal=1m-3m" "$COOKIE" 1
LIST_P95=$(python3 -c "print(max($LIST_P95, $LAST_P95))")
LARGE_PEAK_KB=$(peak_kb)
stop_server
start_server "$DATA"
BASE="http://127.0.0.1:$PORT"
run "/startups signed in, 64 connections" "$BASE/startups" "$COOKIE" "$CONNECTIONS"
run "/startups visitors, 64 connections" "$BASE/startups" "" "$CONNECTIONS"
LARGE_PEAK_KB=$(python3 -c "print(max($LARGE_PEAK_KB, $(peak_kb)))")
echo "peak memory (VmHWM): $(( LARGE_PEAK_KB / 1024 )) MB"
goal "peak memory at 10,000 startups and 100,000 users, MB" "$(( LARGE_PEAK_KB / 1024 ))" le 60
goal "list p95 at the large size, ms" "$LIST_P95" le 10
stop_server
# Registered users live in SQLite, not in memory: 99,000 more of them (with 9,000 startups and
# 990,000 favourites) change the peak by this much (64 connections ran at both sizes).
echo "peak memory, 100,000 users against 1,000: $(( (LARGE_PEAK_KB - SMALL_PEAK_KB) / 1024 )) MB"

# ---- Database size per 1,000 investors ---------------------------------------------------------
# 10,000 investors as a year on Ortak leaves them (profile, MKK record, three funded requests
# with their history, ledger, card payment and escrow transfer, twelve mails with one body kept,
# audit rows, a live session, ten favourites), added to 1,000 startups; the file's growth.
DATA="$WORK/investors"
mkdir -p "$DATA"
ORTAK_DATA_DIR="$DATA" "$BIN" migrate --create >/dev/null
seed "$DATA/ortak.db" 1000 1 1
sqlite3 "$DATA/ortak.db" >/dev/null <<'SQL'
CREATE TABLE IF NOT EXISTS sessions (id text primary key not null, data blob not null, expiry_date integer not null);
SQL
sqlite3 "$DATA/ortak.db" "SELECT 'DROP TRIGGER ' || name || ';' FROM sqlite_master WHERE type = 'trigger'" \
  | sqlite3 "$DATA/ortak.db"
compact() { sqlite3 "$1" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null; stat -c %s "$1"; }
BEFORE=$(compact "$DATA/ortak.db")
sed 's/:N/10000/' scripts/bench/investors.sql | sqlite3 -bail "$DATA/ortak.db"
AFTER=$(compact "$DATA/ortak.db")
echo
echo "-- capacity: database size per 1,000 investors (a year of activity each)"
echo "database growth per 1,000 investors: $(( (AFTER - BEFORE) / 10 / 1024 )) KiB"
sqlite3 "$DATA/ortak.db" "SELECT name, SUM(pgsize) / 10 / 1024 FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6" \
  | sed 's/^/  KiB per 1,000 investors, /'
