"""A fixture lab's tool.

    python tool.py    # prints the answer
"""


def answer() -> int:
    """The answer the lab asks for."""
    # TODO: return the answer
    ### BEGIN STUB
    return 0
    ### END STUB
    ### BEGIN SOLUTION
    return 42  # the answer
    ### END SOLUTION


if __name__ == "__main__":
    print(answer())
