#!/usr/bin/env python3
"""The devtools page in a real browser: starts `lunar run examples/counter --devtools PORT`, opens
the page in headless Chromium (driven through its DevTools protocol), and checks what a user sees:
actions appear as they are sent, selecting an earlier one shows the state as it was, an action
dispatched from the page reaches the store, "resume from here" puts the store back, the exported
session replays with `lunar replay`, and the session exported as a test passes with `lunar test`.
First, without a browser, `lunar host examples --devtools` is checked through a bare WebSocket
client: a plugin's session, an action dispatched to it, resume refused with its reason, and where
an effect was created.

    Tests/Browser/devtools_page_test.py LUNAR [--screenshot docs/devtools.png]

The browser part is skipped (saying so) when Chromium is not installed; scripts/bootstrap installs it.
"""

import argparse
import base64
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from websocket import WebSocket  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Failure(Exception):
    pass


def wait(what, check, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out waiting for {what}")
        time.sleep(0.05)


class Lunar:
    """`lunar run … --devtools PORT --json`, fed through a pipe; its events collected as they come."""

    def __init__(self, lunar, port):
        self.process = subprocess.Popen(
            [lunar, "run", os.path.join(ROOT, "examples", "counter"), "--devtools", str(port), "--json", "--full-state",
             "--keep-going", "--time-limit", "60"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.events = []
        self.errors = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.events, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors, False), daemon=True).start()

    @staticmethod
    def _read(stream, into, is_json):
        for line in stream:
            into.append(json.loads(line) if is_json else line.rstrip("\n"))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def states(self):
        return [event["state"] for event in list(self.events) if event.get("event") == "state"]

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Browser:
    """Headless Chromium, one page, driven through the DevTools protocol."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="lunar-chromium-")
        port = free_port()
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", f"--remote-debugging-port={port}", f"--user-data-dir={self.profile}",
             "--window-size=1280,820", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        targets = wait("Chromium's DevTools endpoint", lambda: self._targets(port), timeout=60)
        page = next(target for target in targets if target.get("type") == "page")
        self.socket = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0

    @staticmethod
    def _targets(port):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as response:
                targets = json.load(response)
                return targets if any(target.get("type") == "page" for target in targets) else None
        except OSError:
            return None

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = self.socket.receive_json()
            if message is None:
                raise Failure("Chromium closed the connection")
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise Failure(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, what, expression, timeout=20):
        return wait(what, lambda: self.evaluate(expression), timeout)

    def stop(self):
        self.socket.close()
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def export(browser, format):
    """Clicks an export button; returns what the page received."""
    browser.evaluate("window.lunarDevtools.exported = null")
    browser.evaluate(f"document.querySelector('#export-{format}').click()")
    text = browser.wait_for(f"the {format} export", "window.lunarDevtools.exported?.text")
    browser.evaluate("document.querySelector('#export-dialog').close()")
    return text


TIMELINE_ROWS = "[...document.querySelectorAll('#timeline tbody tr')]"


def line_of(text, after):
    """The line number of the first line of the counter's feature.lua holding `text` below `after`."""
    with open(os.path.join(ROOT, "examples", "counter", "feature.lua")) as file:
        lines = file.read().split("\n")
    start = next(number for number, line in enumerate(lines, 1) if after in line)
    return next(number for number, line in enumerate(lines, 1) if number > start and text in line)


def count_of(text):
    return json.loads(text)["count"] if text else None


def run(lunar_path, chromium, screenshot):
    port = free_port()
    lunar = Lunar(lunar_path, port)
    browser = None
    try:
        line = wait("lunar to serve the devtools page",
                    lambda: next((line for line in lunar.errors if "devtools: http://127.0.0.1" in line), None))
        address = devtools_address(line)
        browser = Browser(chromium)
        browser.call("Page.enable")

        # The page's address without its token is refused: a page of another site cannot guess it.
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("the refusal", "document.body?.innerText.includes('holds a token')")
        print("ok: the page without its token is refused")

        # Actions sent before the page opens are in its log: it keeps the session from its start.
        lunar.send("increment")
        lunar.send("decrement")
        wait("lunar to count up and down", lambda: len(lunar.states()) >= 2 and lunar.states()[-1]["count"] == 0)

        browser.call("Page.navigate", url=address)
        browser.wait_for("the page to connect", "document.querySelector('#status')?.textContent === 'connected'")
        browser.wait_for("the session's start", "document.querySelectorAll('#log li[data-source=started]').length === 1")
        early = browser.evaluate(LOG_TEXTS + ".filter(text => !text.startsWith('the session'))")
        if early != ["increment", "decrement"] or browser.evaluate("document.querySelectorAll('#log li[data-source=connected]').length"):
            raise Failure(f"the page opened late does not show the actions before it: {early}")
        print("ok: a page opened late shows the session from its start")

        # Actions typed into lunar appear in the page's log, the latest shown with its state.
        for _ in range(3):
            lunar.send("increment")
        browser.wait_for("three more input actions in the log", "document.querySelectorAll('#log li[data-source=input]').length === 5")
        browser.wait_for("the latest state", state_shows("count = 3"))
        print("ok: actions sent to lunar appear in the page, with the state after them")

        # An effect shows on the timeline, started then finished.
        lunar.send("factTapped")
        browser.wait_for("the effect to finish", "[...document.querySelectorAll('#timeline tbody tr')].some(row => row.className === 'finished')")
        print("ok: the effect of factTapped shows on the timeline, started and finished")

        # Its `created at` cell names the feature's line that built it.
        built_at = "feature.lua:" + str(line_of("fx.run(function(send)", after='"factTapped" then'))
        browser.wait_for("where the fact effect was created", TIMELINE_ROWS +
                         f".some(row => row.className === 'finished' && row.cells[3].textContent === 'factTapped'"
                         f" && row.cells[5].textContent === {json.dumps(built_at)})")
        print(f"ok: the fact effect shows where it was created ({built_at})")

        # Export the session and replay it: the record format of lunar run --record, with the
        # answers its effects got.
        exported = export(browser, "record")
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
            file.write(exported)
        replay = subprocess.run([lunar_path, "replay", file.name, "--json"], capture_output=True, text=True, cwd=ROOT)
        os.unlink(file.name)
        if replay.returncode != 0:
            raise Failure(f"the exported session does not replay:\n{exported}\n{replay.stdout}{replay.stderr}")
        print("ok: the exported session replays with lunar replay")

        # Export as test: an exhaustive *_test.lua that passes beside the feature.
        test = export(browser, "test")
        folder = tempfile.mkdtemp(prefix="lunar-devtools-test-")
        try:
            shutil.copytree(os.path.join(ROOT, "examples", "counter"), os.path.join(folder, "counter"))
            with open(os.path.join(folder, "counter", "session_test.lua"), "w") as file:
                file.write(test)
            result = subprocess.run([lunar_path, "test", os.path.join(folder, "counter", "session_test.lua")],
                                    capture_output=True, text=True, cwd=ROOT)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if result.returncode != 0 or "store:send" not in test:
            raise Failure(f"the exported test does not pass:\n{test}\n{result.stdout}{result.stderr}")
        print("ok: the session exported as a test passes with lunar test")

        # Time travel: selecting the first increment shows the state as it was then.
        browser.evaluate("document.querySelector('#log li[data-source=input]').click()")
        browser.wait_for("the state after the first increment", state_shows("count = 1"))
        if browser.evaluate("document.querySelector('#travel').hidden"):
            raise Failure("an earlier entry is shown without saying it is time travel")
        diff = browser.evaluate("document.querySelector('#diff').textContent")
        if browser.evaluate("[...document.querySelectorAll('#diff .change')].map(c => c.textContent)") != ["count = − 0+ 1"]:
            raise Failure(f"the diff of the first increment does not show the count from 0 to 1: {diff!r}")
        print("ok: selecting an earlier action shows the state and diff as they were")

        check_notation(browser)

        # Dispatch from the page: the action reaches the store.
        before = count_of(json.dumps(lunar.states()[-1]))
        browser.evaluate("""(() => {
            document.querySelector('#dispatch-input').value = 'increment';
            document.querySelector('#dispatch-button').click();
        })()""")
        wait("the dispatched action in lunar's events", lambda: any(
            event.get("event") == "action" and event.get("source") == "devtools" for event in list(lunar.events)))
        wait("the store to count one more", lambda: lunar.states()[-1]["count"] == before + 1)
        browser.wait_for("the dispatched action in the log", "document.querySelectorAll('#log li[data-source=devtools]').length === 1")
        print(f"ok: an action dispatched from the page reaches the store ({before} -> {before + 1})")

        # Resume from here: the store goes back to the state after the first increment.
        browser.evaluate("document.querySelector('#log li[data-source=input]').click()")
        browser.wait_for("the first increment's state", state_shows("count = 1"))
        browser.evaluate("document.querySelector('#resume').click()")
        wait("the store to be back at 1", lambda: lunar.states()[-1]["count"] == 1)
        lunar.send("increment")
        wait("the next increment to count from 1", lambda: lunar.states()[-1]["count"] == 2)
        browser.wait_for("the log to follow", state_shows("count = 2"))
        print("ok: resume from here puts the store back in that state")

        # A timer stopped by fx.cancel shows as cancelled, not finished.
        lunar.send("toggleTimer")
        browser.wait_for("the timer to start", TIMELINE_ROWS +
                         ".some(row => row.className === 'started' && row.cells[3].textContent === 'toggleTimer')")
        lunar.send("toggleTimer")
        browser.wait_for("the timer to show cancelled", TIMELINE_ROWS +
                         ".some(row => row.className === 'cancelled' && row.cells[3].textContent === 'toggleTimer')")
        print("ok: the timer stopped by fx.cancel shows as cancelled")

        check_controls(browser, lunar)
        check_reloads(browser)

        if screenshot:
            browser.evaluate("document.querySelectorAll('#log li[data-source=input]')[4].click()")
            browser.wait_for("the third increment's state", state_shows("count = 3"))
            shoot(browser, screenshot)
            controls = screenshot.replace(".png", "-controls.png")
            browser.evaluate("""(() => {
                const search = document.querySelector('#denylist');
                search.value = 'tick';
                search.dispatchEvent(new Event('input'));
                document.querySelector('#log li.skipped').click();
            })()""")
            browser.wait_for("the skipped action's detail", "window.lunarDevtools.detail?.id === window.lunarDevtools.selected")
            shoot(browser, controls)
    finally:
        if browser:
            browser.stop()
        lunar.stop()


def state_shows(line):
    """An expression true when the state's tree has the line `line` (`count = 3`, its comma aside)."""
    return ("[...document.querySelectorAll('#state .leaf')]"
            f".some(leaf => leaf.textContent.replace(/,$/, '') === {json.dumps(line)})")


LOG_TEXTS = "[...document.querySelectorAll('#log li[data-id]')].map(item => item.querySelector('.text').textContent)"
VISIBLE = "[...document.querySelectorAll('#log li[data-id]')].filter(item => item.offsetParent !== null)"


def shoot(browser, path):
    shot = browser.call("Page.captureScreenshot", format="png")
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    print(f"ok: screenshot written to {path}")


def press(browser, key, code, key_code):
    """A key pressed and released on the page, as a user types it."""
    text = key if len(key) == 1 else ""
    browser.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, windowsVirtualKeyCode=key_code, text=text)
    browser.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=key_code)


