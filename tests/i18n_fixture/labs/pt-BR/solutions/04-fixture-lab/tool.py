"""A ferramenta de um lab de teste.

    python tool.py    # imprime a resposta
"""


def answer() -> int:
    """A resposta que o lab pede."""
    # TODO: devolva a resposta
    return 42  # a resposta


if __name__ == "__main__":
    print(answer())
