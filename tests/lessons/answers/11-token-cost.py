"""What the test-learner does in notebook 11, and the facts checked after each cell.

It predicts the wrong costliest tool on purpose, and types a roots declaration for the task
(any declaration the reference server has a tool for will do).  The AFTER checks are the asserts
the lesson used to show: a server that changes makes the run stop at the claim no longer true.
"""

ANSWERS = {"priciest-tool": "simulate-research-query"}
TRUTH = {"priciest-tool": "gzip-file-as-resource"}
EDITS = {"grow": 'my_capabilities = {"roots": {}}'}
AFTER = {
    "7ae4d56e": "assert enc.encode('hello world') == [24912, 2375], 'two tokens, the ids tiktoken gives'",
    "c472c0a4": (
        "assert guess.held is False\n"
        "assert (ref.era, ref.protocol_version) == ('legacy', '2025-11-25'), 'probed, then initialize'"
    ),
    "4b15c101": "assert ref.tools_total == sum(t.tokens for t in ref.tools) + ref.framing_tokens",
    "compare-figures": "assert measured == RECORDED, 'this machine measures what was recorded'",
    "renderings": "assert total_with() == ref.tools_total > total_with(**COMPACT), 'recorded; compact: less'",
    "envelope": 'assert envelope == len(\'{"result":,"jsonrpc":"2.0","id":}\') + len(str(listed.id))',
    "with-elicitation": (
        "counts = (len(bare_names), len(after_names), len(with_elicitation.tools))\n"
        "assert counts == (12, 13, 14), 'the catalog grows with the handshake and the declaration'"
    ),
    "2951f8f2": "assert [c.era for c in at_hand.servers] == ['modern', 'modern', 'legacy']",
    "8a6d0a67": "assert five.total == 5 * ref.total == 8095, 'five times one server'",
    "jit-three": (
        "dearest = sorted((t.tokens for c in five.servers for t in c.tools), reverse=True)[:3]\n"
        "assert jit.jit_total == S + sum(dearest) + five.instructions_tokens, 'the formula'"
    ),
    "f7b21d2a": "assert task.jit_total == S + task.loaded_tokens + at_hand.instructions_tokens",
    "8de439f2": (
        "lean = five.just_in_time(3, keep_instructions=False)\n"
        "assert lean.saved == jit.saved + five.instructions_tokens, 'dropping instructions saves all'"
    ),
    "97380e96": (
        "for n in range(1, 6):\n"
        "    j = tokens.fleet([ref] * n).just_in_time(3, keep_instructions=False)\n"
        "    assert j.jit_total <= S + 3 * ref.costliest.tokens, 'jit stays bounded'"
    ),
    "2df708e7": "assert 'never make tool use decisions based on ToolAnnotations' in note",
    "not-in-catalog": "assert named and not named & set(tools), 'recommends tools this client never got'",
}
