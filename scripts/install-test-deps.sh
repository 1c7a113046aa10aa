#!/usr/bin/env bash
# Installs what the browser end-to-end tests need, and only what is missing (safe to re-run):
#   - Debian's Chromium at /usr/bin/chromium (playwright-core drives it; we never download a
#     browser with `playwright install`)
#   - node_modules from package-lock.json (npm ci), when missing or older than the lock file
#   - promtool (Debian's prometheus package), for the alert rules' unit tests
set -euo pipefail

cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "install-test-deps: need root (or sudo) to run: $*" >&2
    exit 1
  fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "install-test-deps: installing chromium from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

# promtool, for the alert rules' unit tests (deploy/prometheus/ortak-alerts.test.yml).
if ! command -v promtool >/dev/null 2>&1; then
  echo "install-test-deps: installing prometheus (promtool) from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus
fi

if [ ! -f node_modules/.package-lock.json ] || [ node_modules/.package-lock.json -ot package-lock.json ]; then
  echo "install-test-deps: npm ci"
  npm ci --no-audit --no-fund
fi

# Python tools (schemathesis) in the repository's own virtual environment.
if ! .venv/bin/python -c 'import schemathesis' >/dev/null 2>&1 || [ .venv/.installed -ot scripts/requirements-test.txt ]; then
  echo "install-test-deps: python tools into .venv"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
  fi
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt
  touch .venv/.installed
fi
