"""The review of a finished game: the engine's view of every position, the player's
mistakes, a summary per player, computed once in the background and kept beside the game.

Modules, one job each: `analysis` (search every position to a fixed node budget),
`classify` (inaccuracies, mistakes and blunders from the evaluation's swing),
`games` (which game a review is of: a saved game, an upload, the game just finished),
`store` (the analysis kept beside the game, keyed by the game's content),
`worker` (the low-priority search process) and `service` (the queue that feeds it and
pauses it while a game is being played). The page's routes are `host/web/review_routes.py`;
`draughtsboard analyse --game FILE` runs the same analysis from the command line.
"""
