"""Lab 10: o servidor de calendário que você vai consertar.

    python calendar_server.py              # stdio: uma mensagem JSON-RPC por linha
    python calendar_server.py --http 8765  # Streamable HTTP em 127.0.0.1:8765/mcp

Como vem, este é o calendário de brinquedo do notebook 09, e tem o mesmo bug: cada solicitação é
respondida corretamente por si só, mas os eventos vivem numa lista no nível do módulo, então uma escrita
dura exatamente o tempo do processo que a fez.  A verificação em 10-fix-the-calendar.ipynb roda
cada mensagem num processo novinho, e o evento criado num processo some no seguinte.

O que a especificação exige não é uma sessão: um estado que atravessa várias solicitações DEVE ser
referenciado por um identificador explícito que o cliente envia em cada solicitação (basic/index,
Statelessness).  O desenho usado aqui é a que a página de ferramentas sugere na seção Stateful Tools,
que é uma orientação não normativa: um handle, passado como um argumento comum da ferramenta e
verificado a cada chamada, sobre um estado que sobrevive a qualquer processo.  Onde esse estado vive
não é prescrito; este lab escolhe um arquivo SQLite.  A verificação espera, quando você terminar:

* calendários e eventos guardados no arquivo SQLite indicado por DB_PATH (a verificação define
  $CALENDAR_DB), uma transação por escrita (TODO 1);
* uma ferramenta `create_calendar` (sem argumentos) cujo resultado traz o novo handle no texto e
  em `structuredContent` como {"calendar": "<handle>"}; o handle é opaco e impossível de adivinhar (no
  mínimo 128 bits aleatórios), e o calendário lembra quem o criou: `caller()` (TODO 2);
* `create_event` e `list_events` recebendo esse handle como o argumento `calendar`; um handle desconhecido,
  inventado ou de outra pessoa dá um erro de execução da ferramenta (um resultado com "isError":
  true), nunca uma queda; `list_events` devolve {"events": [...]} em `structuredContent` (TODO 3).

As funções auxiliares estão completas: `caller()` (a quem este processo serve), `seal()` / `unseal()` (um
requestState assinado e com validade, com o arquivo de chave que todo processo compartilha), `ok()` /
`tool_error()`.  Assim como tudo abaixo da linha "protocol plumbing".  Resolva os marcadores TODO em ordem.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

# O calendário incluído fornece o envelope JSON-RPC (ids, respostas de erro, a verificação de `_meta`
# em cada solicitação); este arquivo fornece os métodos e as ferramentas.
from mcp_lab.servers.calendar import Refusal, check_meta, handle as handle_message, handle_line, is_datetime

SUPPORTED = ["2026-07-28"]
SERVER_INFO = {"name": "lab10-calendar", "version": "1.0.0"}
CALENDAR_TTL = 30 * 24 * 3600   # segundos que um calendário é mantido
STATE_TTL = 600                 # segundos que um requestState vale

# O banco de dados fica ao lado deste arquivo, a menos que a verificação (ou você) indique outro.
DB_PATH = os.environ.get("CALENDAR_DB") or str(Path(__file__).resolve().parent / "calendar.sqlite3")


# --- funções auxiliares que você usa (completas) ---------------------------------------------

def caller() -> str:
    """A quem este processo serve.

    A identidade precisa vir de algo que quem chama não consegue afirmar dentro de uma mensagem (arguments
    e _meta são escritos pelo cliente, a cada solicitação).  Sobre stdio o host inicia um processo
    por pessoa, então o host nomeia essa pessoa na variável de ambiente MCP_LAB_CALLER;
    sem ela, quem chama é a conta do sistema operacional que roda o processo.
    """
    return os.environ.get("MCP_LAB_CALLER", "").strip() or f"uid:{os.getuid()}"


def load_key(path: str) -> bytes:
    """A chave de assinatura que todo processo deste servidor compartilha: $CALENDAR_KEY, ou um arquivo de chave.

    O primeiro processo cria o arquivo (O_EXCL: exatamente um vence a corrida; modo 0600: só o
    dono consegue lê-lo) e todo processo seguinte o lê.
    """
    if os.environ.get("CALENDAR_KEY"):
        return os.environ["CALENDAR_KEY"].encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    except FileExistsError:
        pass
    with open(path, "rb") as f:
        return f.read().strip()


KEY = load_key(DB_PATH + ".key")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def seal(state: dict) -> str:
    """O requestState de `state`: base64url(JSON com validade) "." base64url(HMAC-SHA256)."""
    body = _b64(json.dumps({**state, "exp": time.time() + STATE_TTL}, separators=(",", ":")).encode())
    return body + "." + _b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest())


def unseal(token: Any) -> dict:
    """O que seal() selou, ou Refusal(-32602) quando este servidor não emitiu `token` exatamente assim."""
    if not isinstance(token, str) or token.count(".") != 1:
        raise Refusal(-32602, "Invalid requestState: not one this server issued")
    body, mac = token.split(".")
    if not hmac.compare_digest(_b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest()), mac):
        raise Refusal(-32602, "Invalid requestState: the signature does not match (it was changed, "
                      "or another server issued it); call the tool again without requestState")
    try:
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError):
        raise Refusal(-32602, "Invalid requestState: unreadable") from None
    if payload.pop("exp", 0) < time.time():
        raise Refusal(-32602, "Invalid requestState: it has expired; call the tool again without requestState")
    return payload


def ok(text: str, structured: Any = None) -> dict:
    """O resultado de sucesso de uma ferramenta: texto para o modelo, structuredContent para programas."""
    body = {"content": [{"type": "text", "text": text}], "isError": False}
    if structured is not None:
        body["structuredContent"] = structured
    return complete(body)


def tool_error(text: str) -> dict:
    """Uma falha que o modelo consegue ler e corrigir: um resultado com isError, não um erro de protocolo."""
    return complete({"content": [{"type": "text", "text": text}], "isError": True})


def complete(body: dict) -> dict:
    """Um resultado final: resultType "complete", e quem respondeu, em _meta."""
    return {"resultType": "complete", **body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


# --- o armazenamento: TODO 1 ---------------------------------------------------------------

# TODO 1: esta lista é o bug.  É estado de conexão disfarçado: cada processo ganha a sua própria
# cópia, preenchida do zero, e uma escrita morre com o processo.  Troque-a por tabelas no arquivo
# SQLite indicado por DB_PATH (uma tabela `calendars` com os handles e os seus donos, uma tabela `events`
# cujas linhas apontam para um calendário), e faça cada escrita dentro de uma transação (BEGIN IMMEDIATE).
def open_db(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10, isolation_level=None)   # nós mesmos dizemos BEGIN
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("BEGIN IMMEDIATE")
    db.execute("CREATE TABLE IF NOT EXISTS calendars (handle TEXT PRIMARY KEY, owner TEXT NOT NULL, "
               "expires_at REAL NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
               "calendar TEXT NOT NULL REFERENCES calendars(handle), id TEXT NOT NULL, "
               "title TEXT NOT NULL, starts_at TEXT NOT NULL, UNIQUE (calendar, id))")
    db.execute("COMMIT")
    return db


DB = open_db(DB_PATH)


def add_event(calendar: str, title: str, starts: str) -> dict:
    DB.execute("BEGIN IMMEDIATE")   # a contagem e a inserção acontecem juntas, ou não acontecem
    try:
        n = DB.execute("SELECT count(*) FROM events WHERE calendar = ?", (calendar,)).fetchone()[0] + 1
        DB.execute("INSERT INTO events (calendar, id, title, starts_at) VALUES (?, ?, ?, ?)",
                   (calendar, f"e{n}", title, starts))
        DB.execute("COMMIT")
    except BaseException:
        DB.execute("ROLLBACK")
        raise
    return {"id": f"e{n}", "title": title, "startsAt": starts}


def events_of(calendar: str) -> list[dict]:
    return [{"id": i, "title": t, "startsAt": s} for i, t, s in DB.execute(
        "SELECT id, title, starts_at FROM events WHERE calendar = ? ORDER BY seq", (calendar,))]


# --- o handle: TODO 2 e 3 ------------------------------------------------------------------

# TODO 2: acrescente uma ferramenta `create_calendar` (sem argumentos) que cria um calendário novo e vazio
# cujo dono é caller() e devolve um handle opaco e impossível de adivinhar, por exemplo "cal_" + 22
# caracteres aleatórios seguros para URL, no texto e como structuredContent {"calendar": handle}.  Diga na
# descrição dela por quanto tempo um calendário é mantido.  Depois dê a `create_event` e a `list_events` um
# argumento obrigatório `calendar`.
TOOLS = [
    {"name": "create_calendar",
     "description": ("Create an empty calendar and return its handle; pass the handle as `calendar` to the "
                     "other tools. Only you can use it. A calendar is kept for 30 days, then its handle expires."),
     "inputSchema": {"type": "object", "properties": {}}},
    {"name": "create_event",
     "description": "Create a calendar event. Writes to the calendar.",
     "inputSchema": {"type": "object", "properties": {
         "calendar": {"type": "string", "description": "The handle from create_calendar."},
         "title": {"type": "string", "description": "Event title."},
         "startsAt": {"type": "string", "format": "date-time", "description": "Start, ISO 8601 UTC."}},
         "required": ["calendar", "title"]}},
    {"name": "list_events",
     "description": "List the events of a calendar.",
     "inputSchema": {"type": "object", "properties": {
         "calendar": {"type": "string", "description": "The handle from create_calendar."}},
         "required": ["calendar"]}},
]


def create_calendar(args: dict, params: dict, caps: dict) -> dict:
    handle = "cal_" + secrets.token_urlsafe(16)
    DB.execute("INSERT INTO calendars (handle, owner, expires_at) VALUES (?, ?, ?)",
               (handle, caller(), time.time() + CALENDAR_TTL))
    return ok(f"Created calendar {handle}; pass it as `calendar` to create_event and list_events.",
              {"calendar": handle})


def refuse_handle(handle: Any) -> str | None:
    """Por que quem está chamando não pode usar `handle`, ou None quando pode."""
    # TODO 3: verifique, a cada chamada, que `handle` nomeia um calendário que este servidor emitiu, que não
    # expirou e que caller() criou: este servidor sabe quem o chama, então um handle é um
    # nome, não uma permissão (um servidor que não distingue quem chama só tem o handle: um
    # token bearer, e é por isso que ele também é longo, aleatório e expira).  Devolva o
    # motivo como uma frase ("Unknown calendar handle ...: call create_calendar for a new one",
    # "Not your calendar: ..."); as ferramentas o transformam em tool_error(reason).
    if not isinstance(handle, str):
        return "This tool needs `calendar`, the handle create_calendar returned."
    row = DB.execute("SELECT owner, expires_at FROM calendars WHERE handle = ?", (handle,)).fetchone()
    if row is None:
        return f"Unknown calendar handle {handle[:40]!r}: call create_calendar for a new one."
    if not hmac.compare_digest(row[0].encode(), caller().encode()):
        return f"Not your calendar: {handle[:40]!r} was created by another caller; call create_calendar for your own."
    if row[1] < time.time():
        return f"Calendar {handle[:40]!r} has expired: call create_calendar for a new one."
    return None


def create_event(args: dict, params: dict, caps: dict) -> dict:
    why = refuse_handle(args.get("calendar"))
    if why:
        return tool_error(why)
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        return tool_error("create_event needs a non-empty string 'title'.")
    starts = args.get("startsAt")
    if starts is None:
        state = params.get("requestState")
        answer = (params.get("inputResponses") or {}).get("when")
        if state is not None:
            args = {**args, **unseal(state)}   # os argumentos parciais selados prevalecem
        if isinstance(answer, dict):
            if answer.get("action") in ("decline", "cancel"):
                return tool_error(f"Not created: the person chose {answer['action']}.")
            content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
            if answer.get("action") == "accept" and content.get("startsAt") is not None:
                return create_event({**args, "startsAt": content["startsAt"]}, {}, caps)
        return ask_start_time(args, title, caps)
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    event = add_event(args.get("calendar"), title, starts)
    return ok(f"Created {event['id']}: {title} at {starts}", event)


def list_events(args: dict, params: dict, caps: dict) -> dict:
    why = refuse_handle(args.get("calendar"))
    if why:
        return tool_error(why)
    events = events_of(args.get("calendar"))
    return ok(json.dumps(events), {"events": events})


def ask_start_time(args: dict, title: str, caps: dict) -> dict:
    """As várias idas e voltas: perguntar à pessoa, com o que a nova tentativa precisa selado em requestState."""
    elicitation = caps.get("elicitation")
    if not isinstance(elicitation, dict) or (elicitation and "form" not in elicitation):
        raise Refusal(-32021, "create_event without startsAt must ask the person, and this request "
                      "did not declare the form elicitation capability",
                      {"requiredCapabilities": {"elicitation": {"form": {}}}})
    return {"resultType": "input_required",
            "inputRequests": {"when": {"method": "elicitation/create", "params": {
                "mode": "form", "message": f'When should "{title}" start?',
                "requestedSchema": {"type": "object",
                                    "properties": {"startsAt": {"type": "string", "format": "date-time"}},
                                    "required": ["startsAt"]}}}},
            "requestState": seal({"calendar": args.get("calendar"), "title": title}),
            "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


TOOL_HANDLERS = {"create_calendar": create_calendar, "create_event": create_event, "list_events": list_events}


# ---- protocol plumbing (infraestrutura do protocolo): os métodos da 2026-07-28; nada abaixo precisa mudar ----

def dispatch(method: str, params: dict) -> dict:
    caps = check_meta(params)   # -32602 sem as duas chaves de _meta; -32022 (com data) para outra versão
    if method == "server/discover":
        return complete({"supportedVersions": SUPPORTED, "capabilities": {"tools": {}},
                         "ttlMs": 3600000, "cacheScope": "public"})
    if method == "tools/list":
        return complete({"tools": TOOLS, "ttlMs": 300000, "cacheScope": "public"})
    if method == "tools/call":
        tool = TOOL_HANDLERS.get(params.get("name"))
        if tool is None:
            raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            raise Refusal(-32602, "tools/call arguments must be an object")
        return tool(args, params, caps)
    raise Refusal(-32601, f"Method not found: {method}")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python calendar_server.py")
    parser.add_argument("--http", type=int, metavar="PORT",
                        help="serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: any free port)")
    args = parser.parse_args()
    if args.http is not None:
        # A ligação dos servidores incluídos: o mesmo handle(), enquadrado como HTTP.  Um processo serve
        # todo cliente HTTP, então caller() é a única pessoa de MCP_LAB_CALLER (ou desta conta).
        from mcp_lab.servers.streamable_http import serve

        def answer(msg: Any) -> dict | None:
            return handle_message(msg, dispatch, name=SERVER_INFO["name"])

        serve(answer, args.http, name=SERVER_INFO["name"],
              banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}, db {DB_PATH}")
        return
    # o stdout leva só mensagens MCP; todo o resto (logs, prints de depuração) vai para o stderr.
    print(f"{SERVER_INFO['name']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in sys.stdin.buffer:
        answer = handle_line(line, lambda msg: handle_message(msg, dispatch, name=SERVER_INFO["name"]))
        if answer is not None:
            sys.stdout.buffer.write(answer)
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
