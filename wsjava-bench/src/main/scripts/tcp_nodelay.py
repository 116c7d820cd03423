#!/usr/bin/env python3
"""Reads TCP_NODELAY on another process's established TCP sockets that have one end on a port.

The suite's contract check: a library's documentation says what it sets; this reads what its
process actually has. It duplicates each matching socket from the target process with
pidfd_getfd(2) (Linux 5.6+, needs ptrace rights over the target: the same user without Yama, or
root), reads the option on the duplicate, and closes the duplicate (the target's socket is not
touched). Usage: tcp_nodelay.py PID PORT. Prints one line per socket:
    SOCKET local=PORT remote=PORT nodelay=0|1
or ERROR and a reason, with exit status 1.
"""
import ctypes
import os
import socket
import sys

SYS_PIDFD_GETFD = 438  # x86_64 and aarch64 alike


def sockets(pid, port):
    """Inode -> (local port, remote port) of established sockets with either end on port."""
    found = {}
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{table}") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    local = int(fields[1].rsplit(":", 1)[1], 16)
                    remote = int(fields[2].rsplit(":", 1)[1], 16)
                    if fields[3] == "01" and port in (local, remote):  # 01: ESTABLISHED
                        found[fields[9]] = (local, remote)
        except FileNotFoundError:
            pass
    return found


def main():
    pid, port = int(sys.argv[1]), int(sys.argv[2])
    wanted = sockets(pid, port)
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue  # closed meanwhile
            inode = link[len("socket:["):-1] if link.startswith("socket:[") else None
            if inode not in wanted:
                continue
            copy = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(fd), 0)
            if copy < 0:
                print("ERROR pidfd_getfd: " + os.strerror(ctypes.get_errno()))
                return 1
            try:
                s = socket.socket(fileno=copy)
                nodelay = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                s.detach()
            finally:
                os.close(copy)
            local, remote = wanted[inode]
            print(f"SOCKET local={local} remote={remote} nodelay={1 if nodelay else 0}")
    finally:
        os.close(pidfd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
