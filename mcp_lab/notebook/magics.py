"""IPython magics for typing JSON-RPC by hand: `%mcp` manages connections, `%%rpc` sends one message.

    %load_ext mcp_lab
    %mcp connect calendar                     # a known short name (probed: era set)
    %mcp connect mine -- /usr/bin/node srv.js  # any argv, named
    %%rpc calendar
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}

Theory of operation.  A `%%rpc` cell is one message typed by hand.  It goes through four steps,
each shown under the cell in this order:

1. the body becomes the exact text to send: valid JSON is compacted to the one line the stdio
   framing demands (`--meta` first merges in the `_meta` of the current revision, caller keys
   winning); with `--raw` the body is sent byte-exact, so an embedded newline really splits it;
2. the lint (`mcp_lab.wire.lint`) forecasts what the server will say, and never blocks the send;
3. `Client.send_raw` writes the text and waits, with a deadline, for the answers it implies;
4. the answer is pretty-printed together with the stderr lines the server wrote meanwhile.

The cell's value is an `Answer`: the reply as a plain dict (so the next cell can assert on
`_["error"]["code"]`), with `.all` holding every message that arrived; `mcp_lab.notebook.magics.last`
keeps it too.  Foreseeable mistakes (an unknown connection, a dead server, a bad flag) are one
`UsageError` line, not a traceback.
"""

from __future__ import annotations

import html
import json
import shlex
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.display import display

from mcp_lab.session.client import Client
from mcp_lab.wire import jsonrpc
from mcp_lab.wire import lint as lint_mod
from mcp_lab.wire.words import _

__all__ = [
    "McpMagics",
    "Answer",
    "connections",
    "last",
    "load_ipython_extension",
    "render_sent",
    "sent_bundle",
    "answer_bundle",
    "exchange",
]

# JupyterLab's output <pre> breaks words anywhere (word-break: break-all): an error message
# would wrap mid-word. Ours wrap between words, and a word longer than the line still breaks.
TEXT_WRAP = "white-space:pre-wrap;word-break:normal;overflow-wrap:break-word"
connections: dict[str, Client] = {}
last: "Answer | None" = None
# Ids sent on each connection and not yet answered (a timed-out request stays pending, which
# is exactly when the "id reused while pending" rule can bite).
_pending: dict[str, set] = {}


class Answer(dict):
    """The reply to one hand-typed message: the reply's JSON as a dict, plus what came with it.

    `.all` is every message (dict) or non-JSON stdout line (str) that arrived, in order;
    `.sent` is the exact text written; `.stderr` the server's stderr lines meanwhile;
    `.findings` the lint; `.typed` the cell's body as the learner typed it.  An empty Answer
    means nothing came back before the deadline.
    """

    def __init__(
        self,
        reply: dict | None = None,
        *,
        all: list | None = None,
        sent: str = "",
        stderr: list[str] | None = None,
        findings: list | None = None,
        timeout: float = 0.0,
    ):
        super().__init__(reply or {})
        self.all = list(all or [])
        self.sent = sent
        self.stderr = list(stderr or [])
        self.findings = lint_mod.Findings(findings or [])
        self.timeout = timeout
        self.typed = ""

    @property
    def ok(self) -> bool:
        return "result" in self

    @property
    def code(self) -> int | None:
        err = self.get("error")
        return err.get("code") if isinstance(err, dict) else None

    def text(self) -> str:
        return answer_text(self)

    def __repr__(self) -> str:
        return answer_text(self)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(answer_text(self))

    def _repr_html_(self) -> str:
        return answer_html(self)


def _pretty(item: Any) -> str:
    return item if isinstance(item, str) else json.dumps(item, indent=2, ensure_ascii=False)


def _headline(item: Any) -> str:
    if isinstance(item, str):
        return "<- stdout line that is not a JSON-RPC message (framing violation)"
    if "error" in item and isinstance(item["error"], dict):
        return f"<- error {item['error'].get('code')} (id {json.dumps(item.get('id'))})"
    if "result" in item:
        result = item["result"] if isinstance(item["result"], dict) else {}
        rid = json.dumps(item.get("id"))
        if result.get("resultType"):
            return f"<- result (id {rid}) {result['resultType']}"
        # An initialize answer (protocolVersion + capabilities) belongs to the legacy era, where
        # results carry no resultType: that is its normal shape, not a fault.
        if "protocolVersion" in result and "capabilities" in result:
            return f"<- legacy result (id {rid})"
        return f"<- result (id {rid}) [no resultType]"
    if "method" in item:
        return f"<- {item['method']}" + (" (server notification)" if "id" not in item else " (server request)")
    return "<- message"


