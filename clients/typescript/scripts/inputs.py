"""Print the inputs of the TypeScript types as one JSON object (read by generate.mjs):
the server's OpenAPI document (what ``GET /openapi.json`` serves, its ``x-websocket`` part and
``components/schemas/Ws*`` included), every game's JSON Schemas as shipped in the package
(``cardcore.schema(game, kind)``), and the shared definitions they refer to (``$defs``: Card,
Move, ZoneContents, Zone)."""
import json
import sys

from cardcore import available_games, schema
from cardcore.schema_parts import DEFS
from cardcore.schemas import KINDS
from cardcore.server.openapi import openapi_spec

json.dump({"openapi": openapi_spec(), "kinds": list(KINDS), "defs": DEFS,
           "games": {game: {kind: schema(game, kind) for kind in KINDS}
                     for game in available_games()}},
          sys.stdout, sort_keys=True)
