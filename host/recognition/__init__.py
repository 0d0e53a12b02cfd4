"""Recognition: what the recogniser reports (events.py) and how it writes a piece
(codes.py). The recogniser itself is host/explanation/ (docs/play.md)."""
