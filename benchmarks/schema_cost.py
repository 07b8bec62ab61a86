"""What checking one server frame against the protocol's JSON Schema costs: the whole
outbound family (a oneOf of every type) against the frame's own type (docs/benchmarks.md)."""

import time

import jsonschema

from una.engine import Game
from una.server import protocol as p

s = p.schema()
g = Game("standard", players=4, seed=1)
st = p.encode(
    p.State(
        {"code": "X"},
        {},
        1,
        "e",
        False,
        1,
        g.view_for(0).to_json(),
        [e.json_for(0) for e in g.start_events],
    )
)
for name in ("outbound", "out_state"):
    v = jsonschema.Draft202012Validator({**s, "$ref": f"#/$defs/{name}"})
    t = time.perf_counter()
    for _ in range(200):
        v.is_valid(st)
    print(name, f"{(time.perf_counter() - t) / 200 * 1000:.2f} ms per state frame")