def set_input(browser, selector, value):
    browser.evaluate(f"""(() => {{
        const input = document.querySelector({json.dumps(selector)});
        input.value = {json.dumps(value)};
        input.dispatchEvent(new Event('input'));
    }})()""")


def reload(browser, timeout=15):
    """Reloads the page and waits until the new page has loaded and connected.

    A page loads in well under a second here; the timeout is generous, yet shorter than the stall
    of a request the server never reads (about 25 s), which a reload must not meet."""
    browser.evaluate("window.beforeReload = true")
    browser.call("Page.reload")

    def loaded():
        try:
            return browser.evaluate("window.beforeReload === undefined && document.readyState === 'complete'"
                                    " && document.querySelector('#status')?.textContent === 'connected'"
                                    " && window.lunarDevtools?.latest != null")
        except Failure:
            return False  # NB: the old page's context went away while it was asked

    wait("the page to load and connect again", loaded, timeout)


def check_reloads(browser, count=20):
    """The page reloaded again and again loads every time: no request of a reload is left unread."""
    took = []
    for number in range(count):
        started = time.monotonic()
        try:
            reload(browser)
        except Failure as failure:
            raise Failure(f"reload {number + 1} of {count} did not load: {failure} (earlier ones took {took})")
        took.append(round(time.monotonic() - started, 2))
    print(f"ok: the page reloaded {count} times loads and connects every time (slowest {max(took)} s)")


