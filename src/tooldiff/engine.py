"""Runs the rules over toolsets and stamps what they yield into findings.

Rules yield bare `Problem`s; only here do code, severity, file, line and fingerprint get attached, so a
rule never needs to know where its tool came from.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from tooldiff import pairs, rules, tokens, workers
from tooldiff.config import Config
from tooldiff.model import Finding, ParseError, Problem, Tool, Toolset, fingerprint
from tooldiff.positions import Locator, Path, split_pointer
from tooldiff.rules.base import Context
from tooldiff.schemahash import schema_hash, schema_json
from tooldiff.targets import TARGETS, Target, default_targets

# (toolset id, file, pointer): one tool even where two in a toolset share a name (`duplicate-name`).
Key = tuple[str, str, str]


def tool_key(toolset_id: str, tool: Tool) -> Key:
    return (toolset_id, tool.file, tool.pointer)


class ScopeLike(Protocol):
    def in_scope_tool(self, toolset_id: str, name: str) -> bool: ...
    def in_scope_pair(self, toolset_id: str, a: str, b: str) -> bool: ...
    def in_scope_toolset(self, toolset_id: str) -> bool: ...


@dataclass(slots=True)
class Analysis:
    findings: list[Finding] = field(default_factory=list)
    hashes: dict[Key, str] = field(default_factory=dict)
    tokens: dict[Key, dict[str, int]] = field(default_factory=dict)
    targets: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)


class _Locations:
    """Maps a finding's tool-relative pointer to a line, parsing a file for positions only when asked.

    `/input_schema...` is found under the tool's schema; any other pointer but "" (`/name`, `/description`,
    `/annotations/...`, a key written twice) under the record's body (OpenAI Chat: `function`), else the
    record itself (where duplicate-key reports keys outside the body)."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self._files = files
        self._locators: dict[str, Locator] = {}

    def _locator(self, file: str) -> Locator | None:
        data = self._files.get(file)
        if data is None:
            return None
        loc = self._locators.get(file)
        if loc is None:
            loc = self._locators[file] = Locator(file, data)
        return loc

    @staticmethod
    def _candidates(tool: Tool, pointer: str) -> list[str]:
        """File pointers to try, best first; [] where the tool's own line is the answer. After the pointer
        come its ancestors: a default filled in (a missing description) has no line of its own."""
        if pointer.startswith("/input_schema"):
            if not tool.schema_pointer:
                return []
            path = tool.schema_pointer + pointer[len("/input_schema"):]
            out = [path]
            while path != tool.schema_pointer and "/" in path:
                path = path.rsplit("/", 1)[0]
                out.append(path)
            return out
        if not pointer.startswith("/"):
            return []
        body = _body_pointer(tool)
        out = []
        while pointer:
            out.append(body + pointer)
            if body != tool.pointer:
                out.append(tool.pointer + pointer)
            pointer = pointer.rsplit("/", 1)[0]
        return out

    def line(self, tool: Tool, pointer: str) -> int:
        candidates = self._candidates(tool, pointer)
        loc = self._locator(tool.file) if candidates else None
        if loc is None:
            return tool.line
        for path in candidates:
            line = loc.line(path)
            if line is not None:
                return line
        return tool.line

    def _from_records(self, wanted: Sequence[tuple[Tool, str]]) -> dict[int, int | None]:
        """Index in `wanted` -> line, for the pointers found by walking their tool's record alone. A record
        key's answer is final (None: not in the record, so the tool's own line); a schema pointer not
        found there is left out, for the file walk."""
        # file -> (record start, end) -> (ask, path inside the record, whether the parse has it, first).
        # A schema pointer's ask is its index k in `wanted`; a record key's jth candidate's, k + n * (j + 1).
        asks: dict[str, dict[tuple[int, int], list[tuple[int, Path, bool, bool]]]] = {}
        n = len(wanted)
        keys: dict[int, int] = {}  # index in `wanted` of a record key -> how many candidates it asked
        for k, (tool, pointer) in enumerate(wanted):
            if tool.offset < 0 or not pointer:
                continue
            if pointer.startswith("/input_schema"):
                if not tool.schema_pointer or not tool.schema_pointer.startswith(tool.pointer):
                    continue
                below = pointer[len("/input_schema"):]
                there = _has_path(tool.input_schema, split_pointer(below))
                path = split_pointer(tool.schema_pointer[len(tool.pointer):] + below)
                asks.setdefault(tool.file, {}).setdefault((tool.offset, tool.end_offset), []).append(
                    (k, path, there, False))
                continue
            # No key written twice in the record: the first member of each object on the path is it.
            first = not tool.repeated_keys
            inside = len(tool.pointer)
            asked = asks.setdefault(tool.file, {}).setdefault((tool.offset, tool.end_offset), [])
            chain = self._candidates(tool, pointer)
            for j, candidate in enumerate(chain):
                asked.append((k + n * (j + 1), split_pointer(candidate[inside:]), False, first))
            keys[k] = len(chain)
        found: dict[int, int | None] = {}
        walked: set[str] = set()
        for file, records in asks.items():
            loc = self._locator(file)
            if loc is not None and loc.walks_records():
                walked.add(file)
                found.update(loc.lines_in_records(records))
        for k, count in keys.items():
            if wanted[k][0].file in walked:
                lines = [found.pop(k + n * j, None) for j in range(1, count + 1)]
                found[k] = next((line for line in lines if line is not None), None)
        return found

    def lines(self, wanted: Sequence[tuple[Tool, str]]) -> list[int]:
        """`line` of each (tool, pointer), asking each file's Locator once for all of its pointers.

        Where the parse saw a tool's record start (`Tool.offset`), its pointers are looked up from there
        (one walk of the record, not of the file); the rest, and any pointer not found that way, as before.
        """
        from_records = self._from_records(wanted)
        get = from_records.get
        out = [tool.line if (line := get(k)) is None else line for k, (tool, _) in enumerate(wanted)]
        rest = [k for k in range(len(wanted)) if k not in from_records]  # most were found in their record
        chains: dict[int, list[str]] = {}
        per_file: dict[str, list[str]] = {}
        for k in rest:
            tool, pointer = wanted[k]
            chain = self._candidates(tool, pointer)
            if chain and self._locator(tool.file) is not None:
                per_file.setdefault(tool.file, []).append(chain[0])
                chains[k] = chain
        found = {f: self._locators[f].lines(ps) for f, ps in per_file.items()}
        # The few pointers with no line of their own (defaults filled in): their ancestors, again in one go.
        misses: dict[str, list[str]] = {}
        for k, chain in chains.items():
            file = wanted[k][0].file
            if found[file][chain[0]] is None:
                misses.setdefault(file, []).extend(chain[1:])
        for f, ps in misses.items():
            found[f].update(self._locators[f].lines(ps))
        for k, chain in chains.items():
            known = found[wanted[k][0].file]
            line = next((n for n in map(known.__getitem__, chain) if n is not None), None)
            if line is not None:
                out[k] = line
        return out


