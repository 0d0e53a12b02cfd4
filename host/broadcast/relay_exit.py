"""What `draughtsboard relay`'s exit status means, in one place.

The relay runs as a service; its unit restarts it on failure but not on a
configuration mistake (`RestartPreventExitStatus=2`, docs/broadcast.md):

- 0 `STOPPED`: stopped on request (SIGTERM, Ctrl-C), after storing what it had;
- 2 `CONFIGURATION`: the command line, the password file, or the broker refused
  the relay's credentials: restarting cannot help, someone must fix it (the
  same status as every other command's usage error, host/cli.py);
- 75 `CANNOT_GO_ON`: it could not store or write (a full disk, a folder it may
  not write) or its own loop failed: restarting may help (75 is EX_TEMPFAIL of
  sysexits.h, "try again later").

An unreachable broker is not an exit: the relay keeps trying, as boards do.
"""

STOPPED = 0
CONFIGURATION = 2
CANNOT_GO_ON = 75