# What the page's notation writes, for values and actions as lunar sends them (JSON).
NOTATION = [
    ("luaText", {"count": 0, "todos": [{"id": 1, "title": "milk"}]}, '{ count = 0, todos = { { id = 1, title = "milk" } } }'),
    ("luaText", {"type": "add"}, '{ type = "add" }'),
    ("luaText", {"odd key": 1, "end": 2, "b": True, "a": [1, None, 2.5]}, '{ a = { 1, nil, 2.5 }, b = true, ["end"] = 2, ["odd key"] = 1 }'),
    ("luaText", {"é": 1, "z": 2, "Z": 3, "_": 4}, '{ Z = 3, _ = 4, z = 2, ["é"] = 1 }'),
    ("luaText", {"empty": {}, "list": []}, "{ empty = {}, list = {} }"),
    ("luaText", 'say "hi"\n\\ \u0001 ü', '"say \\"hi\\"\\n\\\\ \\x01 ü"'),
    ("luaText", None, "nil"),
    ("actionText", {"type": "increment"}, "increment"),
    ("actionText", {"type": "add", "title": "milk", "tags": ["a"]}, 'add tags={ "a" } title="milk"'),
    ("actionText", {"type": "todos", "id": 1, "action": {"type": "toggle"}}, "todos[1].toggle"),
    ("actionText", {"type": "dogs", "action": {"type": "breedTapped", "breed": "hound"}}, 'dogs.breedTapped breed="hound"'),
    ("actionText", {"type": "path", "id": "a", "action": {"type": "detail", "action": {"type": "closeTapped"}}},
     'path["a"].detail.closeTapped'),
    ("actionText", {"x": 1}, "{ x = 1 }"),
    ("actionText", {"type": "set", "odd key": 1}, '{ type = "set", ["odd key"] = 1 }'),
    ("luaText", {"b": 1, "type": "x", "a": 2}, '{ type = "x", a = 2, b = 1 }'),
]