def _body_pointer(tool: Tool) -> str:
    """The file pointer of the object holding the tool's name and description: the schema's parent."""
    depth = tool.schema_key.count("/") + 1  # a key of several parts (`inputSchema/json`) sits deeper
    return tool.schema_pointer.rsplit("/", depth)[0] if tool.schema_key else tool.schema_pointer


def _has_path(value: Any, path: Path) -> bool:
    """Whether `path` leads somewhere in the parsed value (a finding may point at a default filled in)."""
    for token in path:
        if isinstance(value, dict):
            if token not in value:
                return False
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False
    return True


# Each tool rule part to run, with its code, module and context.
Plan = list[tuple[str, ModuleType, Context, Any]]
# A problem waiting for its line: (code, module, problem, toolset, tool it is reported at).
Pending = tuple[str, ModuleType, Problem, Toolset, Tool]


TargetCache = dict[tuple[str, str, str, bool | None], tuple[str, ...]]


def _targets_of(config: Config, cache: TargetCache, toolset_id: str, tool: Tool) -> tuple[str, ...]:
    # Asked per tool by the engine and again by toolset rules; it depends on these four only, and on the
    # name only where the config has settings for that tool.
    name = tool.name if tool.name in config.tool_settings else ""
    key = (toolset_id, name, tool.format, tool.strict)
    names = cache.get(key)
    if names is None:
        chosen = config.targets_override(toolset_id, tool.name) or default_targets(tool)
        names = cache[key] = tuple(n for n in chosen if n in TARGETS)
    return names


