"""The debugger's line protocol (see debugger/README.md) from a front end's
side: a host program started under it, and how a drive script that uses it
(args_drive.py, queues_drive.py) reads it and fails."""
import os
import socket
import subprocess
import sys

DEADLINE = 240  # seconds: only to end a run that is stuck, never a measure


def fail(msg, log):
    """Shows the end of the protocol log and exits with msg."""
    sys.stdout.write("".join(log[-80:]))
    print("FAIL: " + msg)
    sys.exit(1)


def start(argv):
    """Starts argv (its output and errors on a pipe) with the line protocol
    on a socket of its own: the program, and the front end's side of the
    socket as an unbuffered file."""
    ours, theirs = socket.socketpair()
    fd = theirs.fileno()

    def child_env():  # runs in the child, so getpid() is the program's pid
        os.environ["LOCKSTEP_DEBUG_FD"] = "%d:%d" % (fd, os.getpid())

    host = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            pass_fds=(fd,), preexec_fn=child_env)
    theirs.close()
    return host, ours.makefile("rwb", buffering=0)


def next_line(f, log):
    """The next line the debugger sends on f, logged and without its
    newline, a sync already acknowledged; None when the program ended."""
    line = f.readline()
    if not line:
        return None
    line = line.decode(errors="replace").rstrip("\n")
    log.append(line + "\n")
    if line == "sync":
        f.write(b"ack\n")
    return line
