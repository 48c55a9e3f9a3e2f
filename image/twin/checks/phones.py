"""g. Phones on the box's cable network: the QR code read off the screen,
its page opened through qemu's port forward in the host's Chromium, the
PIN typed and seat 1 taken and kept."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from urllib.parse import urlsplit

from twin.context import Check, Context, Outcome


def resolver_rule(url: str) -> str:
    """Chromium's rule that takes the page's own address (the guest's, on
    qemu's user network, which the host cannot reach) to the host's
    loopback, where qemu forwards the same port: the browser opens the QR
    code's address as it is, and the box sees its own address in the Host
    header, as from a phone at the table (it refuses any other: DNS
    rebinding)."""
    return f"MAP {urlsplit(url).hostname} 127.0.0.1"


def phones(ctx: Context) -> Outcome:
    """Phones turned on as a config file would turn them on (the twin's
    shell adds [phones] to the box's own file; `network = "home"`: the
    twin has no Wi-Fi radio, its network is qemu's cable). The host reads
    the QR code off qemu's screendump as a phone's camera would, opens
    that page, key fragment and all, through the port forward on its
    loopback in Debian's Chromium, types the PIN and takes seat 1."""
    twin = ctx.twin
    chromium, zbar = shutil.which("chromium"), shutil.which("zbarimg")
    if chromium is None or zbar is None:
        return "cannot", "the host needs chromium and zbar-tools (boot-check.sh installs them)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "cannot", "Playwright is not in the host's venv (make install)"
    ctx.sh.run("cp -n /etc/wolfbox/wolfbox.toml /etc/wolfbox/wolfbox.toml.twin && "
               "printf '\\n[phones]\\nenabled = true\\nnetwork = \"home\"\\n"
               f"port = {twin.port}\\n' "
               ">> /etc/wolfbox/wolfbox.toml && systemctl restart wolfbox")
    try:
        if not ctx.wait_active(600):
            return "FAIL", "the box did not come back with phones on"
        t0 = time.monotonic()
        url = ""
        while not url and time.monotonic() - t0 < 300:
            shot = twin.screendump(twin.work / "twin-phones.png")
            read = subprocess.run([zbar, "--quiet", "--raw", str(shot)],
                                  capture_output=True, text=True, check=False).stdout
            url = next((u for u in read.split() if u.startswith("http")), "")
            if not url:
                time.sleep(5)
        if not url:
            return "FAIL", "no QR code with the page's address on the screen in 300 s"
        seen = time.monotonic() - t0
        kept = json.loads(ctx.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
        pin = str(kept.get("room", {}).get("pin", ""))
        if not pin:
            return "FAIL", f"the box keeps no PIN in seats.json: {kept}"
        problems: list[str] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=[
                "--no-sandbox", f"--host-resolver-rules={resolver_rule(url)}"])
            page = browser.new_context(viewport={"width": 360, "height": 740},
                                       is_mobile=True, has_touch=True).new_page()
            page.on("pageerror", lambda e: problems.append(f"the page: {e}"))
            page.goto(url, timeout=120_000)
            page.wait_for_selector("#lobby:not([hidden])", timeout=120_000)
            page.fill("#pin", pin)
            page.fill("#name", "Twin")
            page.click("#seats button >> nth=0")
            page.wait_for_selector("#seat:not([hidden])", timeout=120_000)
            title = page.inner_text("#seat-title")
            page.screenshot(path=str(twin.work / "twin-phone.png"))
            browser.close()
        held: dict = {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not held:
            kept = json.loads(ctx.sh.out("cat /var/lib/wolfbox/seats.json") or "{}")
            held = kept.get("room", {}).get("held", {})
            if not held:
                time.sleep(2)
        twin.screendump(twin.work / "twin-phones-joined.png")
        name = (held.get("1") or {}).get("name")
        if name != "Twin":
            problems.append(f"the box keeps seat 1 as {held}")
        return ("FAIL" if problems else "pass"), "; ".join(problems) or (
            f"QR code read off the screen {seen:.0f} s after the box was back "
            f"({urlsplit(url).netloc}, key in its fragment); host Chromium opened it "
            f"through qemu's forward of port {twin.port} and joined with the PIN as "
            f"{title!r}, the box keeps it")
    finally:
        ctx.sh.run("mv /etc/wolfbox/wolfbox.toml.twin /etc/wolfbox/wolfbox.toml && "
                   "systemctl restart wolfbox")
        ctx.wait_active(600)


CHECK = Check("g. phones: the QR code, the page through the port forward, a seat", phones)