def answer_text(a: Answer) -> str:
    out = []
    if not a.all:
        out.append(
            f"<- nothing arrived within {a.timeout:g} s"
            + (" (a notification is never answered)" if a.sent and '"id"' not in a.sent else "")
        )
    for item in a.all:
        out.append(_headline(item))
        out.append(_pretty(item))
    if a.stderr:
        out.append("server stderr meanwhile:")
        out.extend(f"  {line}" for line in a.stderr)
    return "\n".join(out)


FOLD_AFTER = 30  # lines of one answer shown before the rest folds away (HTML view only)


def answer_html(a: Answer) -> str:
    parts = []
    if not a.all:
        parts.append(f"<div><i>{html.escape(answer_text(a).splitlines()[0])}</i></div>")
    for item in a.all:
        colour = "#fce8e6" if isinstance(item, str) or "error" in item else "#e6f4ea"
        style = f"background:{colour};padding:4px;margin:2px 0;{TEXT_WRAP}"
        lines = _pretty(item).split("\n")
        shown, rest = lines[:FOLD_AFTER], lines[FOLD_AFTER:]
        # A long answer (a legacy server's whole tools/list) shows its head; the rest is one click.
        more = (
            f"<details><summary>{len(rest)} more lines, click to open</summary>"
            f"<pre style='{style}'>{html.escape(chr(10).join(rest))}</pre></details>"
            if rest
            else ""
        )
        parts.append(
            f"<div style='font-size:12px'><b>{html.escape(_headline(item))}</b></div>"
            f"<pre style='{style}'>{html.escape(chr(10).join(shown))}</pre>{more}"
        )
    if a.stderr:
        lines = "\n".join(a.stderr)
        parts.append(
            "<div style='font-size:12px'><b>server stderr meanwhile</b></div>"
            f"<pre style='background:#f1f3f4;padding:4px;margin:2px 0;{TEXT_WRAP}'>{html.escape(lines)}</pre>"
        )
    return "".join(parts)


def render_sent(text: str) -> tuple[str, str]:
    """(text/plain, text/html) of the exact text written; each physical line shown apart."""
    lines = text.split("\n")
    if len(lines) == 1:
        plain = f"-> sent 1 line:\n{text}"
    else:
        plain = f"-> sent {len(lines)} lines (the newline split the message):\n" + "\n".join(
            f"  line {i + 1}: {line}" for i, line in enumerate(lines)
        )
    rows = "".join(
        f"<div><code style='{TEXT_WRAP}'>{html.escape(line)}</code><span style='color:#888'>&#x21b5;</span></div>"
        for line in lines
    )
    head = html.escape(plain.splitlines()[0])
    return (
        plain,
        f"<div style='font-size:12px'><b>{head}</b></div><div style='background:#e8f0fe;padding:4px'>{rows}</div>",
    )


def sent_bundle(text: str) -> dict:
    plain, rich = render_sent(text)
    return {"text/plain": plain, "text/html": rich}


def answer_bundle(a: Answer) -> dict:
    return {"text/plain": answer_text(a), "text/html": answer_html(a)}


def prepare(body: str, client: Client, *, raw: bool = False, meta: bool = False) -> str:
    """The exact text a cell body becomes on the wire (without the final delimiter)."""
    if raw:
        if meta:
            raise UsageError(_("--meta rewrites the message and --raw sends it byte-exact: pick one"))
        return body[:-1] if body.endswith("\n") else body
    line, obj = lint_mod.compact(body)
    if meta and obj is not None:
        filled = lint_mod.fill_meta(obj, client.meta())
        if filled is not obj:
            line = json.dumps(filled, ensure_ascii=False, separators=(",", ":"))
    return line


def exchange(client: Client, text: str, *, timeout: float | None = None, pending: set | None = None) -> Answer:
    """Write `text`, collect the answers, and wrap them (ids answered leave `pending`)."""
    pending = set() if pending is None else pending
    ids = set()
    for part in text.split("\n"):
        try:
            m = jsonrpc.parse(part)
        except jsonrpc.ProtocolError:
            continue
        if isinstance(m, jsonrpc.Request):
            ids.add(m.id)
    before = len(client.stderr)
    got = client.send_raw(text, timeout=timeout)
    pending.update(ids)
    items = [it if isinstance(it, str) else jsonrpc.to_dict(it) for it in got]
    for it in got:
        if isinstance(it, (jsonrpc.Result, jsonrpc.Error)):
            pending.discard(it.id)
    reply = next(
        (i for i in items if isinstance(i, dict) and i.get("id") in ids and ("result" in i or "error" in i)),
        next((i for i in items if isinstance(i, dict)), None),
    )
    return Answer(
        reply,
        all=items,
        sent=text,
        stderr=client.stderr[before:],
        timeout=client.timeout if timeout is None else timeout,
    )