def _target_objects(config: Config, cache: TargetCache, toolset_id: str, tool: Tool) -> tuple[Target, ...]:
    return tuple(TARGETS[n] for n in _targets_of(config, cache, toolset_id, tool))


class Engine:
    def __init__(self, config: Config, files: Mapping[str, bytes]) -> None:
        self.config = config
        self.locations = _Locations(files)
        self.enabled = {code: m for code, m in rules.registry().items() if config.rule_enabled(code)}
        self._options = {code: self._rule_options(code, m) for code, m in self.enabled.items()}
        self._contexts: dict[tuple[str, tuple[str, ...], str], Context] = {}
        self._targets: TargetCache = {}
        # What the config sets for each rule's severity, read once: 27k findings ask it.
        self._severity = {code: self.config.severity(code) for code in self.enabled}

    def _rule_options(self, code: str, module: ModuleType) -> dict[str, Any]:
        options: dict[str, Any] = dict(getattr(module, "OPTIONS", {}))
        if "chars_per_token" in options:
            options["chars_per_token"] = self.config.chars_per_token
        options.update(self.config.rule_options(code))
        return options

    def targets_of(self, toolset_id: str, tool: Tool) -> tuple[str, ...]:
        return _targets_of(self.config, self._targets, toolset_id, tool)

    def context(self, code: str, targets: tuple[Target, ...] = (), toolset_id: str = "") -> Context:
        # Contexts are immutable and few: one per rule, target set and toolset, not one per tool.
        key = (code, tuple(t.name for t in targets), toolset_id)
        ctx = self._contexts.get(key)
        if ctx is None:
            options = self._options[code]
            if toolset_id:  # what the toolset sets for itself (its own budget) wins
                options = {**options, **self.config.toolset_rule_options(code, toolset_id)}
            ctx = self._contexts[key] = Context(
                targets=targets,
                options=options,
                tool_settings=self.config.tool_settings,
                # Not a method of this engine: a context that points back at it would make a cycle, and
                # with the collector paused an engine (holding its files' text) would outlive its run.
                targets_of=partial(_target_objects, self.config, self._targets, toolset_id),
                targets_in=partial(_target_objects, self.config, self._targets),
            )
        return ctx

    def stamp(self, code: str, module: ModuleType, problem: Problem, toolset: Toolset, at: Tool) -> Finding:
        line = problem.line or self.locations.line(at, problem.pointer)
        return self._finding(code, module, problem, toolset, at, line)

    def stamp_all(self, pending: Sequence[Pending]) -> list[Finding]:
        """`stamp` each, in order; lines are found file by file in one pass (27k findings on 20k tools)."""
        lines = self.locations.lines([(at, problem.pointer) for _, _, problem, _, at in pending])
        finding = self._finding
        return [finding(*item, item[2].line or line) for item, line in zip(pending, lines, strict=True)]

    def _finding(
        self, code: str, module: ModuleType, problem: Problem, toolset: Toolset, at: Tool, line: int
    ) -> Finding:
        # A toolset finding names no tool unless its rule does (duplicate-name): `at` only places it, and its
        # fingerprint must not change when another tool comes first.
        tool_names = tuple(problem.tools) or (() if module.KIND == "toolset" else (at.name,))
        return Finding(
            code=code,
            severity=self._severity.get(code) or problem.severity or module.SEVERITY,
            message=problem.message,
            fix=problem.fix,
            tools=tool_names,
            toolset=toolset.id,
            file=at.file,
            line=line,
            pointer=problem.pointer,
            targets=tuple(problem.targets),
            evidence=problem.evidence,  # frozen on both sides: share, do not copy
            related=tuple(problem.related),
            fingerprint=fingerprint(code, toolset.id, tool_names, problem.pointer),
            tool_pointer=at.pointer,
        )

    def by_kind(self, kind: str) -> list[tuple[str, ModuleType]]:
        return [(c, m) for c, m in self.enabled.items() if kind == m.KIND]


