"""The draughtsboard application: turns sensed occupancy into moves with `engine`,
lights hints through `hardware`, journals games and announces results."""
