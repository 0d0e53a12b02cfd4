"""The board as an appliance: the systemd unit, its user, the status file, logging."""
