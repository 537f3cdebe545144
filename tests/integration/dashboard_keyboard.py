#!/usr/bin/python3
"""Uses the dashboard with the keyboard only, in headless Chromium driven over the DevTools
protocol (Debian's python3-websocket), and prints what it met as one JSON object of named facts
for DashboardTest to check (an element is named TAG#ID, or by its href, or by its text):

  usage: dashboard_keyboard.py CHROMIUM SITE JOB TOKEN

  signin_focus, signin_ring   the element focused on the page without a token, and whether a
                              focus ring is drawn round it
  signin_loaded               the job page came after typing the token there and Enter
  skip_first, skip_ring, skip_on_screen   the first Tab stop of the job page (the skip link)
  skip_after                  the element focused after Enter on it
  stops                       every Tab stop from <main> on, once round: its href, or its text
  stops_without_ring, stops_off_screen    those of them drawn without a focus ring, or off screen
  landmarks                   the page's landmarks (banner, navigation, main, contentinfo)
  unnamed, images, headings   the links, buttons, images, tables and text fields without an
                              accessible name (the roles of each); how many images (the
                              charts) and headings a screen reader meets
  kept                        the focused link's data-key after 2.5 s of the page's updates
                              (the SARIF link had focus)
  opened_link, opened_hash, opened_focus  Enter on the error location link nearest before the
                              SARIF link: its href, then the route and the focused element
  back_link, back_hash, back_focus        Shift+Tab from the error's heading to the job's link
                              above it and Enter: that link, then the route and the focus
Exits 2 when Chromium cannot be driven (no DevTools port within 20 s).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket


class Page:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=30)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return r.get("result", {}).get("value")

    def key(self, key, code, keycode, text="", modifiers=0):
        down = "keyDown" if text else "rawKeyDown"
        self.call("Input.dispatchKeyEvent", type=down, key=key, code=code, windowsVirtualKeyCode=keycode,
                  nativeVirtualKeyCode=keycode, text=text, unmodifiedText=text, modifiers=modifiers)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=keycode,
                  nativeVirtualKeyCode=keycode, modifiers=modifiers)
        time.sleep(0.05)

    def tab(self, shift=False):
        self.key("Tab", "Tab", 9, modifiers=8 if shift else 0)

    def enter(self):
        self.key("Enter", "Enter", 13, text="\r")

    def wait_for(self, expression, seconds=15):
        end = time.time() + seconds
        while time.time() < end:
            if self.eval(expression):
                return True
            time.sleep(0.1)
        return False

    def goto(self, url):
        self.call("Page.navigate", url=url)
        time.sleep(0.3)


# What the focused element is, as a person would see it.
FOCUSED = """(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return {tag: 'body'};
  const style = getComputedStyle(e), r = e.getBoundingClientRect();
  return {tag: e.tagName.toLowerCase(), id: e.id || '', text: (e.innerText || e.value || '').trim().slice(0, 80),
          href: e.getAttribute('href') || '', key: e.getAttribute('data-key') || '',
          field: e.getAttribute('data-field') || '',
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
          onScreen: r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 &&
                    r.left < innerWidth && r.top < innerHeight};
})()"""


def main():
    chromium, site, job, token = sys.argv[1:5]
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    profile = tempfile.mkdtemp(prefix="cairn-keyboard-", dir=base)
    browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--remote-debugging-port=0", "--user-data-dir=" + profile,
                                "--window-size=1280,900", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        end = time.time() + 20
        while not os.path.exists(port_file) and time.time() < end:
            time.sleep(0.1)
        if not os.path.exists(port_file):
            print("no DevTools port from Chromium", file=sys.stderr)
            return 2
        time.sleep(0.2)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = Page(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        page.call("Page.enable")
        # As a window a person types into: the page has the system's focus (a headless page has
        # none until a key event comes, and :focus matches nothing before).
        page.call("Emulation.setFocusEmulationEnabled", enabled=True)
        found = {}
        job_page = f"{site}#/jobs/{job}"
        loaded = "!!document.querySelector('[data-field=paths]')"

        def named(e):
            if e["tag"] == "body" or e["id"]:
                return e["tag"] + ("#" + e["id"] if e["id"] else "")
            return e["href"] or e["text"]

        # Signing in: the token typed into the form that has focus, Enter.
        page.goto(job_page)
        page.wait_for("!!document.getElementById('token-input')")
        focused = page.eval(FOCUSED)
        found["signin_focus"], found["signin_ring"] = named(focused), focused["ring"]
        page.call("Input.insertText", text=token)
        page.enter()
        found["signin_loaded"] = page.wait_for(loaded)

        # From the top of the page: the skip link first, Enter moves to <main>.
        page.goto("about:blank")
        page.goto(job_page)
        page.wait_for(loaded)
        page.tab()
        skip = page.eval(FOCUSED)
        found["skip_first"], found["skip_ring"], found["skip_on_screen"] = skip["text"], skip["ring"], skip["onScreen"]
        page.enter()
        found["skip_after"] = named(page.eval(FOCUSED))

        # Once round the page's Tab stops from <main>.
        stops = []
        for _ in range(120):
            page.tab()
            now = page.eval(FOCUSED)
            if now["tag"] == "body" or now["text"] == skip["text"] or (stops and now == stops[0]):
                break
            stops.append(now)
        found["stops"] = [named(e) for e in stops]
        found["stops_without_ring"] = [named(e) for e in stops if not e["ring"]]
        found["stops_off_screen"] = [named(e) for e in stops if not e["onScreen"]]

        # What a screen reader reads of the same page (the accessibility tree): its landmarks, and
        # the links, buttons, images (the charts) and tables it would announce without a name.
        nodes = page.call("Accessibility.getFullAXTree").get("nodes", [])
        roles = lambda n: (n.get("role") or {}).get("value", "")
        name = lambda n: ((n.get("name") or {}).get("value") or "").strip()
        found["landmarks"] = sorted({roles(n) for n in nodes if roles(n) in
                                     ("banner", "navigation", "main", "contentinfo")})
        named_roles = ("link", "button", "image", "img", "table", "textbox")
        found["unnamed"] = [roles(n) for n in nodes if roles(n) in named_roles and not name(n) and not n.get("ignored")]
        found["images"] = sum(1 for n in nodes if roles(n) in ("image", "img") and not n.get("ignored"))
        found["headings"] = sum(1 for n in nodes if roles(n) == "heading" and not n.get("ignored"))

        # Focus stays where it is while the numbers update (every second).
        page.goto("about:blank")
        page.goto(job_page)
        page.wait_for(loaded)
        page.tab()
        page.enter()
        for _ in range(len(stops)):
            page.tab()
            if page.eval(FOCUSED)["key"] == "dl-sarif":
                break
        time.sleep(2.5)
        found["kept"] = page.eval(FOCUSED)["key"]

        # An error opened from its location link with Enter, and the way back to the job.
        for _ in range(len(stops)):
            page.tab(shift=True)
            if page.eval(FOCUSED)["field"] == "error-location":
                break
        found["opened_link"] = named(page.eval(FOCUSED))
        page.enter()
        page.wait_for("location.hash.includes('/errors/')")
        time.sleep(0.5)
        found["opened_hash"], found["opened_focus"] = page.eval("location.hash"), named(page.eval(FOCUSED))
        page.tab(shift=True)
        found["back_link"] = named(page.eval(FOCUSED))
        page.enter()
        page.wait_for("!location.hash.includes('/errors/')")
        page.wait_for(loaded)
        time.sleep(0.5)
        found["back_hash"], found["back_focus"] = page.eval("location.hash"), named(page.eval(FOCUSED))
        print(json.dumps(found))
        return 0
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