# Objects allocated during a pause above which resuming freezes them instead of letting them be scanned.
GC_FREEZE_AFTER = 100_000


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic GC while a run builds its millions of acyclic objects: each full collection would walk
    every parsed schema again (a quarter of a check of 20k tools). Nests; restores the previous state.

    Re-enabling after a big run would trigger one full collection that finds nothing (0.1-0.2 s on 20k
    tools), so those objects go to the permanent generation first: reference counting still frees them,
    only cycles among them would wait for the process to end."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_count()[0] > GC_FREEZE_AFTER:
                gc.freeze()
            gc.enable()


def parse_error_findings(errors: Iterable[ParseError], config: Config) -> list[Finding]:
    if not config.rule_enabled("parse-error"):
        return []
    severity = config.severity("parse-error") or "error"
    return [
        Finding(
            code="parse-error",
            severity=severity,
            message=e.message,
            fix=e.fix or "Fix the file so that it parses; the other files were still analysed.",
            tools=(),
            toolset=e.file,
            file=e.file,
            line=e.line,
            pointer="",
            fingerprint=fingerprint("parse-error", e.file, (), ""),
        )
        for e in errors
    ]


def analyse(
    toolsets: Sequence[Toolset],
    config: Config,
    files: Mapping[str, bytes],
    *,
    scope: ScopeLike | None = None,
    parse_errors: Sequence[ParseError] = (),
    token_methods: Sequence[str] | None = None,
    jobs: int | None = None,
) -> Analysis:
    """Every finding of `toolsets` (restricted to `scope` when given), plus hashes, tokens and targets.

    `token_methods` limits the counting methods (default: all available); the estimate is always counted.
    `jobs` caps the processes (default: `workers.jobs_available()`).
    """
    with gc_paused():
        whole = [Work(ts, 0, len(ts.tools), True) for ts in toolsets]
        groups = split_work(whole, scope, workers.jobs_available() if jobs is None else jobs)
        if len(groups) < 2:
            return _analyse(whole, config, files, scope, parse_errors, token_methods)
        parts = workers.fork_map(lambda g: _analyse(g, config, files, scope, (), token_methods), groups)
        return _merge(parts, parse_error_findings(parse_errors, config), toolsets)


class Work(NamedTuple):
    """A share of one toolset's analysis: the tool rules of tools[lo:hi]; with `whole`, also the toolset
    and pair rules (which need every tool) and the toolset's place in the stats."""

    toolset: Toolset
    lo: int
    hi: int
    whole: bool


# Below this many tools to analyse, a fork and the pickled results cost more than a second core saves.
PARALLEL_MIN_TOOLS = 2000
# A toolset bigger than this has its tool rules dealt out in slices of this size (one 10k-tool toolset).
SLICE_TOOLS = 1000


