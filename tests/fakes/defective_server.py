"""A hand-written 2026-07-28 stdio server with one defect chosen by argv[1], for `mcp-lab check`:

none           correct: a tool, a prompt, a resource, the right error codes
schema         tools/list answers a tool without inputSchema (the schema requires one)
undeclared     serves prompts/list without declaring `prompts`
not-served     declares `resources` but answers resources/list with -32601
resource-code  answers an unknown resource with -32002 (retired: MUST NOT) -- a defect
reserved-code  answers an unknown resource with -32050 (undefined in the reserved range) -- a defect
prompt-code    answers an unknown prompt with -32603 (a SHOULD) -- a warning
empty          answers an unknown resource with empty `contents`
"""

import json
import sys

DEFECT = sys.argv[1] if len(sys.argv) > 1 else "none"
TOOL = {"name": "echo", "description": "Echo a text.", "inputSchema": {"type": "object"}}
PROMPT = {"name": "greet", "description": "A greeting."}
RESOURCE = {"uri": "mem://hello", "name": "hello", "mimeType": "text/plain"}
CACHE = {"ttlMs": 0, "cacheScope": "public"}


def caps():
    c = {"tools": {}, "resources": {}}
    if DEFECT != "undeclared":
        c["prompts"] = {}
    return c


def answer(method, params):
    if method == "server/discover":
        info = {"io.modelcontextprotocol/serverInfo": {"name": "defective", "version": "1"}}
        return {"supportedVersions": ["2026-07-28"], "capabilities": caps(), "_meta": info, **CACHE}
    if method == "tools/list":
        tool = {k: v for k, v in TOOL.items() if not (DEFECT == "schema" and k == "inputSchema")}
        return {"tools": [tool], **CACHE}
    if method == "prompts/list":
        return {"prompts": [PROMPT], **CACHE}
    if method == "prompts/get":
        if params.get("name") != "greet":
            return (-32603 if DEFECT == "prompt-code" else -32602, "Unknown prompt")
        return {"messages": [{"role": "user", "content": {"type": "text", "text": "Hello"}}]}
    if method == "resources/list":
        if DEFECT == "not-served":
            return (-32601, "Method not found")
        return {"resources": [RESOURCE], **CACHE}
    if method == "resources/templates/list":
        return {"resourceTemplates": [], **CACHE}
    if method == "resources/read":
        if params.get("uri") == RESOURCE["uri"]:
            return {"contents": [{"uri": RESOURCE["uri"], "mimeType": "text/plain", "text": "hi"}], **CACHE}
        if DEFECT == "resource-code":
            return (-32002, "Resource not found")
        if DEFECT == "reserved-code":
            return (-32050, "Resource not found")
        if DEFECT == "empty":
            return {"contents": [], **CACHE}
        return (-32602, "Resource not found")
    if method == "tools/call":
        if params.get("name") != "echo":
            return (-32602, f"Unknown tool: {params.get('name')}")
        return {"content": [{"type": "text", "text": "echo"}]}
    return (-32601, "Method not found")


for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    got = answer(msg["method"], msg.get("params") or {})
    if isinstance(got, tuple):
        out = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": got[0], "message": got[1]}}
    else:
        out = {"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete", **got}}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