def _parse_flags(line: str, flags: dict[str, bool], valued: dict[str, Any]) -> list[str]:
    try:
        words = shlex.split(line)
    except ValueError as e:
        raise UsageError(_("cannot read the magic's arguments: {error}").format(error=e)) from None
    rest = []
    i = 0
    while i < len(words):
        w = words[i]
        key = w.lstrip("-").replace("-", "_")
        if w.startswith("--") and key in flags:
            flags[key] = True
        elif w.startswith("--") and key in valued:
            if i + 1 >= len(words):
                raise UsageError(_("{flag} needs a value").format(flag=w))
            try:
                valued[key] = float(words[i + 1])
            except ValueError:
                raise UsageError(
                    _("{flag} needs a number of seconds, not {given}").format(flag=w, given=repr(words[i + 1]))
                ) from None
            i += 1
        elif w.startswith("--"):
            raise UsageError(
                f"unknown option {w}; known: " + ", ".join("--" + k.replace("_", "-") for k in [*flags, *valued])
            )
        else:
            rest.append(w)
        i += 1
    return rest


def get(name: str) -> Client:
    try:
        return connections[name]
    except KeyError:
        known = ", ".join(connections) or "none yet"
        raise UsageError(
            _("no connection named {name} (open: {known}); use %mcp connect {bare}").format(
                name=repr(name), known=known, bare=name
            )
        ) from None


def connect(name: str, argv: list[str] | None = None, *, probe: bool = True, timeout: float = 5.0):
    """Open (or reopen) the connection `name`; probe its era. Returns (client, verdict or None).

    The person at the keyboard reads every answer and can type the retry of an `input_required`
    call, so this connection declares form elicitation (a bare `mcp_lab.connect` declares none).
    """
    from mcp_lab.session.connect import connect as open_client
    from mcp_lab.session.mrtr import answering
    from mcp_lab.wire.errors import McpError

    old = connections.pop(name, None)
    if old is not None:
        old.close()
    try:
        client = open_client(argv if argv else name, name=name, timeout=timeout, capabilities=answering({}))
    except (ValueError, TypeError, McpError, NotImplementedError) as e:
        raise UsageError(
            _("cannot connect {name}: {error}").format(name=repr(name), error=getattr(e, "message", None) or e)
        ) from None
    verdict = None
    if probe:
        from mcp_lab.session.probe import probe as run_probe

        try:
            verdict = run_probe(client)
        except McpError as e:
            client.close()
            raise UsageError(_("{name}: the probe failed: {error}").format(name=name, error=e.message)) from None
    connections[name] = client
    _pending[name] = set()
    return client, verdict


def _edition(args: list[str]) -> None:
    """`%mcp edition NN`: the browser edition's opener of lesson NN; nothing in the installed one."""
    if len(args) != 1:
        raise UsageError("usage: %mcp edition NN (the lesson's number, e.g. 06)")
    from mcp_lab.notebook.edition import opener

    opener(args[0])


def _needs(args: list[str]) -> None:
    """`%mcp needs WHAT`: marks a cell only the installed edition runs (see mcp_lab.notebook.edition)."""
    from mcp_lab.notebook.edition import NEEDS, needs

    if len(args) != 1 or args[0] not in NEEDS:
        raise UsageError(f"usage: %mcp needs WHAT, WHAT one of {', '.join(sorted(NEEDS))}")
    needs(args[0])


def _lang(args: list[str]) -> None:
    """`%mcp lang [en|pt-BR|auto]`: the edition this kernel speaks (mcp_lab.notebook.i18n)."""
    from mcp_lab.notebook import i18n

    if len(args) > 1:
        raise UsageError("usage: %mcp lang [en | pt-BR | auto]")
    if args:
        try:
            i18n.set_language(None if args[0] == "auto" else args[0])
        except ValueError as e:
            raise UsageError(str(e)) from None
        i18n.active_catalog()  # read the catalog now, not at the first message shown
    print(_("mcp_lab speaks {language}").format(language=i18n.language()))