def split_work(work: Sequence[Work], scope: ScopeLike | None, jobs: int) -> list[list[Work]]:
    """`work` in up to `jobs` groups of about equal cost (largest first, each to the lightest group).

    A tool costs about as much in the tool rules as in the pair rules, so a toolset's toolset-and-pair
    share is priced at its size, and its tool rules at the tools in scope."""
    def in_scope(w: Work) -> int:
        if scope is None:
            return w.hi - w.lo
        return sum(1 for t in w.toolset.tools[w.lo : w.hi] if scope.in_scope_tool(w.toolset.id, t.name))

    pieces: list[tuple[int, Work]] = []
    for w in work:
        n = in_scope(w)
        if not w.whole or n <= SLICE_TOOLS:
            pieces.append((2 * n if w.whole else n, w))
            continue
        pieces.append((n, Work(w.toolset, w.lo, w.lo, True)))  # toolset and pair rules alone
        for lo in range(w.lo, w.hi, SLICE_TOOLS):
            part = Work(w.toolset, lo, min(lo + SLICE_TOOLS, w.hi), False)
            pieces.append((in_scope(part), part))
    total = sum(c for c, _ in pieces)
    if jobs < 2 or total < 2 * PARALLEL_MIN_TOOLS:
        return [list(work)]
    groups: list[list[Work]] = [[] for _ in range(jobs)]
    loads = [0] * jobs
    for c, w in sorted(pieces, key=lambda x: -x[0]):  # stable: equal costs keep their order
        k = loads.index(min(loads))
        groups[k].append(w)
        loads[k] += c
    return [g for g in groups if g]


def _merge(parts: Sequence[Analysis], errors: list[Finding], toolsets: Sequence[Toolset]) -> Analysis:
    out = Analysis(findings=errors)
    for part in parts:
        out.findings.extend(part.findings)
        out.hashes.update(part.hashes)
        out.tokens.update(part.tokens)
        out.targets.update(part.targets)
        for k, v in part.stats.items():
            out.stats[k] = out.stats.get(k, 0) + v
    sort_findings(out.findings, toolsets)
    return out


def _analyse(
    work: Sequence[Work],
    config: Config,
    files: Mapping[str, bytes],
    scope: ScopeLike | None,
    parse_errors: Sequence[ParseError],
    token_methods: Sequence[str] | None,
) -> Analysis:
    eng = Engine(config, files)
    out = Analysis(findings=parse_error_findings(parse_errors, config))
    tool_rules = eng.by_kind("tool")
    set_rules = eng.by_kind("toolset")
    pair_codes = [c for c in rules.PAIR_PRECEDENCE if c in eng.enabled]
    pending: list[Pending] = []
    by_schema: dict[tuple[tuple[str, ...], str, str, str], list[tuple[str, ModuleType, Problem]]] = {}
    tools_seen = pairs_seen = toolsets_seen = tools_in_sets = 0
    # The tool rules with their contexts, per target set (a handful for a whole run): the parts whose
    # problems depend on the schema alone, then the rest (`rules.tool_rule_parts`), then the rules that see
    # the tool's toolset (`SEES_TOOLSET`, given it as an argument and asking `targets_in` for its peers'
    # targets): so no context is bound to a toolset.
    plans: dict[tuple[str, ...], tuple[Plan, Plan, Plan]] = {}
    for ts, lo, hi, whole in work:
        for tool in ts.tools[lo:hi]:
            key = (ts.id, tool.file, tool.pointer)  # tool_key, inlined: 20k calls
            out.hashes[key] = h = schema_hash(tool)
            out.tokens[key] = tokens.count_tool(
                tool, chars_per_token=config.chars_per_token, methods=token_methods, hash_=h
            )
            out.targets[key] = names = eng.targets_of(ts.id, tool)
            if scope is not None and not scope.in_scope_tool(ts.id, tool.name):
                continue
            tools_seen += 1
            plan = plans.get(names)
            if plan is None:
                targets = tuple(TARGETS[n] for n in names)
                schema_steps: Plan = []
                other_steps: Plan = []
                peer_steps: Plan = []  # `SEES_TOOLSET` rules: given the tool's toolset too
                for c, m in tool_rules:
                    ctx = eng.context(c, targets)
                    if not rules.applies(m, ctx):
                        continue  # e.g. a strict-mode rule where no target is strict
                    schema_part, rest = rules.tool_rule_parts(m)
                    if schema_part is not None:
                        schema_steps.append((c, m, ctx, schema_part))
                    if rest is not None:
                        (peer_steps if getattr(m, "SEES_TOOLSET", False) else other_steps).append(
                            (c, m, ctx, rest))
                plan = plans[names] = (schema_steps, other_steps, peer_steps)
            by_schema_rules, other_rules, peer_rules = plan
            if by_schema_rules:
                # Equal schemas are common (3,000 of 20k corpus tools share one): check each once. The
                # canonical text was made for the hash just above, so it is the cheap key.
                skey = (names, tool.format, tool.schema_key, schema_json(tool.input_schema))
                found = by_schema.get(skey)
                if found is None:
                    found = by_schema[skey] = [
                        (code, module, problem)
                        for code, module, ctx, check in by_schema_rules
                        for problem in check(tool, ctx)
                    ]
                for code, module, problem in found:
                    pending.append((code, module, problem, ts, tool))
            for code, module, ctx, check in other_rules:
                for problem in check(tool, ctx):
                    pending.append((code, module, problem, ts, tool))
            for code, module, ctx, check in peer_rules:
                for problem in check(tool, ctx, ts):
                    pending.append((code, module, problem, ts, tool))
        if not whole:
            continue
        toolsets_seen += 1
        tools_in_sets += len(ts.tools)
        if scope is None or scope.in_scope_toolset(ts.id):
            for code, module in set_rules:
                ctx = eng.context(code, (), ts.id)
                for problem in module.check(ts, ctx):
                    at = _tool_named(ts, problem.tools) or (ts.tools[0] if ts.tools else None)
                    if at is not None:
                        pending.append((code, module, problem, ts, at))
        if pair_codes and len(ts.tools) > 1:
            pairs_seen += _pair_findings(eng, ts, pair_codes, scope, pending)
    out.findings.extend(eng.stamp_all(pending))
    out.stats = {
        "toolsets": toolsets_seen,
        "tools": tools_in_sets,
        "tools_analysed": tools_seen,
        "pairs_analysed": pairs_seen,
    }
    sort_findings(out.findings, {w.toolset.id: w.toolset for w in work}.values())
    return out