def check_notation(browser):
    """Values read as Lua, as lunar writes them in the terminal: the notation, the trees, the list,
    the diff and the "as Lua" view. Expects the first increment selected."""
    for function, value, expected in NOTATION:
        written = browser.evaluate(f"{function}({json.dumps(value)})")
        if written != expected:
            raise Failure(f"{function}({json.dumps(value)}) writes {written!r}, not {expected!r}")
    print(f"ok: the page writes values and actions as Lua ({len(NOTATION)} cases)")

    shown = browser.evaluate("""({
        state: document.querySelector('#state').innerText,
        action: document.querySelector('#action').innerText,
        diff: [...document.querySelectorAll('#diff .change, #diff .unchanged')].map(line => line.innerText),
    })""")
    expected = {
        "state": "{ -- 3 fields\ncount = 1,\nloading = false,\ntimerRunning = false\n}",
        "action": '{ -- 1 field\ntype = "increment"\n}',
        "diff": ["count =\n− 0\n+ 1", "… 2 unchanged"],
    }
    if shown != expected:
        raise Failure(f"the first increment's trees do not read as Lua: {shown}")
    browser.evaluate("document.querySelector('#state details > summary').click()")
    closed = browser.evaluate("document.querySelector('#state').innerText")
    browser.evaluate("document.querySelector('#state details > summary').click()")
    if closed != "{ … } -- 3 fields":
        raise Failure(f"the state's tree closed reads {closed!r}, not '{{ … }} -- 3 fields'")
    print("ok: the state, action and diff trees read as Lua table constructors, a closed one as { … } with its count")

    fact = browser.evaluate("[...window.lunarDevtools.entries.values()].find(e => e.action?.type === 'factLoaded').action.fact")
    labels = browser.evaluate(LOG_TEXTS)
    label = 'factLoaded fact="' + fact
    if not any(text == label + '"' or (text.startswith(label[:55]) and text.endswith("…")) for text in labels):
        raise Failure(f"the list does not show factLoaded as typed at the prompt (fact={json.dumps(fact)}): {labels}")
    print("ok: the list shows actions as typed at lunar's prompt (factLoaded fact=\"…\")")

    browser.evaluate("document.querySelector('button.as-lua[data-pane=state]').click()")
    text = browser.wait_for("the state as Lua", "document.querySelector('#export-dialog').open && document.querySelector('#export-text').value")
    browser.evaluate("document.querySelector('#export-dialog').close()")
    if text != "{ count = 1, loading = false, timerRunning = false }\n":
        raise Failure(f"the state as Lua reads {text!r}")
    print("ok: 'as Lua' shows the state as Lua source")


