#!/usr/bin/env python3
"""Runs a program on a pseudo-terminal and plays a script of keys against it, as a person would.

    drive.py [--cols N] [--rows N] -- PROGRAM ARG...

The script is a JSON list on standard input; each step is one of:
    {"send": "text"}                  writes the text (keys: "\\u001b[A" is up, "\\u000c" ctrl-L)
    {"expect": "text", "timeout": 10} waits until the output, after the last match, holds the text
    {"sleep": 0.2}                    waits
    {"mark": "name"}                  notes the time, for "exit_after"
    {"exit": 10}                      waits for the program to end (at most this many seconds)
It prints one JSON object: {"ok", "error", "transcript", "status", "exit_after": {mark: seconds}}.
"""
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
import fcntl


def main():
    args = sys.argv[1:]
    cols, rows = 80, 24
    while args and args[0] != "--":
        if args[0] == "--cols":
            cols = int(args[1])
        elif args[0] == "--rows":
            rows = int(args[1])
        args = args[2:]
    program = args[1:]
    steps = json.load(sys.stdin)

    pid, master = pty.fork()
    if pid == 0:
        os.execvp(program[0], program)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    transcript = bytearray()
    position = 0
    marks = {}
    result = {"ok": True, "error": None, "status": None, "exit_after": {}}

    def pump(timeout):
        ready, _, _ = select.select([master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(master, 65536)
        except OSError:
            return False
        if not data:
            return False
        transcript.extend(data)
        return True

    def reap(block):
        try:
            done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return True
        if done == 0:
            return False
        result["status"] = os.waitstatus_to_exitcode(status)
        return True

    try:
        for step in steps:
            if "send" in step:
                os.write(master, step["send"].encode())
            elif "sleep" in step:
                end = time.monotonic() + step["sleep"]
                while time.monotonic() < end:
                    pump(max(0, end - time.monotonic()))
            elif "mark" in step:
                marks[step["mark"]] = time.monotonic()
            elif "expect" in step:
                wanted = step["expect"].encode()
                end = time.monotonic() + step.get("timeout", 10)
                while True:
                    found = transcript.find(wanted, position)
                    if found >= 0:
                        position = found + len(wanted)
                        break
                    if time.monotonic() > end or not pump(min(0.05, max(0, end - time.monotonic()))):
                        if transcript.find(wanted, position) >= 0:
                            continue
                        raise RuntimeError("expected %r" % step["expect"])
            elif "exit" in step:
                end = time.monotonic() + step["exit"]
                while not reap(False):
                    if time.monotonic() > end:
                        raise RuntimeError("still running after %ss" % step["exit"])
                    pump(0.001)
                now = time.monotonic()
                result["exit_after"] = {name: now - at for name, at in marks.items()}
                while pump(0.05):
                    if not select.select([master], [], [], 0)[0]:
                        break
    except Exception as error:  # noqa: BLE001 - any failure is reported, with what was seen
        result["ok"] = False
        result["error"] = str(error)
    finally:
        if result["status"] is None and not reap(False):
            os.kill(pid, signal.SIGKILL)
            reap(True)
    result["transcript"] = transcript.decode("utf-8", "replace")
    json.dump(result, sys.stdout)


main()
