#!/usr/bin/env bash
# The end-to-end server: a brand-new embedded database with the demo company, on its own port.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATA_DIR="${E2E_DATA_DIR:+$E2E_DATA_DIR-${E2E_PORT:-4173}}"
made=""
if [ -z "$DATA_DIR" ]; then
  DATA_DIR="$(mktemp -d /tmp/siteboard-e2e-XXXXXX)"
  made="$DATA_DIR"
fi
export PORT="${E2E_PORT:-4173}" LOG_LEVEL=warn JWT_SECRET="e2e-secret-that-is-long-enough-for-hs256-signing"
npm run --silent seed:demo >/dev/null
# Playwright ends the run with SIGTERM to this process group (playwright.config.ts, gracefulShutdown):
# the server closes its database, and a data directory made here goes with it (41 MB a run), once
# the process that holds it (its lock file names it) has ended: npm may end before the server does.
npm run --silent start -w @siteboard/server &
server=$!
cleanup() {
  local owner
  owner="$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$DATA_DIR/siteboard.lock" 2>/dev/null || true)"
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" || true
  while [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null; do sleep 0.1; done
  if [ -n "$made" ]; then rm -rf "$made"; fi
}
trap 'cleanup; exit 0' TERM INT
status=0
wait "$server" || status=$?
cleanup
exit "$status"
