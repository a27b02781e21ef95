"""Lab 08 (pergunte à pessoa): um servidor de reserva de salas cuja única ferramenta precisa perguntar à pessoa.

    python server.py              # stdio: uma mensagem JSON-RPC por linha (a verificação do lab o inicia assim)
    python server.py --http PORT  # Streamable HTTP em 127.0.0.1:PORT/mcp (por onde entra a suíte de conformidade)

A ferramenta `book_room(startsAt)` reserva uma sala de reunião, mas a sala é escolha da pessoa, não
do modelo.  Na revisão 2026-07-28 um servidor nunca envia uma solicitação ao cliente, então a ferramenta
responde à primeira chamada com um resultado *provisório*,

    {"resultType": "input_required",
     "inputRequests": {"room": {"method": "elicitation/create", "params": {...a form...}}},
     "requestState": "<opaque, signed>"}

e o cliente chama `book_room` de novo -- uma solicitação nova, com um id novo -- levando a resposta
da pessoa em `inputResponses.room` e o `requestState` devolvido sem alteração.  Essa segunda solicitação
precisa poder ser respondida por QUALQUER processo deste servidor: tudo de que ela precisa viaja na mensagem.

O que a verificação do lab espera (o contrato desta ferramenta):

* primeira chamada, quando a solicitação declara elicitation por formulário: o resultado provisório acima; o
  formulário pede uma propriedade obrigatória, "room", cujo `enum` lista as salas livres;
* primeira chamada sem elicitation por formulário em `clientCapabilities`: o erro JSON-RPC -32021 com
  `data.requiredCapabilities` = {"elicitation": {"form": {}}};
* nova tentativa com "accept" e uma sala que foi oferecida: "Booked <room> at <startsAt>." (não um erro);
* nova tentativa com "decline" ou "cancel": um resultado com "isError": true que diz isso (sem reserva);
* nova tentativa sem resposta sob "room": a pergunta de novo (um novo input_required), não um erro;
* um requestState que este servidor não emitiu, ou que foi alterado: recusado (-32602).

Resolva os marcadores TODO em `book_room` e `ask_for_room`; todo o resto está completo.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import sys
from typing import Any

# O calendário incluído fornece as regras do envelope de cada solicitação (a verificação de `_meta`, o
# formato de erro JSON-RPC); este arquivo acrescenta uma ferramenta por cima delas.
from mcp_lab.servers.calendar import Refusal, check_meta, dump_line as dump, error, is_datetime

SERVER_INFO = {"name": "lab08-rooms", "version": "0.1.0"}
FREE_ROOMS = ["Aurora", "Borealis", "Cosmos"]

# Todo processo deste servidor precisa compartilhar a chave, senão uma nova tentativa que caísse em outro processo
# não conseguiria verificar o estado.  Um servidor real a carrega de um cofre de segredos; o lab a lê do
# ambiente, com um valor padrão fixo, para que `python server.py` simplesmente funcione.
SECRET = os.environ.get("LAB08_SECRET", "lab-08-not-a-real-secret").encode()

TOOL = {
    "name": "book_room",
    "description": "Book a meeting room. Asks the person which room.",
    "inputSchema": {
        "type": "object",
        "properties": {"startsAt": {"type": "string", "format": "date-time",
                                    "description": "Start of the meeting, ISO 8601 UTC."}},
        "required": ["startsAt"],
    },
}

# O formulário que a pessoa preenche: um objeto plano de propriedades primitivas (regra da elicitation).
ROOM_FORM = {
    "type": "object",
    "properties": {"room": {"type": "string", "title": "Room", "enum": FREE_ROOMS}},
    "required": ["room"],
}


# --- funções auxiliares que você usa (completas) ---------------------------------------------

def complete(body: dict) -> dict:
    """Um resultado final: resultType "complete", e quem respondeu em _meta."""
    return {"resultType": "complete", **body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


def tool_error(text: str) -> dict:
    """Uma falha da própria ferramenta: um resultado normal que o modelo consegue ler, com isError true."""
    return complete({"content": [{"type": "text", "text": text}], "isError": True})


def declares_form_elicitation(caps: dict) -> bool:
    """ESTA solicitação declarou que o seu cliente consegue mostrar um formulário?  ({} sob elicitation quer dizer formulário.)"""
    e = caps.get("elicitation")
    return isinstance(e, dict) and (not e or isinstance(e.get("form"), dict))


def seal(state: dict) -> str:
    """O requestState de `state`: JSON em base64 mais um HMAC, para que uma cópia alterada seja detectada."""
    body = base64.urlsafe_b64encode(json.dumps(state, separators=(",", ":")).encode()).decode()
    tag = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{tag}"


def unseal(token: Any) -> dict:
    """O estado que um requestState carrega, ou Refusal(-32602) se este servidor não o emitiu exatamente assim."""
    if not isinstance(token, str) or token.count(".") != 1:
        raise Refusal(-32602, "Invalid requestState: missing, or not one this server issued")
    body, tag = token.split(".")
    expected = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(tag, expected):
        raise Refusal(-32602, "Invalid requestState: the signature does not match (changed, or not issued here)")
    try:
        return json.loads(base64.urlsafe_b64decode(body))
    except (binascii.Error, ValueError):
        raise Refusal(-32602, "Invalid requestState: unreadable") from None


# --- a ferramenta --------------------------------------------------------------------------

def ask_for_room(starts: str) -> dict:
    """O resultado provisório: a pergunta sob "room" e, selado, o que a nova tentativa precisa saber."""
    # TODO 2: devolva o resultado provisório: resultType "input_required", inputRequests com uma
    #   entrada sob a chave "room" (um {"method": "elicitation/create", "params": {...}} simples cujos
    #   params tragam mode "form", uma mensagem e ROOM_FORM como requestedSchema), e um requestState
    #   feito com seal({...}) guardando o que a nova tentativa precisa saber (a ferramenta, startsAt, as salas).
    # YOUR CODE HERE
    raise NotImplementedError("TODO 2 in ask_for_room: answer with resultType input_required")


def book_room(args: dict, params: dict, caps: dict) -> dict:
    starts = args.get("startsAt")
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    responses = params.get("inputResponses")
    state = params.get("requestState")

    if responses is None and state is None:
        # Primeira rodada: nada foi perguntado ainda.
        # TODO 1: um servidor nunca deve pedir um tipo de entrada que a solicitação não declarou.
        #   Se `declares_form_elicitation(caps)` for falso, recuse a solicitação: lance
        #   Refusal(code, message, data) com o código de capacidade do cliente ausente e
        #   data {"requiredCapabilities": <a capabilities object naming what is missing>}
        #   (um objeto de capacidades que diga o que falta).
        # YOUR CODE HERE
        return ask_for_room(starts)

    # TODO 3: a nova tentativa.  Não acredite em nada que o cliente mandou de volta:
    #   - unseal(state) verifica o requestState (ele mesmo lança o Refusal certo) e
    #     devolve o que você selou; confira que ele foi emitido para esta chamada (mesmo startsAt);
    #   - a resposta da pessoa é responses["room"], um ElicitResult {"action", "content"?};
    #     quando não houver nenhuma (um inputResponses vazio, por exemplo), pergunte de novo: devolva
    #     ask_for_room(starts), um novo input_required, em vez de um erro;
    #   - "decline" e "cancel" encerram a chamada com tool_error(...) dizendo qual foi;
    #   - "accept" reserva content["room"] se for uma das salas que você ofereceu, respondendo
    #     complete({"content": [{"type": "text", "text": f"Booked {room} at {starts}."}], ...}).
    # YOUR CODE HERE
    raise NotImplementedError("TODO 3 in book_room: finish the call from inputResponses and requestState")


# --- infraestrutura do protocolo (completa; no estilo de despacho do calendário) --------------

def _tools_call(params: dict, caps: dict) -> dict:
    if params.get("name") != TOOL["name"]:
        raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}")
    args = params.get("arguments") or {}
    if not isinstance(args, dict):
        raise Refusal(-32602, "tools/call arguments must be an object")
    return book_room(args, params, caps)


HANDLERS = {
    "server/discover": lambda p, c: complete({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                                              "ttlMs": 3600000, "cacheScope": "public"}),
    "tools/list": lambda p, c: complete({"tools": [TOOL], "ttlMs": 300000, "cacheScope": "public"}),
    "tools/call": _tools_call,
}


def handle(msg: Any) -> dict | None:
    """Entra uma mensagem decodificada, sai um dict de resposta (None para uma notificação)."""
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
        return error(None, -32600, "Invalid Request: not a JSON-RPC 2.0 request")
    if "id" not in msg:
        return None
    rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        return error(None, -32600, "Invalid Request: id must be a string or an integer, never null")
    try:
        if method not in HANDLERS:
            raise Refusal(-32601, f"Method not found: {method}")
        return {"jsonrpc": "2.0", "id": rid, "result": HANDLERS[method](params, check_meta(params))}
    except Refusal as r:
        return error(rid, r.code, r.message, r.data)
    except Exception as e:  # um bug custa uma resposta, nunca o processo; o log diz onde
        import traceback
        traceback.print_exc(file=sys.stderr)
        return error(rid, -32603, f"Internal error: {type(e).__name__}: {e}")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv:   # `python server.py --http PORT`: o mesmo handle(), sobre a ligação HTTP do curso
        import argparse
        parser = argparse.ArgumentParser(prog="python server.py")
        parser.add_argument("--http", type=int, required=True, metavar="PORT",
                            help="serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio")
        from mcp_lab.servers.streamable_http import serve
        serve(handle, parser.parse_args(argv).http, name=SERVER_INFO["name"])
        return
    print(f"{SERVER_INFO['name']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in sys.stdin.buffer:
        try:
            answer = handle(json.loads(line))
        except ValueError:
            answer = error(None, -32700, "Parse error: the line is not valid JSON")
        if answer is not None:
            sys.stdout.buffer.write(dump(answer))
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
