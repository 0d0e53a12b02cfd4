"""What `draughtsboard relay`'s exit status means: the project's statuses
(host/errors.py `ExitStatus`, the one place that defines them), as the relay uses them.

The relay runs as a service; its unit restarts it on failure but not on a
configuration mistake (`RestartPreventExitStatus=2`, docs/broadcast.md):

- 0 `STOPPED`: stopped on request (SIGTERM, Ctrl-C), after storing what it had;
- 2 `CONFIGURATION`: the command line, the password file, or the broker refused
  the relay's account: restarting cannot help, someone must fix it;
- 75 `CANNOT_WRITE`: it could not store or write (a full disk, a folder it may
  no longer write): what it needs is not ready, trying again later may work
  (the service restarts it), as for a board whose device is not ready;
- 1 `CRASH`: its own loop failed (a bug; the traceback is in its log); the
  service restarts it.

An unreachable broker is not an exit: the relay keeps trying, as boards do.
"""

from host.errors import ExitStatus

STOPPED = ExitStatus.OK
CONFIGURATION = ExitStatus.CONFIGURATION
CANNOT_WRITE = ExitStatus.DEVICE_NOT_READY
CRASH = ExitStatus.CRASH
