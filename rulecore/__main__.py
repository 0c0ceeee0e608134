"""``python -m rulecore``: the command line (see :mod:`rulecore.cli`)."""

from rulecore.cli import entry

if __name__ == "__main__":
    entry()
