#!/usr/bin/env bash
# Rolling restart of Verdant nodes behind HAProxy (issue 32; docs/operators/deployment.md, "Rolling
# restart"). One server at a time:
#   1. `set server BACKEND/SERVER state drain` on HAProxy's runtime API (no new requests go to it);
#   2. wait until HAProxy shows no current session on it (at most --wait-sessions seconds; a console's
#      live stream keeps its session open: it is ended cleanly by the node's shutdown and reconnects);
#   3. run the restart command (SIGTERM, wait for the exit, start the new version: e.g.
#      `systemctl restart verdant@{server}`, with TimeoutStopSec ≥ SHUTDOWN_DRAIN_MS + SHUTDOWN_GRACE_MS);
#   4. wait until HAProxy's health check sees it up again (status DRAIN while it is still drained; at
#      most --wait-up seconds);
#   5. `set server BACKEND/SERVER state ready`, wait for UP; then the next server.
# Any step that fails stops the script (exit 1) with that server left drained and the others untouched.
#
#   scripts/rolling-restart.sh --socket /run/haproxy/admin.sock --backend pool_a \
#     --restart 'systemctl restart verdant@{server}' n1 n2
#
# Needs socat and an admin-level runtime API socket (`stats socket /run/haproxy/admin.sock mode 600
# level admin` in HAProxy's global section).
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/rolling-restart.sh --socket PATH --backend NAME --restart 'COMMAND {server}' [--wait-sessions S] [--wait-up S] SERVER...
  --socket PATH       HAProxy's runtime API socket (level admin)
  --backend NAME      the backend (pool) the servers are in
  --restart COMMAND   restarts one node and returns once it was stopped and started again;
                      {server} is replaced by the server's name
  --wait-sessions S   how long to wait for the drained server's sessions to end (default 30;
                      an open console stream keeps one: SIGTERM ends it cleanly)
  --wait-up S         how long to wait for the restarted server's health check (default 120)
  SERVER...           the servers' names in the backend, restarted in this order
EOF
}

SOCKET='' BACKEND='' RESTART='' WAIT_SESSIONS=30 WAIT_UP=120
SERVERS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --socket) SOCKET="$2"; shift 2 ;;
    --backend) BACKEND="$2"; shift 2 ;;
    --restart) RESTART="$2"; shift 2 ;;
    --wait-sessions) WAIT_SESSIONS="$2"; shift 2 ;;
    --wait-up) WAIT_UP="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) SERVERS+=("$1"); shift ;;
  esac
done
if [[ -z "$SOCKET" || -z "$BACKEND" || -z "$RESTART" || ${#SERVERS[@]} -eq 0 ]]; then
  usage >&2
  exit 2
fi
command -v socat >/dev/null || { echo "socat is missing (apt-get install socat)" >&2; exit 2; }

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*"; }
api() { echo "$1" | socat stdio "unix-connect:$SOCKET"; }

# One field of the server's `show stat` line (scur, status, …), read by the CSV header's names.
stat_field() {
  local server="$1" field="$2"
  api 'show stat' | awk -F, -v b="$BACKEND" -v s="$server" -v f="$field" '
    NR == 1 { sub(/^# /, ""); for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == b && $2 == s { print $col[f]; exit }'
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.5 s until it succeeds.
wait_for() {
  local seconds="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      log "$what: not within ${seconds} s"
      return 1
    fi
    sleep 0.5
  done
}

no_sessions() { [[ "$(stat_field "$1" scur)" == "0" ]]; }
status_is() { [[ "$(stat_field "$1" status)" == "$2" ]]; }

for server in "${SERVERS[@]}"; do
  [[ -n "$(stat_field "$server" status)" ]] || { log "HAProxy has no server $BACKEND/$server"; exit 1; }
  if [[ "$(stat_field "$server" status)" != "UP" ]]; then
    log "$BACKEND/$server is $(stat_field "$server" status), not UP: not restarting the pool while a server is out"
    exit 1
  fi
done

for server in "${SERVERS[@]}"; do
  log "$BACKEND/$server: drain"
  answer="$(api "set server $BACKEND/$server state drain")"
  [[ -z "${answer//[[:space:]]/}" ]] || { log "HAProxy refused: $answer"; exit 1; }
  if wait_for "$WAIT_SESSIONS" "$BACKEND/$server: sessions ending" no_sessions "$server"; then
    log "$BACKEND/$server: no current session"
  else
    log "$BACKEND/$server: $(stat_field "$server" scur) session(s) still open (live streams?); the node's shutdown ends them"
  fi
  log "$BACKEND/$server: restart: ${RESTART//\{server\}/$server}"
  if ! bash -c "${RESTART//\{server\}/$server}"; then
    log "$BACKEND/$server: the restart command failed; the server stays drained"
    exit 1
  fi
  wait_for "$WAIT_UP" "$BACKEND/$server: health check passing" status_is "$server" DRAIN || {
    log "$BACKEND/$server: still $(stat_field "$server" status); the server stays drained"
    exit 1
  }
  api "set server $BACKEND/$server state ready" >/dev/null
  wait_for 10 "$BACKEND/$server: UP" status_is "$server" UP || exit 1
  log "$BACKEND/$server: UP"
done
log "rolling restart done: ${SERVERS[*]}"
