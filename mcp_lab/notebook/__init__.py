"""What a person sees in Jupyter: Trace renderers, elicitation widgets and answerers, quizzes, the
``%mcp`` magics and the "MCP wire" kernel. The only layer that imports IPython and ipywidgets."""
