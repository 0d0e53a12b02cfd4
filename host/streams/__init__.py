"""Recorded sensor streams: replaying them, their switch bounce, `run --events`."""
