#!/usr/bin/env bash
# Lighthouse (mobile) on the public pages and a signed-in startup page, with Debian's Chromium.
# Prints the four category scores per page and exits non-zero when one is under 100
# (LIGHTHOUSE_MIN to accept less).
#
#   ./scripts/lighthouse.sh            # release binary (built when missing)
#
# Lighthouse is installed into .lighthouse/ (npm) on first use, apart from the test tools.
set -euo pipefail
cd "$(dirname "$0")/.."

MIN="${LIGHTHOUSE_MIN:-100}"
BIN="${ORTAK_BIN:-target/release/ortak}"
[ -x "$BIN" ] || cargo build --release -p ortak --locked
[ -x /usr/bin/chromium ] || ./scripts/install-test-deps.sh
if [ ! -x .lighthouse/node_modules/.bin/lighthouse ]; then
  npm install --prefix .lighthouse --no-audit --no-fund --silent lighthouse@13.5.0
fi
LH=.lighthouse/node_modules/.bin/lighthouse

WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

ORTAK_DATA_DIR="$WORK/data" "$BIN" create-admin --create --email lh@example.com --password lighthouse-1 >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
ORTAK_ADDR="127.0.0.1:$PORT" ORTAK_DATA_DIR="$WORK/data" ORTAK_DEMO=1 RUST_LOG=warn "$BIN" serve >"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# Staff sign in with two factors: enrol an authenticator (the page shows its key), give its code.
second_factor() { # cookie jar, base URL, CSRF token
  local setup secret
  setup=$(curl -kfsS -b "$1" -c "$1" "$2/signin/2fa/setup")
  secret=$(printf '%s' "$setup" | grep -o 'data-secret="[^"]*"' | sed 's/.*="//;s/"$//')
  curl -kfsS -o /dev/null -b "$1" -c "$1" -H "Origin: $2" --data-urlencode "csrf=$3" \
    --data-urlencode "code=$(python3 scripts/totp.py "$secret")" "$2/signin/2fa/setup"
}
JAR="$WORK/jar"
TOKEN=$(curl -fsS -c "$JAR" "$BASE/signin" | grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"$//')
curl -fsS -o /dev/null -b "$JAR" -c "$JAR" -H "Origin: $BASE" --data-urlencode "csrf=$TOKEN" \
  --data-urlencode "email=lh@example.com" --data-urlencode "password=lighthouse-1" --data-urlencode "next=/" "$BASE/signin"
second_factor "$JAR" "$BASE" "$TOKEN"
COOKIE=$(awk '$6 ~ /ortak_/ {printf "%s%s=%s", sep, $6, $7; sep="; "}' "$JAR")
POST=$(curl -fsS "$BASE/blog" | grep -o 'href="/blog/[^"]*"' | head -1 | sed 's/href="//;s/"$//')

status=0
audit() { # label path [cookie]
  local label=$1 path=$2 cookie=${3:-}
  local headers='{}'
  [ -n "$cookie" ] && headers=$(python3 -c 'import json,sys; print(json.dumps({"Cookie": sys.argv[1]}))' "$cookie")
  CHROME_PATH=/usr/bin/chromium "$LH" "$BASE$path" --quiet --output=json --output-path="$WORK/report.json" \
    --form-factor=mobile --only-categories=performance,accessibility,best-practices,seo \
    --extra-headers="$headers" \
    --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync" \
    >"$WORK/lighthouse.log" 2>&1 || { echo "$label: lighthouse failed"; tail -5 "$WORK/lighthouse.log"; status=1; return; }
  python3 - "$WORK/report.json" "$label" "$MIN" <<'PY' || status=1
import json, sys
report, label, minimum = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
scores = {k: round((v["score"] or 0) * 100) for k, v in report["categories"].items()}
print(f"{label:<28}" + "  ".join(f"{k} {v}" for k, v in scores.items()))
low = [k for k, v in scores.items() if v < minimum]
for category in low:
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
            print(f"    {category}: {audit['id']} ({audit['title']})")
sys.exit(1 if low else 0)
PY
}

audit "home" "/"
audit "/startups" "/startups"
audit "blog post" "$POST"
audit "policy page" "/politikalar/genel-risk-bildirimi"
audit "startup page (signed in)" "/startups/cemre-enerji" "$COOKIE"
exit $status
