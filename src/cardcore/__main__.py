"""``python -m cardcore``: the same as the ``cardcore`` command."""
import sys

from cardcore.cli import main

if __name__ == "__main__":
    sys.exit(main())