def _pair_findings(
    eng: Engine, ts: Toolset, codes: list[str], scope: ScopeLike | None, sink: list[Pending]
) -> int:
    contexts = {c: eng.context(c, (), ts.id) for c in codes}
    views = pairs.analyse_toolset(ts.tools, contexts[codes[0]])
    checked = 0
    for i, j in pairs.candidates(views, intent=pairs.needs_intent(codes)):
        a, b = ts.tools[i], ts.tools[j]
        if scope is not None and not scope.in_scope_pair(ts.id, a.name, b.name):
            continue
        checked += 1
        hit = pairs.check_pair(views[i], views[j], contexts)
        if hit is not None:
            code, problem = hit
            # At the later tool, unless a diff changed only the earlier one: the finding then sits on the
            # lines the PR touched.
            at = a if scope is not None and not scope.in_scope_tool(ts.id, b.name) else b
            sink.append((code, eng.enabled[code], problem, ts, at))
    return checked


def _tool_named(ts: Toolset, names: tuple[str, ...]) -> Tool | None:
    for tool in ts.tools:
        if names and tool.name == names[-1]:
            return tool
    return None


# The order of findings in a report: (file, line, code, pointer, fingerprint), read in C.
finding_order: Callable[[Finding], tuple[str, int, str, str, str]] = attrgetter(
    "file", "line", "code", "pointer", "fingerprint"
)


def sort_findings(findings: list[Finding], toolsets: Iterable[Toolset]) -> None:
    """In `finding_order`, and those that tie on it (same-named tools on one line of a minified file) in their
    tools' order: a big toolset's slices come back in the order they were dealt to the workers, not in the
    tools' order, so the order must not depend on which worker found what."""
    place = {(ts.id, t.file, t.pointer): k for ts in toolsets for k, t in enumerate(ts.tools)}
    findings.sort(key=lambda f: place.get((f.toolset, f.file, f.tool_pointer), -1))
    findings.sort(key=finding_order)  # stable: ties keep the tools' order
