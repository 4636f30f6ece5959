#!/bin/bash
# The Docker action's entry point. bash, not sh: Debian's sh (dash) drops environment variables whose
# names are not shell identifiers, and every hyphenated input (INPUT_FAIL-ON, INPUT_GITHUB-TOKEN) is one.
# git refuses a repository owned by another user unless it is marked safe, and the runner mounts the
# workspace owned by its own user.
set -euo pipefail
git config --global --add safe.directory /github/workspace
if [[ -n ${GITHUB_WORKSPACE:-} && $GITHUB_WORKSPACE != /github/workspace ]]; then
  git config --global --add safe.directory "$GITHUB_WORKSPACE"
fi
# The container runs as root; what it writes into the runner's checkout (objects git fetches into .git, the
# JSON and SARIF reports) would be root's, and the runner's user could not clean or update them afterwards
# (a self-hosted runner's next checkout fails). Hand them back to the workspace's owner.
workspace=${GITHUB_WORKSPACE:-/github/workspace}
owner=$(stat -c %u:%g "$workspace" 2>/dev/null || true)
status=0
tooldiff github "$@" || status=$?
if [[ $(id -u) == 0 && -n $owner && $owner != 0:0 ]]; then
  find "$workspace" -xdev -user 0 -exec chown -h "$owner" {} + 2>/dev/null || true
fi
exit "$status"
