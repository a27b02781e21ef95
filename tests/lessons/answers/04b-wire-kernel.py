"""What the test-learner types in notebook 04b (wire kernel: no registry, so the predictions are
typed into the cells, after `%predict`)."""

EDITS = {
    "predict-ping": '%predict -32601\n{"jsonrpc": "2.0", "id": 30, "method": "ping"}',
    "predict-ask": (
        "%predict result\n%meta\n"
        '{"jsonrpc": "2.0", "id": 31, "method": "tools/call",\n'
        ' "params": {"name": "create_event", "arguments": {"title": "Dentist"}}}'
    ),
    "predict-unknown-resource": (
        '%predict -32602\n%meta\n{"jsonrpc": "2.0", "id": 32, "method": "resources/read", '
        '"params": {"uri": "calendar://year"}}'
    ),
}
ANSWERS: dict = {}
