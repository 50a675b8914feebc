#!/usr/bin/env bash
# Installs the system tools the test suite needs (package.json "test" runs this before `bun test`).
# Each TOOLS entry is "<command> <Debian package>"; a missing command is installed with apt-get
# (as root, or through sudo when it is available; nothing else is upgraded). When it cannot be
# installed here, prints exactly what to run and exits 1.
set -euo pipefail

TOOLS=(
  "chromium chromium" # browser tests (test/support/browser.ts; CHROMIUM_PATH overrides the binary)
  "initdb postgresql" # PostgreSQL tests (test/support/pg.ts starts a throwaway cluster; any major version)
  "haproxy haproxy"   # multi-instance tests (test/multi: three instances behind the docs/deploy.md configuration)
  "prometheus prometheus" # metrics test (test/ops/prometheus.test.ts scrapes a running Cofre and queries its HTTP API)
)

have() {
  local cmd=$1
  if [[ $cmd == chromium && -n ${CHROMIUM_PATH:-} ]]; then [[ -x $CHROMIUM_PATH ]]; return; fi
  # Debian installs it in /usr/sbin, which a non-root PATH may not hold.
  if [[ $cmd == haproxy ]]; then [[ -x /usr/sbin/haproxy ]] || command -v haproxy >/dev/null 2>&1; return; fi
  if [[ $cmd == prometheus ]]; then [[ -x /usr/bin/prometheus ]] || command -v prometheus >/dev/null 2>&1; return; fi
  # Debian keeps the server binaries off PATH, one folder per major version.
  if [[ $cmd == initdb ]]; then compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; return; fi
  command -v "$cmd" >/dev/null 2>&1
}

missing=()
for entry in "${TOOLS[@]}"; do
  read -r cmd pkg <<<"$entry"
  have "$cmd" || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

install="apt-get update && apt-get install -y --no-upgrade ${missing[*]}"
echo "test-tools: missing Debian package(s): ${missing[*]}" >&2

if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-tools: no apt-get on this machine; install ${missing[*]} with your package manager (or set CHROMIUM_PATH to a Chromium binary), then run: bun run test" >&2
  exit 1
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "test-tools: not root and no password-less sudo. Run this, then bun run test:" >&2
  echo "  sudo sh -c 'DEBIAN_FRONTEND=noninteractive $install'" >&2
  exit 1
fi

echo "test-tools: running: $install" >&2
if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive sh -c "$install" >&2; then
  echo "test-tools: the install failed. Run this yourself, then bun run test:" >&2
  echo "  sudo sh -c 'DEBIAN_FRONTEND=noninteractive $install'" >&2
  exit 1
fi
for entry in "${TOOLS[@]}"; do
  read -r cmd pkg <<<"$entry"
  have "$cmd" || { echo "test-tools: $cmd is still missing after installing $pkg" >&2; exit 1; }
done
