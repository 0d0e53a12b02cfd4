"""The board's web page: the simulator's hands and the companion screen (docs/web.md)."""
