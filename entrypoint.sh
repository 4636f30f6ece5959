#!/bin/sh
# The Docker action's entry point. git refuses to read a repository owned by another user unless it is
# marked safe, and the runner mounts the workspace owned by the runner's user.
set -eu
git config --global --add safe.directory /github/workspace
git config --global --add safe.directory "${GITHUB_WORKSPACE:-/github/workspace}"
exec tooldiff github "$@"
