#!/usr/bin/env bash
# Property-based tests of the JSON API from its OpenAPI document (openapi/ortak.yaml) with
# schemathesis: generated valid and invalid requests, as a visitor, an investor and an admin, must get
# documented answers (status codes, content types, bodies matching the schemas) and never a
# server error. Uses the debug binary (ORTAK_BIN to choose another) on a temporary data folder.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${ORTAK_BIN:-target/debug/ortak}"
ST=.venv/bin/schemathesis
[ -x "$ST" ] || { echo "api-fuzz: run scripts/install-test-deps.sh first" >&2; exit 1; }

WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

ORTAK_DATA_DIR="$WORK" "$BIN" create-admin --create --email fuzz-admin@example.com --password fuzz-password-1 >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
ORTAK_ADDR="127.0.0.1:$PORT" ORTAK_DATA_DIR="$WORK" ORTAK_DEMO=1 RUST_LOG=warn "$BIN" serve >"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

csrf_from() { grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"$//'; }

# An investor joins; the admin signs in. Each gets a cookie jar and its CSRF token.
JAR_I="$WORK/investor" JAR_A="$WORK/admin"
TOKEN_I=$(curl -fsS -c "$JAR_I" "$BASE/signup" | csrf_from)
curl -fsS -o /dev/null -b "$JAR_I" -c "$JAR_I" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN_I" --data-urlencode "email=fuzz-investor@example.com" \
  --data-urlencode "password=fuzz-password-2" --data-urlencode "password_confirm=fuzz-password-2" \
  --data-urlencode "first_name=Deniz" --data-urlencode "last_name=Yılmaz" \
  --data-urlencode "phone=05321112233" --data-urlencode "country=Türkiye" --data-urlencode "city=İzmir" \
  --data-urlencode "language=tr" --data-urlencode "investor_type=individual" --data-urlencode "terms=on" \
  "$BASE/signup"
# Joining signs nobody in: the investor signs in with the password.
curl -fsS -o /dev/null -b "$JAR_I" -c "$JAR_I" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN_I" --data-urlencode "email=fuzz-investor@example.com" \
  --data-urlencode "password=fuzz-password-2" --data-urlencode "next=/" "$BASE/signin"
TOKEN_A=$(curl -fsS -c "$JAR_A" "$BASE/signin" | csrf_from)
curl -fsS -o /dev/null -b "$JAR_A" -c "$JAR_A" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN_A" --data-urlencode "email=fuzz-admin@example.com" \
  --data-urlencode "password=fuzz-password-1" --data-urlencode "next=/" "$BASE/signin"
# Staff sign in with two factors: enrol an authenticator (the page shows its key), give a code.
SETUP=$(curl -fsS -b "$JAR_A" -c "$JAR_A" "$BASE/signin/2fa/setup")
SECRET=$(printf '%s' "$SETUP" | grep -o 'data-secret="[^"]*"' | sed 's/.*="//;s/"$//')
curl -fsS -o /dev/null -b "$JAR_A" -c "$JAR_A" -H "Origin: $BASE" \
  --data-urlencode "csrf=$TOKEN_A" --data-urlencode "code=$(python3 scripts/totp.py "$SECRET")" \
  "$BASE/signin/2fa/setup"

# A visitor: only the CSRF cookie a page gives.
JAR_V="$WORK/visitor"
TOKEN_V=$(curl -fsS -c "$JAR_V" "$BASE/newsletter" | csrf_from)

cookies() { awk '$6 ~ /ortak_/ {printf "%s%s=%s", sep, $6, $7; sep="; "}' "$1"; }

status=0
for who in visitor investor admin; do
  case $who in
    visitor) jar=$JAR_V; token=$TOKEN_V ;;
    investor) jar=$JAR_I; token=$TOKEN_I ;;
    *) jar=$JAR_A; token=$TOKEN_A ;;
  esac
  echo "== schemathesis as $who"
  "$ST" --config-file openapi/schemathesis.toml run openapi/ortak.yaml --url "$BASE" \
    --header "Cookie: $(cookies "$jar")" --header "X-CSRF-Token: $token" --header "Origin: $BASE" \
    --max-examples "${FUZZ_EXAMPLES:-60}" --seed 20261122 --no-color \
    || status=1
done
if grep -q "panicked" "$WORK/server.log"; then
  echo "api-fuzz: the server panicked" >&2; grep -A3 panicked "$WORK/server.log" >&2; status=1
fi
exit $status
