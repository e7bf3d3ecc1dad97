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

Finding such a thread reads /proc/PID/task/TID/syscall and /proc/PID/mem, and waking it attaches
strace: all three need ptrace access, which a CI sandbox may deny (a denied read looks like no stuck
thread). So, given LOG (the test command's output), the watcher also stops and continues the matching
processes (SIGSTOP, SIGCONT: only the right to signal them is needed) whenever LOG has not grown for
QUIET seconds: a group stop wakes every sleeping thread the way an attach does, and every other call
restarts unchanged. A CI run whose sanitized suite stalled for 40 minutes this way (no test ended) is
why; locally, with ptrace, the same suite ends in about 250 s.

Usage: .ci/pi-futex-rescue.py PATTERN [LOG [QUIET]]   (runs until killed; QUIET defaults to 20)
"""
import os
import signal
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


def matching_processes(pattern, me, program_only=False):
    """The processes whose command line (or, with `program_only`, program path) contains `pattern`
    (not this watcher)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                arguments = f.read().split(b"\0")
            command = b" ".join(arguments[:1] if program_only else arguments).decode(errors="replace")
        except OSError:
            continue
        if pattern in command and "pi-futex-rescue" not in command:
            yield int(entry)


def log_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return -1


def main():
    pattern = sys.argv[1]
    log = sys.argv[2] if len(sys.argv) > 2 else None
    quiet = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    me = os.getpid()
    seen = {}
    last_size, last_growth = (log_size(log) if log else 0), time.monotonic()
    while True:
        for pid in matching_processes(pattern, me):
            for tid, address in stuck_threads(pid):
                # Seen twice in a row (a quarter second apart): not a hand-over in progress.
                key = (pid, tid, address)
                if seen.get(key):
                    try:
                        subprocess.run(
                            ["timeout", "2", "strace", "-qq", "-e", "trace=none", "-o", "/dev/null", "-p", str(tid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    except OSError as error:
                        print(f"pi-futex-rescue: cannot run strace ({error})", file=sys.stderr, flush=True)
                    print(f"pi-futex-rescue: woke thread {tid} of process {pid}, asleep in FUTEX_LOCK_PI "
                          f"on a futex it owns ({address:#x})", file=sys.stderr, flush=True)
                    seen.pop(key, None)
                else:
                    seen = {k: v for k, v in seen.items() if k[0] == pid}
                    seen[key] = True
        if log:
            size = log_size(log)
            if size != last_size:
                last_size, last_growth = size, time.monotonic()
            elif time.monotonic() - last_growth >= quiet:
                for pid in matching_processes(pattern, me, program_only=True):
                    try:
                        os.kill(pid, signal.SIGSTOP)
                        time.sleep(0.05)
                    finally:
                        os.kill(pid, signal.SIGCONT)
                    print(f"pi-futex-rescue: no output for {quiet:.0f} s: stopped and continued process {pid} "
                          "(wakes a thread lost in a PI-futex hand-over where ptrace is denied)",
                          file=sys.stderr, flush=True)
                last_growth = time.monotonic()
        time.sleep(0.25)


if __name__ == "__main__":
    main()
