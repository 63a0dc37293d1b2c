"""The message catalogs (cardcore.i18n): extract the templates from the code, update the
translations, compile them.

    python tests/i18n_catalogs.py           # rewrite every messages.pot and update every .po
    python tests/i18n_catalogs.py --check   # exit 1 if a template is out of date (tests do it)

A catalog's msgids are the texts marked in its package's Python files (``_()``, ``N_()``,
``ngettext()``, extracted with Babel), in its web files (``t()``, ``tx()``, ``N_()`` in the
JavaScript, Babel's JavaScript extractor; ``data-i18n`` elements of the pages) plus the texts a game declares that its package shows
(``runtime_messages``: the breakdown rows' words, the round word, the score direction, the
phases, the options' meanings). The shared catalog (``src/cardcore/locale``) takes the marked texts of
the modules outside the games. New msgids reach each ``<lang>/LC_MESSAGES/messages.po``
untranslated (tests/test_i18n_catalogs.py then fails until they are translated); setup.py
compiles the ``.po`` files to ``.mo``.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cardcore"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
# P_ marks a sentence said of a person: extracted in both contexts of cardcore.narrate.personal.
PERSONAL = {"P_": None}
PERSON_CONTEXTS = ("you", "they")
JS_KEYWORDS = {"t": None, "tx": None, "N_": None, "tn": (1, 2)}   # tn: a plural text
TRANSLATED = ("ru",)


def packages() -> dict[str, tuple[Path, list[Path]]]:
    """Catalog name -> (its locale folder, the Python files whose marked texts it holds)."""
    static = SRC / "server" / "static"
    shared = [p for p in sorted(SRC.glob("*.py"))] + sorted(static.glob("*.js")) + sorted(static.glob("*.html"))
    shared += sorted((SRC / "server").glob("*.py"))     # pages the server writes (howto.py)
    shared += sorted((SRC / "server" / "routes").glob("*.py"))  # and the refusals of its routes
    shared += sorted((SRC / "agents").glob("*.py"))     # the text agents are given
    found = {"cardcore": (SRC / "locale", shared)}
    for game in sorted(p for p in (SRC / "games").iterdir() if (p / "words.py").is_file()):
        found[f"cardcore.games.{game.name}"] = (
            game / "locale", sorted(game.glob("*.py")) + sorted((game / "web").glob("*.js")))
    return found


def extract_pages(fileobj, keywords, comment_tags, options):
    """Babel extractor for the pages: each ``data-i18n`` element's text is a msgid."""
    import re
    text = fileobj.read().decode("utf-8")
    for m in re.finditer(r"<(\w+)[^>]*\bdata-i18n\b(?!-)[^>]*>([^<]+)</\1>", text):
        yield text[:m.start()].count("\n") + 1, None, m.group(2).strip(), []
    for m in re.finditer(r'aria-label="([^"]+)"[^>]*\bdata-i18n-label\b', text):
        yield text[:m.start()].count("\n") + 1, None, m.group(1), []


def runtime_messages(package: str) -> list[str]:
    """Texts a game's package shows that are not marked in its Python files."""
    if package == "cardcore":
        return []
    from cardcore.registry import game_classes
    cls = next(c for c in game_classes() if c.__module__ == package)
    state = cls(seed=0)._state
    texts = list(type(state).breakdown_what) + [cls.round_name, cls.score_direction]
    # The score table's words with the round in them (the web table's words.js roundTexts).
    texts += [f"Totals after each {cls.round_name}",
              f"One row per {cls.round_name}, as the {cls.round_name}s end."]
    texts += list(cls.phases)                              # the stage of a turn, in a header
    texts += [o.doc for o in cls.options_spec.values() if o.doc]
    texts += [cls.title] + [name.replace("_", " ") for name in cls.options_spec]   # the lobby
    # The lobby shows an option's values in words too ("face" -> «по номиналу»).
    texts += [v for schema in cls.option_schema().values() for v in schema.get("enum", [])
              if isinstance(v, str)]
    return texts


def template(package: str, files: list[Path]) -> Catalog:
    catalog = Catalog(project="cardcore", domain="messages", fuzzy=False)
    for path in files:
        method, keywords = {".py": ("python", KEYWORDS), ".js": ("javascript", JS_KEYWORDS),
                            ".html": (extract_pages, {})}[path.suffix]
        # parse_template_string: t() inside a JavaScript `...${t("...")}...` is found too.
        for lineno, message, _comments, context in extract_from_file(
                method, str(path), keywords=keywords, comment_tags=(),
                options={"parse_template_string": True} if path.suffix == ".js" else None):
            plural = (isinstance(message, tuple) and len(message) == 2
                      and all(isinstance(m, str) for m in message))
            if isinstance(message, tuple) and path.suffix != ".py" and not plural:
                raise SystemExit(f"{path}:{lineno}: a web text must be one string: {message}")
            catalog.add(message, None, [(path.relative_to(ROOT).as_posix(), lineno)],
                        context=context)
        if path.suffix == ".py":
            for lineno, message, _comments, _context in extract_from_file(
                    "python", str(path), keywords=PERSONAL, comment_tags=()):
                for person in PERSON_CONTEXTS:
                    catalog.add(message, None, [(path.relative_to(ROOT).as_posix(), lineno)],
                                context=person)
    for text in runtime_messages(package):
        if text not in catalog:
            catalog.add(text, None, [("(declared by the game)", 0)])
    return catalog


def msgids(catalog: Catalog) -> set:
    """Each entry's (msgctxt, msgid): one English text may have two meanings."""
    return {(m.context, m.id) for m in catalog if m.id}


def main(argv: list[str]) -> int:
    stale = []
    for package, (locale, files) in packages().items():
        fresh = template(package, files)
        pot = locale / "messages.pot"
        if "--check" in argv:
            with open(pot, "rb") as f:
                if msgids(read_po(f)) != msgids(fresh):
                    stale.append(str(pot.relative_to(ROOT)))
            continue
        locale.mkdir(exist_ok=True)
        with open(pot, "wb") as f:
            write_po(f, fresh, sort_output=True, width=100, no_location=True)
        for lang in TRANSLATED:
            po = locale / lang / "LC_MESSAGES" / "messages.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            if po.exists():
                with open(po, "rb") as f:
                    catalog = read_po(f, locale=lang)
            else:
                catalog = Catalog(locale=lang, project="cardcore", domain="messages")
            catalog.update(fresh, no_fuzzy_matching=True)
            catalog.obsolete.clear()                      # a removed text leaves the catalog
            with open(po, "wb") as f:
                write_po(f, catalog, sort_output=True, width=100, no_location=True)
    if stale:
        print("out of date (run python tests/i18n_catalogs.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    # Run as a script from a checkout: its cardcore. Called by a test, main() leaves sys.path
    # alone (a test run against an installed wheel would else import the checkout's sources
    # in every process spawned after it).
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main(sys.argv[1:]))
