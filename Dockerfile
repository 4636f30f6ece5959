# The tooldiff GitHub Action image. Build: docker build -t tooldiff .
# Stage 1 installs the system packages and the locked dependencies, then cleans up; stage 2 copies that
# tree into one layer, so nothing deleted in stage 1 (package caches, docs, pip) ships. The source comes
# last, so a source edit rebuilds only the last layers and the dependency layer stays cached.
FROM debian:trixie-slim AS runtime

ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements.lock /tmp/requirements.lock
# - python3 from Debian, and a venv holding exactly the locked dependencies (pip removed afterwards);
# - git, to read refs from git objects. Its perl dependency serves only porcelain scripts tooldiff never
#   runs (send-email, svn, add -p), and so do the daemon, shell, imap and push helpers: all dropped;
# - binutils, only to strip debug symbols from the wheels' extension modules, then purged.
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update -q \
 && apt-get install -y --no-install-recommends python3 python3-venv git ca-certificates binutils \
 && python3 -m venv /opt/tooldiff \
 && /opt/tooldiff/bin/pip install -q --no-deps --only-binary=:all: -r /tmp/requirements.lock \
 && /opt/tooldiff/bin/pip uninstall -y -q pip \
 && find /opt/tooldiff -name '*.so' -exec strip --strip-unneeded {} + \
 && apt-get purge -y -q --auto-remove binutils python3-venv python3-pip-whl python3-setuptools-whl >/dev/null \
 && dpkg --purge --force-depends perl perl-modules-5.40 libperl5.40 liberror-perl git-man >/dev/null 2>&1 \
 && cd /usr/lib/git-core \
 && rm -f git-http-push git-imap-send git-daemon git-http-backend git-shell scalar git-sh-i18n--envsubst \
          /usr/bin/scalar /usr/bin/git-shell mergetools -r \
 && ln -f /usr/bin/git /usr/lib/git-core/git \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/log/* /tmp/requirements.lock \
    /usr/share/doc/* /usr/share/man/* /usr/share/locale/* /usr/share/info/* \
    /usr/lib/python3.13/ensurepip /usr/lib/python3.13/pydoc_data /usr/lib/python3.13/idlelib \
    /usr/lib/python3.13/test \
 && find /opt/tooldiff -name '__pycache__' -prune -exec rm -rf {} + \
 && git --version && /opt/tooldiff/bin/python -c 'import github, jsonschema_rs, tiktoken, unidiff, yaml, jinja2'

FROM scratch
COPY --from=runtime / /
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    LANG=C.UTF-8 \
    PATH=/opt/tooldiff/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# The package itself: plain source on the path (no build step, no setuptools in the image), precompiled
# so that a run does not compile on every start.
COPY src/tooldiff /opt/tooldiff/app/tooldiff
# The command is a Python script, not a shell wrapper: sh would drop the hyphenated INPUT_* variables.
RUN printf '#!/opt/tooldiff/bin/python\nfrom tooldiff.cli import main\nraise SystemExit(main())\n' \
      > /opt/tooldiff/bin/tooldiff \
 && chmod +x /opt/tooldiff/bin/tooldiff \
 && echo /opt/tooldiff/app > /opt/tooldiff/lib/python3.13/site-packages/tooldiff.pth \
 && /opt/tooldiff/bin/python -m compileall -q -j 0 /opt/tooldiff \
 && tooldiff --version

COPY entrypoint.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