@magics_class
class McpMagics(Magics):
    """`%mcp connect|list|trace|close` and `%%rpc NAME`."""

    # Long on purpose: one dispatcher for every %mcp word, each branch a few lines with its usage
    @line_magic("mcp")
    def mcp(self, line: str):
        """%mcp connect NAME [--no-probe] [--timeout S] [-- ARGV...] | list | trace NAME | close NAME | edition NN | needs WHAT | lang TAG"""
        head, sep, argv_text = line.partition(" -- ")
        if line.strip().endswith(" --") or line.strip() == "--":
            raise UsageError(_("nothing after --: give the server's argv, e.g. -- /usr/bin/node server.js"))
        flags = {"no_probe": False}
        valued = {"timeout": 5.0}
        words = _parse_flags(head, flags, valued)
        if not words:
            raise UsageError("usage: %mcp connect NAME [-- ARGV...] | %mcp list | %mcp trace NAME | %mcp close NAME")
        verb, args = words[0], words[1:]
        if verb in ("edition", "needs"):  # the browser edition's (mcp_lab.notebook.edition)
            return (_edition if verb == "edition" else _needs)(args)
        if verb == "lang":
            return _lang(args)
        if verb == "connect":
            if len(args) != 1:
                raise UsageError("usage: %mcp connect NAME [--no-probe] [--timeout S] [-- ARGV...]")
            argv = shlex.split(argv_text) if sep else None
            client, verdict = connect(args[0], argv, probe=not flags["no_probe"], timeout=valued["timeout"])
            if verdict is not None:
                display(verdict)
            else:
                print(
                    _("connected {name} (pid {pid}), era not probed").format(
                        name=repr(args[0]), pid=client.transport.describe().pid
                    )
                )
            return None
        if verb == "list":
            rows = []
            for name, c in connections.items():
                d = c.transport.describe()
                state = "running" if d.exit_code is None else f"exited ({d.exit_code})"
                rows.append((name, str(d.pid), c.era or "?", state, d.target))
            if not rows:
                print(_("no connections; use %mcp connect NAME"))
                return None
            plain = "\n".join(f"{n:<14} pid {p:<8} era {e:<7} {s:<12} {a}" for n, p, e, s, a in rows)
            rich = (
                "<table style='font-size:12px'><tr><th>name</th><th>pid</th><th>era</th><th>state</th><th>argv</th></tr>"
                + "".join(f"<tr>{''.join(f'<td>{html.escape(x)}</td>' for x in r)}</tr>" for r in rows)
                + "</table>"
            )
            display({"text/plain": plain, "text/html": rich}, raw=True)
            return None
        if verb == "trace":
            if len(args) != 1:
                raise UsageError("usage: %mcp trace NAME")
            client = get(args[0])
            display(client.trace)
            display(client.trace.mermaid())
            return None
        if verb == "close":
            if len(args) != 1:
                raise UsageError("usage: %mcp close NAME")
            if args[0] not in connections:  # closing twice (a re-run) is harmless: say so
                print(
                    _("{name} is not open (already closed?); %mcp connect {bare} opens it").format(
                        name=repr(args[0]), bare=args[0]
                    )
                )
                return None
            client = get(args[0])
            connections.pop(args[0], None)
            _pending.pop(args[0], None)
            code = client.close()
            print(_("closed {name} (exit code {code})").format(name=repr(args[0]), code=code))
            return None
        raise UsageError(
            _("unknown %mcp command {verb}: use connect, list, trace, close, edition, needs or lang").format(
                verb=repr(verb)
            )
        )

    @cell_magic("rpc")
    def rpc(self, line: str, cell: str):
        """%%rpc NAME [--raw] [--meta] [--no-lint] [--timeout S]: the cell is one JSON-RPC message."""
        global last
        flags = {"raw": False, "meta": False, "no_lint": False}
        valued = {"timeout": None}
        words = _parse_flags(line, flags, valued)
        if len(words) != 1:
            raise UsageError("usage: %%rpc NAME [--raw] [--meta] [--no-lint] [--timeout S]")
        name = words[0]
        client = get(name)
        if not cell.strip():
            raise UsageError(_("the cell is empty: type one JSON-RPC message under %%rpc"))
        text = prepare(cell, client, raw=flags["raw"], meta=flags["meta"])
        pending = _pending.setdefault(name, set())
        findings = lint_mod.Findings()
        if not flags["no_lint"]:
            findings = lint_mod.lint(text, era=client.era, pending=pending, raw=flags["raw"])
            display(findings)
        display(sent_bundle(text), raw=True)
        try:
            answer = exchange(client, text, timeout=valued["timeout"], pending=pending)
        except jsonrpc.TransportClosed as e:
            raise UsageError(
                _("{name}: {error}; reconnect with %mcp connect {name}").format(name=name, error=e.message)
            ) from None
        answer.findings = findings
        answer.typed = cell
        last = answer
        return answer


def load_ipython_extension(ipython) -> None:
    from mcp_lab.notebook import i18n

    ipython.register_magics(McpMagics)
    i18n.active_catalog()  # a Portuguese kernel reads its catalog here, so no later lookup reads a file
