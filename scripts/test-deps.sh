#!/usr/bin/env bash
# What the test suite needs from the system, as Debian packages: Chromium for the browser
# tests, PostgreSQL's server binaries for the second backend, DejaVu fonts for the printed
# sheets. Run as root, it installs the missing ones with apt-get; otherwise it stops at
# once and prints the one command to run. Used by `make test` before anything else.
#
# LAZARETTO_PRETEND_MISSING="chromium postgresql fonts-dejavu-core" treats those as
# missing, to try this script on a machine that has them; LAZARETTO_APT=echo (or any
# other command) replaces apt-get.
set -euo pipefail
pretend=" ${LAZARETTO_PRETEND_MISSING:-} "
apt=${LAZARETTO_APT:-apt-get}

has() {  # has PACKAGE TEST...: the package is there unless pretended missing
  local package=$1
  shift
  case "$pretend" in *" $package "*) return 1 ;; esac
  "$@" >/dev/null 2>&1
}
pg_binaries() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }

need=()
has chromium test -x /usr/bin/chromium || need+=(chromium)
has postgresql pg_binaries || need+=(postgresql)
has fonts-dejavu-core test -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ||
  need+=(fonts-dejavu-core)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "make test needs Debian packages that are not installed: ${need[*]}. Run:" >&2
  echo "  sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends ${need[*]}'" >&2
  exit 1
fi
echo "make test: installing ${need[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
"$apt" update -q
"$apt" install -y -q --no-install-recommends "${need[@]}"
