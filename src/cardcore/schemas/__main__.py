"""``python -m cardcore.schemas``: regenerate the shipped schema files, each in its game's
package (``cardcore/games/<game>/schemas/<kind>.json``)."""
from cardcore.schemas import write_all

if __name__ == "__main__":
    for path in write_all():
        print(path)
