"""A live game's runtime: the asyncio loop, the board it is played on, the update bus,
and the state every watcher reads.
"""