def check_controls(browser, lunar):
    """The everyday controls: slider, keyboard, search and deny list, trees, skip, pause, lock, and
    the settings kept across a reload."""
    selected = "window.lunarDevtools.selected"

    # The slider: its first position is the session's start, its last the latest action, followed.
    browser.evaluate("document.querySelector('#log').focus()")
    browser.evaluate("""(() => {
        const slider = document.querySelector('#slider');
        slider.value = 0;
        slider.dispatchEvent(new Event('input'));
    })()""")
    browser.wait_for("the start's state", "document.querySelector('#detail-title').textContent === '#1 started'"
                     " && " + state_shows("count = 0"))
    latest = browser.evaluate("window.lunarDevtools.latest")
    browser.evaluate("""(() => {
        const slider = document.querySelector('#slider');
        slider.value = slider.max;
        slider.dispatchEvent(new Event('input'));
    })()""")
    if browser.evaluate(selected) != latest or not browser.evaluate("window.lunarDevtools.following"):
        raise Failure("the slider's last position is not the latest action, followed")
    print("ok: the slider goes from the session's start to the latest action")

    # The keyboard: k and ↑ go back, j and ↓ forward, Home to the start, End to the latest.
    press(browser, "k", "KeyK", 75)
    press(browser, "ArrowUp", "ArrowUp", 38)
    visible = browser.evaluate(VISIBLE + ".map(item => Number(item.dataset.id))")
    if browser.evaluate(selected) != visible[-3]:
        raise Failure(f"k then ↑ did not go two actions back: {browser.evaluate(selected)} of {visible}")
    press(browser, "j", "KeyJ", 74)
    if browser.evaluate(selected) != visible[-2]:
        raise Failure("j did not go one action forward")
    press(browser, "Home", "Home", 36)
    if browser.evaluate(selected) != visible[0]:
        raise Failure("Home did not go to the session's start")
    press(browser, "End", "End", 35)
    if browser.evaluate(selected) != visible[-1]:
        raise Failure("End did not go to the latest action")
    print("ok: the keyboard walks the actions (k/↑, j/↓, Home, End)")

    # Search and deny list: the list shows what matches, the deny list hides types.
    set_input(browser, "#search", "decrement")
    if browser.evaluate(VISIBLE + ".map(item => item.querySelector('.text').textContent)") != ["decrement"]:
        raise Failure(f"searching for decrement lists: {browser.evaluate(VISIBLE + '.length')} actions")
    set_input(browser, "#search", "")
    set_input(browser, "#denylist", "increment, factLoaded")
    shown = browser.evaluate(VISIBLE + ".map(item => item.querySelector('.text').textContent)")
    if any(text.startswith("increment") or text.startswith("factLoaded") for text in shown) or "decrement" not in shown:
        raise Failure(f"the deny list does not hide increment and factLoaded: {shown}")
    set_input(browser, "#denylist", "")
    print("ok: search and the deny list filter the actions listed")

    # Skip: two increments, the first skipped: the store counts one less; unskipped (s), one more.
    count = lunar.states()[-1]["count"]
    inputs = "[...window.lunarDevtools.entries.values()].filter(e => e.source === 'input').map(e => e.id)"
    listed = browser.evaluate(f"{inputs}.length")
    lunar.send("increment")
    lunar.send("increment")
    wait("two more increments", lambda: lunar.states()[-1]["count"] == count + 2)
    browser.wait_for("the increments in the page", f"{inputs}.length === {listed + 2}")
    first = browser.evaluate(f"{inputs}[{listed}]")
    browser.evaluate(f"document.querySelector('#log li[data-id=\"{first}\"]').click()")
    browser.evaluate("document.querySelector('#skip').click()")
    wait("the store to count one less", lambda: lunar.states()[-1]["count"] == count + 1)
    browser.wait_for("the skipped action struck out", f"document.querySelector('#log li[data-id=\"{first}\"]').classList.contains('skipped')"
                     " && document.querySelector('#skip').textContent === 'Unskip'")
    browser.wait_for("the state recomputed without it", state_shows(f"count = {count}"))
    press(browser, "s", "KeyS", 83)
    wait("the store to count it again", lambda: lunar.states()[-1]["count"] == count + 2)
    browser.wait_for("the action listed again", f"!document.querySelector('#log li[data-id=\"{first}\"]').classList.contains('skipped')")
    press(browser, "s", "KeyS", 83)
    wait("the store to count one less again", lambda: lunar.states()[-1]["count"] == count + 1)
    print(f"ok: skipping an action recomputes the state without it ({count + 2} -> {count + 1}), unskipping with it")

    # Pause: new actions are not listed until unpaused.
    browser.evaluate("document.querySelector('#pause').click()")
    before = browser.evaluate("window.lunarDevtools.latest")
    lunar.send("decrement")
    browser.wait_for("the action while paused", f"window.lunarDevtools.latest > {before}")
    held = browser.evaluate("window.lunarDevtools.latest")
    if browser.evaluate(VISIBLE + f".some(item => Number(item.dataset.id) === {held})"):
        raise Failure("an action sent while paused is listed")
    said = browser.evaluate("document.querySelector('#held').textContent")
    if said != "paused: 1 new not listed":
        raise Failure(f"the paused page does not say what it holds back: {said!r}")
    print("ok: pause holds new actions out of the list")

    # Lock: the page refuses to dispatch.
    browser.evaluate("document.querySelector('#lock').click()")
    if not browser.evaluate("document.querySelector('#dispatch-button').disabled && document.querySelector('#resume').disabled"
                            " && document.querySelector('#skip').disabled"):
        raise Failure("the locked page still offers to dispatch, resume or skip")
    dispatched = sum(1 for event in list(lunar.events) if event.get("source") == "devtools")
    browser.evaluate("""(() => {
        document.querySelector('#dispatch-input').value = 'increment';
        document.querySelector('#dispatch').requestSubmit();
    })()""")
    browser.wait_for("the lock's notice", "document.querySelector('#notice').textContent === 'locked: unlock the page to dispatch'")
    time.sleep(0.3)
    if sum(1 for event in list(lunar.events) if event.get("source") == "devtools") != dispatched:
        raise Failure("the locked page dispatched an action")
    print("ok: lock refuses to dispatch from the page")

    # The settings stay across a reload: the search, the pause, the lock, the state's tree closed.
    browser.evaluate("document.querySelector('#state details > summary').click()")
    if browser.evaluate("document.querySelector('#state details').open"):
        raise Failure("the state's tree did not close")
    set_input(browser, "#search", "crement")
    reload(browser)
    kept = browser.evaluate("""({
        search: document.querySelector('#search').value,
        pause: document.querySelector('#pause').textContent,
        lock: document.querySelector('#lock').textContent,
        dispatch: document.querySelector('#dispatch-button').disabled,
    })""")
    if kept != {"search": "crement", "pause": "Unpause", "lock": "Unlock", "dispatch": True}:
        raise Failure(f"the page's settings were not kept across a reload: {kept}")
    if browser.evaluate(VISIBLE + f".some(item => Number(item.dataset.id) === {held})"):
        raise Failure("the action held back by the pause is listed after a reload")
    browser.evaluate("document.querySelector('#log li[data-source=input]').click()")
    browser.wait_for("the state's tree", "document.querySelector('#state details') !== null")
    if browser.evaluate("document.querySelector('#state details').open"):
        raise Failure("the state's tree closed before the reload opened again")
    print("ok: search, pause, lock and the trees' state are kept across a reload of the page")

    # Back to the defaults: unlocked, unpaused (the held action is listed), no search, the tree open.
    set_input(browser, "#search", "")
    browser.evaluate("document.querySelector('#lock').click(); document.querySelector('#pause').click()")
    browser.evaluate("document.querySelector('#state details > summary').click()")
    if not browser.evaluate(VISIBLE + f".some(item => Number(item.dataset.id) === {held})"):
        raise Failure("unpausing does not list the action held back")
    print("ok: unpausing lists what the pause held back")


