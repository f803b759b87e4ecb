#!/usr/bin/env bash
# The end-to-end server: a brand-new embedded database with the demo company, on its own port.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATA_DIR="${E2E_DATA_DIR:+$E2E_DATA_DIR-${E2E_PORT:-4173}}"
DATA_DIR="${DATA_DIR:-$(mktemp -d /tmp/siteboard-e2e-XXXXXX)}"
export PORT="${E2E_PORT:-4173}" LOG_LEVEL=warn JWT_SECRET="e2e-secret-that-is-long-enough-for-hs256-signing"
npm run --silent seed:demo >/dev/null
exec npm run --silent start -w @siteboard/server
