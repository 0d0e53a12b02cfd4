"""One module per `draughtsboard` sub-command; each exposes `register(subparsers)`."""
