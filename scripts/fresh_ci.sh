#!/usr/bin/env bash
# The check to run before submitting work: CI as it runs after a session, `.ci/run` with CI=true
# in a fresh clone of HEAD. Only committed work is checked: uncommitted and untracked changes
# are not in the clone (it says so when there are any).
#
# Prints the wall time, the clone's disk use when checked out, at its peak (sampled every few
# seconds) and what is left in it after .ci/run exits; then removes the clone whatever the
# outcome, and exits with .ci/run's status.
#
#   scripts/fresh_ci.sh                      # clone under $TMPDIR (or /tmp)
#   FRESH_CI_PARENT=/somewhere scripts/fresh_ci.sh
set -uo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || exit 2
commit=$(git -C "$repo" rev-parse HEAD) || exit 2
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=normal)" ]; then
  echo "fresh_ci: $repo has uncommitted changes; they are NOT checked, only HEAD ${commit:0:12} is" >&2
fi

parent=${FRESH_CI_PARENT:-${TMPDIR:-/tmp}}
base=$(mktemp -d "$parent/toolnexus-fresh-ci.XXXXXX") || exit 2
clone=$base/main
sampler=
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null
  rm -rf -- "$base"
}
trap 'status=$?; trap - EXIT INT TERM; cleanup; exit $status' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bytes() { du -sxb "$1" 2>/dev/null | cut -f1; }
human() { numfmt --to=iec --suffix=B "${1:-0}"; }

git clone --quiet "$repo" "$clone" && git -C "$clone" checkout --quiet --detach "$commit" || exit 2
# CI finds a read-only copy of shared/ beside its clone; the same place here.
[ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$base/shared"
checked_out=$(bytes "$clone")
free_before=$(df -B1 --output=avail / | tail -1)

# The clone's peak disk use, sampled while .ci/run works.
echo "$checked_out" >"$base/peak"
(
  while sleep 5; do
    now=$(bytes "$clone")
    [ "${now:-0}" -gt "$(cat "$base/peak")" ] && echo "$now" >"$base/peak"
  done
) &
sampler=$!

echo "fresh_ci: .ci/run with CI=true in $clone (HEAD ${commit:0:12})"
start=$SECONDS
(cd "$clone" && CI=true bash .ci/run </dev/null)
status=$?
wall=$((SECONDS - start))

kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
sampler=
after=$(bytes "$clone")
peak=$(cat "$base/peak")
[ "${after:-0}" -gt "$peak" ] && peak=$after
free_after=$(df -B1 --output=avail / | tail -1)

echo "fresh_ci: .ci/run exited $status after ${wall}s"
echo "fresh_ci: clone disk: checked out $(human "$checked_out"), peak $(human "$peak"), left after .ci/run $(human "$after") ($(human $((after - checked_out))) more than checked out)"
echo "fresh_ci: left in the clone beyond what git checked out:"
git -C "$clone" status --porcelain --ignored --untracked-files=all | sed -n '1,20s/^/  /p'
used=$((free_before - free_after))
if [ "$used" -ge 0 ]; then change="$(human "$used") less"; else change="$(human $((-used))) more"; fi
echo "fresh_ci: the machine has $change free disk than before (outside the clone: cargo's registry, pip's and npm's caches)"
exit $status
