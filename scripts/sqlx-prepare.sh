#!/usr/bin/env bash
# Regenerates sqlx's offline query data (server/.sqlx) against a database built from the
# migrations, so every `query!`/`query_as!` is checked at compile time without a database.
# Run it after adding or changing a query; commit server/.sqlx with the change.
set -euo pipefail
cd "$(dirname "$0")/.."

schema="$(mktemp -d)"
trap 'rm -rf "$schema"' EXIT
python3 - "$schema/schema.db" server/migrations/*.sql <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for migration in sys.argv[2:]:
    db.executescript(open(migration, encoding="utf-8").read())
db.commit()
PY

rm -rf server/.sqlx
mkdir server/.sqlx
# The macros only run when the crate compiles again.
touch server/src/main.rs
SQLX_OFFLINE=false DATABASE_URL="sqlite://$schema/schema.db" SQLX_OFFLINE_DIR="$PWD/server/.sqlx" \
  cargo check --workspace --all-targets --locked
echo "sqlx-prepare: $(ls server/.sqlx | wc -l) queries in server/.sqlx"
