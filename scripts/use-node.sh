#!/usr/bin/env bash
# Puts Node NODE_MAJOR, the major that the project's Electron bundles, first on PATH, so that
# npm (whose `#!/usr/bin/env node` then finds it), the native modules it installs and the tests
# all run on the Node the desktop app runs on. Where the machine's `node` is that major or later, it
# does nothing.
#
#   source scripts/use-node.sh          # this shell, then `npm install`, `npm test`, `npm start`
#   scripts/use-node.sh npm test        # one command
#
# An older machine Node gets the official build from the npm registry (the node-linux-<arch>
# package: a binary and its headers), kept in .tools/node/ (git-ignored) and fetched once.
# better-sqlite3 and sharp bring Node-API builds that load in it as they are; should a native
# module ever be compiled, npm_config_nodedir points node-gyp at that Node's own headers instead
# of a system Node's (npm's nodedir may name an older one), and needs no download.
# package.json's engines and src-main/node-version.mjs say the same major (a test checks).
NODE_MAJOR=24

use_node_main() {
  local root current os arch dir installed
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  [ "$current" -ge "$NODE_MAJOR" ] && return 0

  os="$(uname -s)"
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch="$(uname -m)" ;;
  esac
  if [ "$os" != Linux ] || { [ "$arch" != x64 ] && [ "$arch" != arm64 ]; }; then
    echo "use-node: Node $NODE_MAJOR is fetched here only for Linux on x64 or arm64; install Node $NODE_MAJOR from nodejs.org" >&2
    return 1
  fi

  dir="$root/.tools/node/node_modules/node-linux-$arch"
  installed="$("$dir/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$installed" != "$NODE_MAJOR" ]; then
    echo "use-node: fetching Node $NODE_MAJOR into .tools/node (the machine's node is ${current:-absent})" >&2
    mkdir -p "$root/.tools/node"
    # The folder has no package.json: nothing is saved, no lock file is written.
    npm install --prefix "$root/.tools/node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-$arch@$NODE_MAJOR" >&2 || return 1
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: change this shell's PATH, and leave nothing else behind.
  if use_node_main; then status=0; else status=1; fi
  unset -f use_node_main
  unset NODE_MAJOR
  return "$status"
else
  use_node_main || exit 1
  [ $# -gt 0 ] || { echo "usage: source scripts/use-node.sh, or scripts/use-node.sh <command> [args]" >&2; exit 2; }
  exec "$@"
fi
