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
exec tooldiff github "$@"