def devtools_address(line):
    """The address in lunar's `devtools: http://127.0.0.1:PORT/TOKEN/` line (its colours taken off)."""
    match = re.search(r"http://127\.0\.0\.1:\d+/[0-9a-f]{64}/", line)
    if not match:
        raise Failure(f"lunar did not print the devtools page's address with its token: {line!r}")
    return match.group(0)


class Page:
    """A bare WebSocket client of a devtools page's session, reading its messages as a page does."""

    def __init__(self, url):
        self.socket = WebSocket(url)
        self.seen = []

    def wait_for(self, what, check):
        for message in self.seen:
            if check(message):
                return message
        while True:
            batch = self.socket.receive_json()
            if batch is None:
                raise Failure(f"the page's connection closed while waiting for {what}")
            for message in batch if isinstance(batch, list) else [batch]:
                self.seen.append(message)
                if check(message):
                    return message

    def ask(self, **request):
        self.socket.send(json.dumps(request))


def run_host(lunar_path):
    """`lunar host examples --devtools`: a session per plugin, dispatch, and what it refuses."""
    port = free_port()
    process = subprocess.Popen(
        [lunar_path, "host", os.path.join(ROOT, "examples"), "--devtools", str(port), "--json", "--time-limit", "60"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    page = None
    try:
        line = process.stderr.readline()
        if "devtools: http://127.0.0.1" not in line:
            raise Failure(f"lunar host did not serve the devtools: {line}")
        address = devtools_address(line)
        time.sleep(1)
        # A web page of another site cannot connect, even knowing the token: its Origin is not the page's.
        try:
            WebSocket(address.replace("http://", "ws://") + "session?session=counter",
                      headers={"Origin": "https://attacker.example"})
            raise Failure("lunar host accepted a live connection from another site's page")
        except ConnectionError as refusal:
            if " 403 " not in str(refusal):
                raise Failure(f"a foreign page's live connection was not refused with 403: {refusal}")
        page = Page(address.replace("http://", "ws://") + "session?session=counter")
        hello = page.wait_for("the hello", lambda m: m["type"] == "hello")
        if hello.get("session") != "counter" or "dogs" not in hello["sessions"]:
            raise Failure(f"the counter's page does not list the plugins: {hello}")
        process.stdin.write('{"plugin": "counter", "action": "increment"}\n')
        process.stdin.flush()
        page.wait_for("the counter's increment", lambda m: m["type"] == "entry" and m["source"] == "input")
        page.ask(type="dispatch", action="increment")
        page.wait_for("the dispatched increment", lambda m: m["type"] == "entry" and m["source"] == "devtools")
        page.ask(type="select", id=3)
        detail = page.wait_for("the state after it", lambda m: m["type"] == "detail" and m["id"] == 3)
        if detail["state"]["count"] != 2:
            raise Failure(f"the dispatched action did not reach the counter's store: {detail}")
        page.ask(type="resume", id=2)
        refusal = page.wait_for("resume's refusal", lambda m: m["type"] == "notice")
        if not refusal["error"] or "lunar run --devtools" not in refusal["message"]:
            raise Failure(f"lunar host does not say why it cannot resume: {refusal}")
        # An effect shows where it was created, as with lunar run, and when it ended.
        process.stdin.write('{"plugin": "counter", "action": "factTapped"}\n')
        process.stdin.flush()
        built_at = "feature.lua:" + str(line_of("fx.run(function(send)", after='"factTapped" then'))
        finished = page.wait_for("the fact effect to finish", lambda m: m["type"] == "effect" and m["status"] == "finished")
        started = next((m for m in page.seen if m["type"] == "effect" and m["status"] == "started"
                        and m["effect"] == finished["effect"]), None)
        for event in (started, finished):
            if not event or event.get("actionType") != "factTapped" or event.get("origin") != built_at:
                raise Failure(f"the fact effect does not say where it was created ({built_at}): {started}, {finished}")
        print("ok: lunar host --devtools shows where a plugin's effect was created, and when it ended")
        print("ok: lunar host --devtools shows a plugin's session, takes its actions, and says what it cannot do")
    finally:
        if page:
            page.socket.close()
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def run_file_limit(lunar_path):
    """Out of file descriptors, the devtools server says so on standard error and, once connections
    close, serves again: `lunar run` under a limit of 64 open files, flooded with idle connections."""
    port = free_port()
    process = subprocess.Popen(
        [lunar_path, "run", os.path.join(ROOT, "examples", "counter"), "--devtools", str(port), "--json",
         "--time-limit", "60"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)))
    errors = []
    threading.Thread(target=Lunar._read, args=(process.stderr, errors, False), daemon=True).start()
    flood = []
    try:
        address = devtools_address(wait("lunar to serve the devtools page",
                                        lambda: next((l for l in errors if "devtools: http://" in l), None)))
        for _ in range(100):
            try:
                flood.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError:
                break  # the server stopped listening: what comes next says why
        report = wait("the server to say it cannot accept", lambda: next(
            (l for l in errors if "devtools: cannot accept connections" in l), None))
        if "Too many open files" not in report:
            raise Failure(f"the server's report does not say why it cannot accept: {report!r}")
        for connection in flood:
            connection.close()
        flood = []
        wait("the server to accept again", lambda: any("devtools: accepting connections again" in l for l in errors))
        with urllib.request.urlopen(address, timeout=5) as response:
            if response.status != 200:
                raise Failure(f"the page is not served after the flood: {response.status}")
        if process.poll() is not None:
            raise Failure(f"lunar ended during the flood: {errors}")
        print("ok: out of file descriptors, the devtools say so and serve again once connections close")
    finally:
        for connection in flood:
            connection.close()
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lunar", help="the lunar executable")
    parser.add_argument("--screenshot", help="write a PNG of the page here")
    arguments = parser.parse_args()
    try:
        run_host(os.path.abspath(arguments.lunar))
        run_file_limit(os.path.abspath(arguments.lunar))
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1
    chromium = find_chromium()
    if not chromium:
        print("SKIPPED: the devtools page's browser test needs Chromium, which is not installed "
              "(scripts/bootstrap installs Debian's chromium; elsewhere install Chromium or Chrome).")
        return 0
    try:
        run(os.path.abspath(arguments.lunar), chromium, arguments.screenshot)
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1
    print("devtools page: all checks passed in Chromium")
    return 0


if __name__ == "__main__":
    sys.exit(main())
