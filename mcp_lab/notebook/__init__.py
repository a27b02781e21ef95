"""What a person sees in Jupyter: Trace renderers, elicitation widgets and answerers, quizzes,
predictions, choice exercises, consent prompts, the interactions registry that knows which of
them still wait for the person, the ``%mcp`` magics and the "MCP wire" kernel. The only layer
that imports IPython and ipywidgets."""
