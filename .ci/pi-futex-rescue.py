#!/usr/bin/env python3
"""Wakes test threads lost in a priority-inheriting futex hand-over, while a test command runs.

The Linux kernel this project's machines run (6.18) was seen to hand a PI futex to a waiting thread on
FUTEX_UNLOCK_PI (the futex word then names that thread as its owner) without waking it: the thread
sleeps in FUTEX_LOCK_PI on a lock it owns, and every other thread that needs the lock waits behind it.
Under ThreadSanitizer the Swift runtime takes such a futex on every once-guarded metadata access, so
the sanitized suite stopped this way in three runs of three; Synchronization's Mutex uses the same
futexes. The state is never legitimate (a thread that asks for a lock it owns gets EDEADLK), so this
watcher looks for exactly it, four times a second, in the processes whose command line contains PATTERN,
and interrupts that one thread's system call (an attach and detach by strace): the kernel restarts the
call, sees the thread owns the lock, and it goes on. Each rescue is printed.

Usage: .ci/pi-futex-rescue.py PATTERN   (runs until killed)
"""
import os
import subprocess
import sys
import time

FUTEX = 202  # x86_64
LOCK_PI = 6
OWNER_MASK = 0x3FFFFFFF


def stuck_threads(pid):
    """The threads of `pid` asleep in FUTEX_LOCK_PI on a futex whose word names them as owner."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as f:
                fields = f.read().split()
        except OSError:
            continue
        if len(fields) < 3 or not fields[0].isdigit() or int(fields[0]) != FUTEX:
            continue
        address, op = int(fields[1], 16), int(fields[2], 16)
        if op & 0x7F != LOCK_PI:
            continue
        try:
            with open(f"/proc/{pid}/mem", "rb") as mem:
                mem.seek(address)
                word = int.from_bytes(mem.read(4), "little")
        except OSError:
            continue
        if word & OWNER_MASK == int(tid):
            yield int(tid), address


def main():
    pattern = sys.argv[1]
    me = os.getpid()
    seen = {}
    while True:
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me:
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if pattern not in command or "pi-futex-rescue" in command:
                continue
            for tid, address in stuck_threads(int(entry)):
                # Seen twice in a row (a quarter second apart): not a hand-over in progress.
                key = (int(entry), tid, address)
                if seen.get(key):
                    try:
                        subprocess.run(
                            ["timeout", "2", "strace", "-qq", "-e", "trace=none", "-o", "/dev/null", "-p", str(tid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    except OSError as error:
                        print(f"pi-futex-rescue: cannot run strace ({error})", file=sys.stderr, flush=True)
                    print(f"pi-futex-rescue: woke thread {tid} of process {entry}, asleep in FUTEX_LOCK_PI "
                          f"on a futex it owns ({address:#x})", file=sys.stderr, flush=True)
                    seen.pop(key, None)
                else:
                    seen = {k: v for k, v in seen.items() if k[0] == int(entry)}
                    seen[key] = True
        time.sleep(0.25)


if __name__ == "__main__":
    main()
