"""Beyond one board: publishing games to an MQTT broker, relaying them to a live PDN.

Split by job (see docs/broadcast.md):

- `topics`: topic names and the JSON messages on them (the wire contract).
- `snapshot`: what a board publishes about its game, taken from a `Session`.
- `mqtt`: one place that builds a paho-mqtt client from a broker URL.
- `outbox`: the board's on-disk queue (ordered, numbered, survives restarts).
- `publisher`: the board side; `Publisher.update(snapshot)` is its one entry point.
- `relay_games`, `relay_files`, `relay`: the relay (assemble, write, serve).
- `spectators`: the relay's web page for spectators.
- `pairings`, `broker_config`: the organiser's tools.

Nothing here is imported by a board with no broker configured, and only the
modules that talk to the broker import paho-mqtt (the `broadcast` extra).
"""
