#!/usr/bin/env bash
# A black-box security scan with wapiti3 (PyPI), signed in as an investor and as an admin,
# with the modules auditors ask for. Exits non-zero when wapiti reports anything, when the
# crawl found too few pages, or when the scan's session did not survive it.
#
# Ortak runs as in production: behind a TLS-terminating nginx (a throw-away self-signed
# certificate) with an https:// public URL, so cookies are Secure and __Host- prefixed and
# HSTS is sent.
#
#   ./scripts/wapiti.sh            # debug binary; crawl 5 min, each module's attacks 1 min
#   WAPITI_MAX_SCAN_SECONDS=1800 WAPITI_MAX_ATTACK_SECONDS=600 ./scripts/wapiti.sh
#
# Installs wapiti3 into .venv-wapiti (kept apart from the test tools) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${ORTAK_BIN:-target/debug/ortak}"
MODULES=sql,exec,xss,file,redirect,http_headers,csp,cookieflags,csrf,crlf,permanentxss,upload,methods
MAX_SCAN="${WAPITI_MAX_SCAN_SECONDS:-300}"
# Each module's attacks stop after this long (wapiti's crawl and attack limits are separate).
MAX_ATTACK="${WAPITI_MAX_ATTACK_SECONDS:-60}"

if [ ! -x .venv-wapiti/bin/wapiti ]; then
  python3 -m venv .venv-wapiti
  .venv-wapiti/bin/pip install --quiet --disable-pip-version-check wapiti3==3.2.3
fi
[ -x "$BIN" ] || cargo build -p ortak --locked
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y nginx
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d)
PID=""
NGINX_PID=""
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ORTAK_DATA_DIR="$WORK/data" "$BIN" create-admin --create --email scan-admin@example.com --password scan-password-1 >/dev/null
PORT=$(free_port)
TLS_PORT=$(free_port)
BASE="https://127.0.0.1:$TLS_PORT"
ORTAK_ADDR="127.0.0.1:$PORT" ORTAK_PUBLIC_URL="$BASE" ORTAK_DATA_DIR="$WORK/data" ORTAK_DEMO=1 RUST_LOG=warn \
  "$BIN" serve >"$WORK/server.log" 2>&1 &
PID=$!

mkdir -p "$WORK/nginx/logs"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
  -keyout "$WORK/nginx/key.pem" -out "$WORK/nginx/cert.pem" 2>/dev/null
cat >"$WORK/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_max_body_size 8m;
  server {
    listen 127.0.0.1:$TLS_PORT ssl;
    ssl_certificate $WORK/nginx/cert.pem;
    ssl_certificate_key $WORK/nginx/key.pem;
    location / {
      proxy_pass http://127.0.0.1:$PORT;
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-Proto https;
    }
  }
}
NGINX
"$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 1 100); do curl -kfsS "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -kfsS "$BASE/healthz" >/dev/null || { echo "Ortak behind nginx did not start" >&2; cat "$WORK/server.log" "$WORK/nginx/logs/error.log" >&2; exit 1; }

csrf_from() { grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"$//'; }
cookies() { awk '$6 ~ /ortak_/ {printf "%s%s=%s", sep, $6, $7; sep="; "}' "$1"; }
# Staff sign in with two factors: enrol an authenticator (the page shows its key), give its code.
second_factor() { # cookie jar, base URL, CSRF token
  local setup secret
  setup=$(curl -kfsS -b "$1" -c "$1" "$2/signin/2fa/setup")
  secret=$(printf '%s' "$setup" | grep -o 'data-secret="[^"]*"' | sed 's/.*="//;s/"$//')
  curl -kfsS -o /dev/null -b "$1" -c "$1" -H "Origin: $2" --data-urlencode "csrf=$3" \
    --data-urlencode "code=$(python3 scripts/totp.py "$secret")" "$2/signin/2fa/setup"
}

JAR_I="$WORK/investor" JAR_A="$WORK/admin"
TOKEN=$(curl -kfsS -c "$JAR_I" "$BASE/signup" | csrf_from)
curl -kfsS -o /dev/null -b "$JAR_I" -c "$JAR_I" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN" --data-urlencode "email=scan-investor@example.com" \
  --data-urlencode "password=scan-password-2" --data-urlencode "password_confirm=scan-password-2" \
  --data-urlencode "first_name=Deniz" --data-urlencode "last_name=Yılmaz" \
  --data-urlencode "phone=05321112233" --data-urlencode "country=Türkiye" --data-urlencode "city=İzmir" \
  --data-urlencode "language=tr" --data-urlencode "investor_type=individual" --data-urlencode "terms=on" \
  "$BASE/signup"
# Joining signs nobody in: the investor signs in with the password.
curl -kfsS -o /dev/null -b "$JAR_I" -c "$JAR_I" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN" --data-urlencode "email=scan-investor@example.com" \
  --data-urlencode "password=scan-password-2" --data-urlencode "next=/" "$BASE/signin"
TOKEN=$(curl -kfsS -c "$JAR_A" "$BASE/signin" | csrf_from)
curl -kfsS -o /dev/null -b "$JAR_A" -c "$JAR_A" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN" --data-urlencode "email=scan-admin@example.com" \
  --data-urlencode "password=scan-password-1" --data-urlencode "next=/" "$BASE/signin"
second_factor "$JAR_A" "$BASE" "$TOKEN"

status=0
for who in investor admin; do
  jar=$JAR_I; [ "$who" = admin ] && jar=$JAR_A
  report="$WORK/$who.json"
  echo "== wapiti as $who"
  # Logging out would end the scan's session; deleting the account would too.
  .venv-wapiti/bin/wapiti -u "$BASE/" --scope folder -m "$MODULES" \
    -C "$(cookies "$jar")" -x "$BASE/logout" -x "$BASE/profile/delete" \
    --max-scan-time "$MAX_SCAN" --max-attack-time "$MAX_ATTACK" --flush-session -f json -o "$report" --no-bugreport >"$WORK/$who.log" 2>&1 || true
  grep -E "^\[\*\] Launching module" "$WORK/$who.log" | sed 's/^/  /' || true
  crawled=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('infos', {}).get('crawled_pages_nbr', 0))" "$report" 2>/dev/null || echo 0)
  echo "  crawled pages: $crawled"
  if [ "$crawled" -lt 100 ]; then
    echo "  the crawl reached too few pages: the scan proves nothing" >&2
    status=1
  fi
  # The scan ran signed in all along: the session still answers afterwards.
  if ! curl -kfsS -o /dev/null -H "Cookie: $(cookies "$jar")" "$BASE/api/getProfile"; then
    echo "  the scan's session ended during the scan" >&2
    status=1
  fi
  found=$(python3 -c "
import json, sys
data = json.load(open(sys.argv[1]))
items = [(k, v) for k, vs in data.get('vulnerabilities', {}).items() for v in vs]
items += [(k, v) for k, vs in data.get('anomalies', {}).items() for v in vs]
for kind, v in items:
    print(f\"{kind}: {v.get('method')} {v.get('path')} {v.get('info')}\")
" "$report")
  if [ -n "$found" ]; then
    echo "$found"
    status=1
  else
    echo "nothing reported"
  fi
done
exit $status
