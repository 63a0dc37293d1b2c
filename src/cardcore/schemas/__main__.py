"""``python -m cardcore.schemas``: regenerate the shipped schema files next to this module."""
import os

from cardcore.schemas import write_all

if __name__ == "__main__":
    for name in write_all(os.path.dirname(os.path.abspath(__file__))):
        print(name)
