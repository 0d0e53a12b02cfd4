"""The games on disk: the journal and the games rebuilt from it."""
