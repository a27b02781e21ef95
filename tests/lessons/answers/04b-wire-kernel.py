"""What the test-learner types in notebook 04b (wire kernel: no registry, so the predictions are
typed into the cells, after `%predict`; one of them deliberately wrong, as a learner's might be).

TRUTH is keyed by the `%predict` cell's id: the code (or "result") its answer carries.  The
harness cannot read it on this kernel; tests/test_wire_kernel.py checks each one against the
real reply, and tests/test_predict_then_see.py that none is on screen before the learner writes
a prediction (the kernel's own waiting text included)."""

EDITS = {
    "predict-ping": '%predict -32601\n{"jsonrpc": "2.0", "id": 30, "method": "ping"}',
    "predict-ask": (
        "%predict result\n%meta\n"
        '{"jsonrpc": "2.0", "id": 31, "method": "tools/call",\n'
        ' "params": {"name": "create_event", "arguments": {"title": "Dentist"}}}'
    ),
    "predict-unknown-resource": (
        '%predict -32002\n%meta\n{"jsonrpc": "2.0", "id": 32, "method": "resources/read", '
        '"params": {"uri": "calendar://year"}}'
    ),
    "predict-sdk-ping": '%predict -32601\n{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
}
ANSWERS: dict = {}
TRUTH = {
    "predict-ping": "-32601",
    "predict-ask": "result",
    "predict-unknown-resource": "-32602",
    "predict-sdk-ping": "-32602",
}
