"""A local fake of the GitHub REST API: the part a PR bot calls, strict about what it accepts.

Every request is checked against GitHub's own OpenAPI description (`../shared/github/rest-api/
api.github.com.pr-bot-subset.json`): an operation it does not describe, a bad parameter or a body GitHub
would reject lands in `fake.errors`, and tests assert that list is empty. Responses are built from GitHub's
examples (copied into `tests/fixtures/github/`). One state machine, `FakeGitHub.handle`, serves two fronts:
a real HTTP server on 127.0.0.1 (for the container) and `responses` callbacks (for unit tests).
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

FIXTURES = Path(__file__).parent / "fixtures" / "github"
SPEC = Path(__file__).resolve().parents[1].parent / "shared" / "github" / "rest-api" / \
    "api.github.com.pr-bot-subset.json"
SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
Response = tuple[int, dict[str, str], Any]


def example(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _nullable(node: Any) -> Any:
    """OpenAPI 3.0 `nullable: true` is `type: [T, "null"]` in JSON Schema."""
    if isinstance(node, dict):
        out = {k: _nullable(v) for k, v in node.items()}
        if out.pop("nullable", False) and "type" in out:
            out["type"] = [out["type"], "null"] if isinstance(out["type"], str) else [*out["type"], "null"]
        return out
    if isinstance(node, list):
        return [_nullable(v) for v in node]
    return node


class Spec:
    """Operations of the OpenAPI description, and validation of one request against them."""

    def __init__(self, path: Path = SPEC) -> None:
        self.doc = _nullable(json.loads(path.read_text(encoding="utf-8")))
        self.registry: Registry[Any] = Registry().with_resource(
            "urn:github", Resource.from_contents(self.doc, default_specification=DRAFT4))
        self.routes: list[tuple[re.Pattern[str], str, str]] = []
        for template in self.doc["paths"]:
            rx = re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
            rx = re.sub(r"\{([a-z_]+)\}", r"(?P<\1>[^/]+)", rx)
            self.routes.append((re.compile(rx + "$"), template, rx))

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def _validate(self, value: Any, pointer: str) -> list[str]:
        validator = jsonschema.Draft4Validator({"$ref": "urn:github#" + pointer}, registry=self.registry)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"
                for e in validator.iter_errors(value)]

    def check(self, method: str, path: str, query: dict[str, str], body: Any) -> tuple[str | None, list[str]]:
        """(operationId, problems) for one request; operationId None when no operation matches."""
        for rx, template, _ in self.routes:
            m = rx.match(path)
            op = self.doc["paths"][template].get(method.lower()) if m else None
            if m is None or op is None:
                continue
            problems: list[str] = []
            params = [self._resolve(p) for p in op.get("parameters", [])]
            known = {p["name"] for p in params if p["in"] == "query"}
            for name in query:
                if name not in known:
                    problems.append(f"query parameter {name!r} is not described")
            for p in params:
                raw = {"path": m.groupdict().get(p["name"]), "query": query.get(p["name"])}.get(p["in"])
                if raw is None:
                    if p.get("required") and p["in"] in ("path", "query"):
                        problems.append(f"missing {p['in']} parameter {p['name']!r}")
                    continue
                value: Any = raw
                if p.get("schema", {}).get("type") == "integer":
                    if not re.fullmatch(r"-?\d+", raw):
                        problems.append(f"{p['in']} parameter {p['name']!r}={raw!r} is not an integer")
                        continue
                    value = int(raw)
                problems += [f"{p['name']}: {e}" for e in
                             jsonschema.Draft4Validator(p.get("schema", {})).iter_errors(value)]
            content = op.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                if body is None and op["requestBody"].get("required"):
                    problems.append("a JSON body is required")
                elif body is not None:
                    esc = template.replace("~", "~0").replace("/", "~1")
                    problems += self._validate(
                        body, f"/paths/{esc}/{method.lower()}/requestBody/content/application~1json/schema")
            elif body is not None:
                problems.append("this operation takes no JSON body")
            return op["operationId"], problems
        return None, [f"{method} {path} is not an operation of the API description"]


@dataclass
class Fault:
    method: str
    pattern: str
    status: int
    times: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    after: bool = False  # the request takes effect, then the error is answered (a gateway timing out)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int
    operation: str | None


@dataclass
class Pull:
    number: int
    head_sha: str
    base_sha: str
    files: list[dict[str, Any]]
    fork: bool = False


class FakeGitHub:
    def __init__(self, repository: str = "octo-org/tools", *, actor: str = "github-actions[bot]",
                 prefix: str = "", spec: Spec | None = None) -> None:
        self.repository = repository
        self.actor = actor
        self.prefix = prefix.rstrip("/")
        self.spec = spec or Spec()
        self.base = "https://api.github.example" + self.prefix
        self.token: str | None = None
        self.lock = threading.RLock()
        self.pulls: dict[int, Pull] = {}
        self.comments: dict[int, dict[str, Any]] = {}
        self.review_comments: dict[int, dict[str, Any]] = {}
        self.reviews: list[dict[str, Any]] = []
        self.check_runs: dict[int, dict[str, Any]] = {}
        self.annotations: dict[int, list[dict[str, Any]]] = {}
        self.faults: list[Fault] = []
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        self.hooks: list[Callable[[str, str], None]] = []
        self._ids = 1000
        self._server: ThreadingHTTPServer | None = None

    # -- test setup ----------------------------------------------------------------------------------
    def add_pull(self, number: int, head_sha: str, base_sha: str, files: dict[str, str | None],
                 fork: bool = False) -> Pull:
        """`files` maps each changed path to its patch (hunks only, as the API gives them)."""
        listed = [{"filename": p, "status": "modified", "patch": patch} for p, patch in files.items()]
        self.pulls[number] = Pull(number, head_sha, base_sha, listed, fork)
        return self.pulls[number]

    def add_comment(self, number: int, body: str, login: str | None = None) -> dict[str, Any]:
        with self.lock:
            return self._new_comment(number, body, login or self.actor)

    def fail(self, method: str, pattern: str, status: int, times: int = 1,
             headers: dict[str, str] | None = None, body: Any = None, *, after: bool = False) -> None:
        self.faults.append(Fault(method, pattern, status, times, headers or {}, body, after))

    def secondary_rate_limit(self, method: str, pattern: str, retry_after: int = 1, times: int = 1) -> None:
        self.fail(method, pattern, 403, times, {"Retry-After": str(retry_after)},
                  {"message": SECONDARY, "documentation_url": "https://docs.github.com/rest"})

    def calls(self, method: str | None = None, operation: str | None = None) -> list[Recorded]:
        return [r for r in self.requests if (method is None or r.method == method)
                and (operation is None or r.operation == operation)]

    def bot_comments(self, number: int) -> list[dict[str, Any]]:
        return [c for c in self.comments.values()
                if c["_number"] == number and c["user"]["login"] == self.actor]

    # -- HTTP front ----------------------------------------------------------------------------------
    def start(self) -> str:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                status, headers, body = fake.handle(self.command, self.path, raw,
                                                    self.headers.get("Authorization"))
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                if data:
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}{self.prefix}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self.base

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def install(self, mock: Any, base: str = "https://api.github.example") -> str:
        """Serve through a `responses.RequestsMock` instead of a socket."""
        self.base = base.rstrip("/") + self.prefix

        def callback(request: Any) -> tuple[int, dict[str, str], str]:
            split = urlsplit(request.url)
            raw = request.body or b""
            status, headers, body = self.handle(
                request.method, split.path + (f"?{split.query}" if split.query else ""),
                raw if isinstance(raw, bytes) else raw.encode(), request.headers.get("Authorization"))
            return status, headers, "" if body is None else json.dumps(body)

        for method in ("GET", "POST", "PATCH", "DELETE", "PUT"):
            # PyGithub spells the default port out (`:443`).
            url = re.compile(re.escape(base.rstrip("/")) + r"(:443)?/.*")
            mock.add_callback(method, url, callback=callback)
        return self.base

    # -- the state machine ---------------------------------------------------------------------------
    def handle(self, method: str, target: str, raw: bytes, auth: str | None) -> Response:
        with self.lock:
            split = urlsplit(target)
            path = split.path
            query = dict(parse_qsl(split.query))
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body, problems = None, ["the body is not JSON"]
            else:
                problems = []
            if self.prefix and not path.startswith(self.prefix + "/"):
                problems.append(f"{path} is outside the API prefix {self.prefix}")
            path = path.removeprefix(self.prefix)
            operation, found = self.spec.check(method, path, query, body)
            problems += found
            if not auth or not auth.startswith(("token ", "Bearer ")):
                problems.append("no Authorization token")
            elif self.token is not None and auth.split(" ", 1)[1] != self.token:
                problems.append("wrong token")
            for hook in self.hooks:
                hook(method, path)
            if problems:
                self.errors += [f"{method} {path}: {p}" for p in problems]
                result: Response = (400, {}, {"message": "fake: invalid request", "errors": problems})
            else:
                fault = self._fault(method, path)
                if fault is None or fault[1]:
                    done = self._route(method, path, query, body)
                result = done if fault is None else fault[0]
            self.requests.append(Recorded(method, path, query, body, result[0], operation))
            return result

    def _fault(self, method: str, path: str) -> tuple[Response, bool] | None:
        """The fault's answer, and whether the request takes effect all the same."""
        for f in self.faults:
            if f.times and f.method == method and re.search(f.pattern, path):
                f.times -= 1
                body = f.body if f.body is not None else {"message": f"fault {f.status}"}
                return (f.status, dict(f.headers), body), f.after
        return None

    def _page(self, items: list[Any], path: str, query: dict[str, str]) -> Response:
        per_page = min(int(query.get("per_page", 30)), 100)
        page = int(query.get("page", 1))
        last = max(1, -(-len(items) // per_page))
        links = []
        for rel, n in (("next", page + 1), ("last", last)):
            if page < last:
                url = f"{self.base}{path}?{urlencode({'per_page': per_page, 'page': n})}"
                links.append(f'<{url}>; rel="{rel}"')
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, headers, items[(page - 1) * per_page: page * per_page]

    def _repo(self, path: str) -> str | None:
        prefix = f"/repos/{self.repository}"
        return path[len(prefix):] if path.startswith(prefix + "/") else None

    def _route(self, method: str, path: str, query: dict[str, str], body: Any) -> Response:
        rest = self._repo(path)
        if rest is None:
            return 404, {}, {"message": "Not Found"}
        m = re.fullmatch(r"/(issues|pulls)/(\d+)(/.*)?", rest)
        if m and int(m.group(2)) not in self.pulls:
            return 404, {}, {"message": "Not Found"}
        pull = self.pulls.get(int(m.group(2))) if m else None
        sub = m.group(3) if m else None
        if pull and m and m.group(1) == "issues" and sub == "/comments":
            if method == "GET":
                mine = [self._public(c) for c in self.comments.values() if c["_number"] == pull.number]
                return self._page(mine, path, query)
            if pull.fork:
                return 403, {}, {"message": "Resource not accessible by integration"}
            return 201, {}, self._public(self._new_comment(pull.number, body["body"], self.actor))
        cm = re.fullmatch(r"/issues/comments/(\d+)", rest)
        if cm:
            comment = self.comments.get(int(cm.group(1)))
            if comment is None:
                return 404, {}, {"message": "Not Found"}
            if method == "GET":
                return 200, {}, self._public(comment)
            if comment["user"]["login"] != self.actor or self.pulls[comment["_number"]].fork:
                return 403, {}, {"message": "Resource not accessible by integration"}
            if method == "DELETE":
                del self.comments[comment["id"]]
                return 204, {}, None
            comment["body"] = body["body"]
            comment["_edits"] += 1
            return 200, {}, self._public(comment)
        if pull and sub is None and method == "GET":
            return 200, {}, self._pull_json(pull)
        if pull and sub == "/files":
            return self._page(copy.deepcopy(pull.files), path, query)
        if pull and sub == "/comments":
            if method == "GET":
                return self._page([self._public(c) for c in self.review_comments.values()
                                   if c["_number"] == pull.number], path, query)
            return self._review_comment(pull, body, None)
        if pull and sub == "/reviews":
            if method == "GET":
                return self._page(copy.deepcopy(self.reviews), path, query)
            return self._review(pull, body)
        if rest == "/check-runs" and method == "POST":
            return self._check_run(None, body)
        km = re.fullmatch(r"/check-runs/(\d+)", rest)
        if km and method == "PATCH":
            return self._check_run(int(km.group(1)), body)
        self.errors.append(f"{method} {path}: the fake does not implement this operation")
        return 501, {}, {"message": "not implemented by the fake"}

    # -- resources -----------------------------------------------------------------------------------
    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    @staticmethod
    def _public(obj: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in copy.deepcopy(obj).items() if not k.startswith("_")}

    def _user(self, login: str) -> dict[str, Any]:
        user = copy.deepcopy(example("issues__create-comment.201.default.json")["user"])
        user.update(login=login, type="Bot" if login.endswith("[bot]") else "User",
                    url=f"{self.base}/users/{login}")
        return user

    def _new_comment(self, number: int, body: str, login: str) -> dict[str, Any]:
        c = example("issues__create-comment.201.default.json")
        cid = self._next_id()
        c.update(id=cid, body=body, user=self._user(login), _number=number, _edits=0,
                 url=f"{self.base}/repos/{self.repository}/issues/comments/{cid}",
                 html_url=f"https://github.example/{self.repository}/pull/{number}#issuecomment-{cid}",
                 issue_url=f"{self.base}/repos/{self.repository}/issues/{number}")
        self.comments[cid] = c
        return c

    def _pull_json(self, pull: Pull) -> dict[str, Any]:
        data = example("pulls__get.200.default.json")
        data.update(number=pull.number, url=f"{self.base}/repos/{self.repository}/pulls/{pull.number}",
                    issue_url=f"{self.base}/repos/{self.repository}/issues/{pull.number}")
        data["head"]["sha"], data["base"]["sha"] = pull.head_sha, pull.base_sha
        return data

    def _visible(self, pull: Pull, path: str) -> set[int]:
        """Head-side lines the PR diff shows for `path`: GitHub's rule, read without unidiff."""
        lines: set[int] = set()
        for f in pull.files:
            if f["filename"] != path or not f.get("patch"):
                continue
            new = 0
            for line in f["patch"].split("\n"):
                hunk = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@", line)
                if hunk:
                    new = int(hunk.group(1))
                elif line.startswith(("+", " ")) and new:
                    lines.add(new)
                    new += 1
        return lines

    def _review_comment(self, pull: Pull, body: dict[str, Any], review_id: int | None) -> Response:
        if pull.fork:
            return 403, {}, {"message": "Resource not accessible by integration"}
        # GitHub answers 422 for a line the PR diff does not show.
        if body.get("line") not in self._visible(pull, body["path"]):
            return 422, {}, {"message": "Validation Failed",
                             "errors": ["pull_request_review_thread.line must be part of the diff"]}
        c = example("pulls__create-review-comment.201.example-for-a-multi-line-comment.json")
        cid = self._next_id()
        c.update(id=cid, body=body["body"], path=body["path"], line=body["line"], user=self._user(self.actor),
                 commit_id=body.get("commit_id", pull.head_sha), pull_request_review_id=review_id,
                 url=f"{self.base}/repos/{self.repository}/pulls/comments/{cid}", _number=pull.number)
        self.review_comments[cid] = c
        return 201, {}, self._public(c)

    def _review(self, pull: Pull, body: dict[str, Any]) -> Response:
        if pull.fork:
            return 403, {}, {"message": "Resource not accessible by integration"}
        comments = body.get("comments", [])
        if any(c.get("line") not in self._visible(pull, c["path"]) for c in comments):
            return 422, {}, {"message": "Unprocessable Entity",
                             "errors": ["Line could not be resolved"]}
        review = example("pulls__create-review.200.default.json")
        rid = self._next_id()
        review.update(id=rid, body=body.get("body", ""), state="COMMENTED", user=self._user(self.actor),
                      commit_id=body.get("commit_id"))
        self.reviews.append(review)
        for c in comments:
            self._review_comment(pull, {**c, "commit_id": body.get("commit_id")}, rid)
        return 200, {}, copy.deepcopy(review)

    def _check_run(self, run_id: int | None, body: dict[str, Any]) -> Response:
        if run_id is None:
            run = example("checks__create.201.example-of-completed-conclusion.json")
            run_id = self._next_id()
            run.update(id=run_id, url=f"{self.base}/repos/{self.repository}/check-runs/{run_id}")
            self.check_runs[run_id] = run
            self.annotations[run_id] = []
        elif run_id not in self.check_runs:
            return 404, {}, {"message": "Not Found"}
        run = self.check_runs[run_id]
        for key in ("name", "head_sha", "status", "conclusion"):
            if key in body:
                run[key] = body[key]
        output = dict(body.get("output") or {})
        self.annotations[run_id] += output.pop("annotations", [])
        count = len(self.annotations[run_id])
        run["output"] = {**run.get("output", {}), **output, "annotations_count": count}
        return (201 if body.get("head_sha") else 200), {}, copy.deepcopy(run)
