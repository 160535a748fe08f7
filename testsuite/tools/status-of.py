#!/usr/bin/env python3
"""status-of.py FILE COMMAND...: runs COMMAND, writes to FILE "exit N" or
"signal N core C" (C: whether a core was dumped; cores are allowed when
WANT_CORE=yes); COMMAND starts with the terminating signals at their
default action, unblocked, and with signal IGNORE_SIGNAL ignored, if set."""
import os, resource, signal, sys
pid = os.fork()
if pid == 0:
    if os.environ.get("WANT_CORE") == "yes":
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    # The terminating signals at their default, unblocked, whatever this
    # shell inherited (nohup, a background job ignores INT and QUIT) or
    # Python set (it ignores PIPE and XFSZ).
    for name in ("HUP", "INT", "QUIT", "TERM", "USR1", "USR2", "ALRM",
                 "PIPE", "XCPU", "XFSZ", "VTALRM", "PROF"):
        signal.signal(getattr(signal, "SIG" + name), signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if os.environ.get("IGNORE_SIGNAL"):
        signal.signal(int(os.environ["IGNORE_SIGNAL"]), signal.SIG_IGN)
    os.execvp(sys.argv[2], sys.argv[2:])
_, status = os.waitpid(pid, 0)
with open(sys.argv[1], "w") as out:
    if os.WIFSIGNALED(status):
        out.write("signal %d core %d\n" % (os.WTERMSIG(status), bool(os.WCOREDUMP(status))))
    else:
        out.write("exit %d\n" % os.WEXITSTATUS(status))
