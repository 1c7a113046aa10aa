#!/usr/bin/env bash
# Runs every test of Ortak: formatting, lints, Rust unit and integration tests, the islands'
# type check, and the browser end-to-end tests in Debian's Chromium. Installs what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it began, counted from the start: where a run's time went.
step() { printf '\n==> [%d m %02d s] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

step "Installing test dependencies (Chromium, node_modules) when missing"
./scripts/install-test-deps.sh

step "The code's shape (import cycles, file and function sizes, where SQL lives)"
python3 scripts/architecture.py

step "cargo fmt --check"
cargo fmt --all -- --check

step "Build every target, clippy's lints as errors (cargo clippy --all-targets -- -D warnings)"
# Clippy runs as the workspace's compiler (what `cargo clippy` does, but in a build rather than
# a check), so the dependencies are compiled once, not once to be checked and again to be
# built; the exported settings keep every later cargo command on these very artifacts.
RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# Leptos erases each component's view type (its documented `erase_components`, for debug
# builds): the pages crate compiles in 11 s instead of 63, the same pages render. Not for
# release builds: boxing every component costs the catalogue about a fifth of its requests.
RUSTFLAGS="--cfg erase_components"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS RUSTFLAGS
cargo build --workspace --all-targets --locked

step "TypeScript type check of the islands"
npm run --silent typecheck

step "Alert rules: promtool's unit tests (deploy/prometheus/ortak-alerts.test.yml)"
promtool check rules deploy/prometheus/ortak-alerts.yml
promtool test rules deploy/prometheus/ortak-alerts.test.yml

step "iyzico contract: the official Python client against the stand-in and the signature vectors"
.venv/bin/python scripts/iyzico_contract.py

step "Rust unit and integration tests"
# Three at a time: the integration tests wait on the servers they start about a third of the
# time (2 m 11 s with three threads against 2 m 43 s with the default two, on 2 cores).
cargo test --workspace --locked -- --test-threads=3

step "Browser end-to-end tests"
# ORTAK_LAYOUT_SHOTS=folder: a screenshot of every audited page at 390 and 1440 px, to look at.
ORTAK_BIN=target/debug/ortak npm run --silent e2e
if [[ -n "${ORTAK_LAYOUT_SHOTS:-}" ]]; then
  echo "Screenshots of every audited page at 390 and 1440 px: $ORTAK_LAYOUT_SHOTS"
fi

step "Disaster recovery: Litestream replica, SIGKILL, restore"
ORTAK_BIN=target/debug/ortak ./scripts/dr-test.sh

step "JSON API against its OpenAPI document (schemathesis)"
ORTAK_BIN=target/debug/ortak ./scripts/api-fuzz.sh

step "All tests passed"
