"""The image's device-tree overlays (image/overlays) against the Pi's own
device trees from the kernel package the image boots (Debian 12's
linux-image-arm64, fetched by image/debian-dtbs.sh): each applies with
fdtoverlay to the Pi 4's, the Pi 3's and the Zero 2 W's tree once the image's
hook has given those trees their labels, the nodes the drivers bind to are
there with the right compatible strings, the pins are the ones
wolfbox/pinout.py keeps free, and the kernel has each part's drivers or the
parts table says that part does not work with the image.

Also the boot script that turns wolfbox.toml's [hardware] into the
firmware's dtoverlay= lines (image/overlay/.../dtoverlays.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from wolfbox import lineup  # noqa: F401  (a Config has the games' sections too)
from wolfbox.config import Config
from wolfbox.pinout import RESERVED

ROOT = Path(__file__).resolve().parent.parent
IMAGE = ROOT / "image"
HOOK = IMAGE / "overlay/etc/kernel/postinst.d/z51-wolfbox-dtb-symbols"
LIB = IMAGE / "overlay/usr/local/lib/wolfbox-image"
BOARDS = ("bcm2711-rpi-4-b", "bcm2837-rpi-3-b", "bcm2837-rpi-zero-2-w")
SCREEN, AMP = "wolfbox-ili9486", "wolfbox-max98357a"
GPIO, SPI, I2S, DMA = ("/soc/gpio@7e200000", "/soc/spi@7e204000", "/soc/i2s@7e203000",
                       "/soc/dma@7e007000")
# What each overlay's nodes need from the kernel (its build config), and the
# part's row in the parts table.
DRIVERS = {
    SCREEN: (("CONFIG_SPI_BCM2835", "CONFIG_TINYDRM_ILI9486"), "Screen"),
    AMP: (("CONFIG_SND_BCM2835_SOC_I2S", "CONFIG_SND_SOC_MAX98357A", "CONFIG_SND_SIMPLE_CARD"),
          "Amplifier"),
}

needs_dtc = pytest.mark.skipif(not all(shutil.which(t) for t in ("dtc", "fdtoverlay", "fdtput")),
                               reason="needs dtc, fdtoverlay and fdtput (apt install "
                                      "device-tree-compiler; CI has them)")


def _fdtget(dtb: Path, node: str, prop: str, kind: str = "s") -> list[str]:
    out = subprocess.run(["fdtget", "-t", kind, str(dtb), node, prop],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def _compatible(dtb: Path, node: str) -> list[str]:
    try:
        return _fdtget(dtb, node, "compatible")
    except subprocess.CalledProcessError:
        return []


def _cells(dtb: Path, node: str, prop: str) -> list[int]:
    return [int(v) for v in _fdtget(dtb, node, prop, "u")]


def _children(dtb: Path, node: str) -> list[str]:
    out = subprocess.run(["fdtget", "-l", str(dtb), node], capture_output=True, text=True,
                         check=True).stdout
    return out.split()


def _node_with_phandle(dtb: Path, parent: str, phandle: int) -> str:
    for child in _children(dtb, parent):
        path = f"{parent.rstrip('/')}/{child}"
        try:
            if _cells(dtb, path, "phandle") == [phandle]:
                return path
        except subprocess.CalledProcessError:
            continue
    raise AssertionError(f"no node under {parent} has phandle {phandle}")


def _apply(base: Path, dtbo: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["fdtoverlay", "-i", str(base), "-o", str(out), str(dtbo)],
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="session")
def debian(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder with broadcom/*.dtb, config and modules of the image's kernel."""
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        pytest.skip("the Pi's trees come from Debian's kernel package: needs apt-get and dpkg-deb")
    cache = os.environ.get("WOLFBOX_DEBIAN_DTBS", str(ROOT / "build/cache/debian-dtbs"))
    got = subprocess.run(["bash", str(IMAGE / "debian-dtbs.sh"), cache], capture_output=True,
                         text=True, check=False)
    if got.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail("image/debian-dtbs.sh failed in CI: " + got.stderr.strip())
        pytest.skip("Debian's kernel package could not be had (offline?): " + got.stderr.strip())
    return Path(got.stdout.strip())


@pytest.fixture(scope="session")
def dtbos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dtbo")
    subprocess.run(["bash", str(IMAGE / "overlays/build.sh"), str(out)], check=True,
                   capture_output=True)
    return out


@pytest.fixture(scope="session")
def trees(debian: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three boards' trees as the image's boot partition holds them:
    raspi-firmware's copies, then the image's hook."""
    out = tmp_path_factory.mktemp("trees")
    for board in BOARDS:
        shutil.copy(debian / "broadcom" / f"{board}.dtb", out)
    changed = subprocess.run(["sh", str(HOOK)], env=dict(os.environ, WOLFBOX_DTB_DIR=str(out)),
                             capture_output=True, text=True, check=True).stdout.split()
    assert sorted(changed) == sorted(f"{b}.dtb" for b in BOARDS)
    return out


def _default_pins() -> set[int]:
    config = Config()
    return (set(config.buttons.pins().values()) | set(config.leds.pins().values())
            | {3})                                            # the optional power button


def _pinctrl_pins(dtb: Path, node: str) -> set[int]:
    pins: set[int] = set()
    for phandle in _cells(dtb, node, "pinctrl-0"):
        group = _node_with_phandle(dtb, GPIO, phandle)
        pins |= set(_cells(dtb, group, "brcm,pins"))
    return pins


@needs_dtc
@pytest.mark.parametrize("board", BOARDS)
def test_the_screen_overlay_puts_an_ili9486_on_spi0_with_its_pins(board, trees, dtbos, tmp_path):
    merged = tmp_path / "merged.dtb"
    got = _apply(trees / f"{board}.dtb", dtbos / f"{SCREEN}.dtbo", merged)
    assert got.returncode == 0, got.stderr
    gpio = _cells(merged, GPIO, "phandle")[0]
    assert "brcm,bcm2835-spi" in _fdtget(merged, SPI, "compatible")    # spi-bcm2835 binds
    assert _fdtget(merged, SPI, "status") == ["okay"]
    display = f"{SPI}/display@0"
    assert _fdtget(merged, display, "compatible") == ["waveshare,rpi-lcd-35", "ilitek,ili9486"]
    assert _cells(merged, display, "reg") == [0]                          # chip select 0
    assert _cells(merged, display, "dc-gpios") == [gpio, 24, 0]
    assert _cells(merged, display, "reset-gpios") == [gpio, 25, 1]        # active low
    used = _pinctrl_pins(merged, SPI) | _pinctrl_pins(merged, display)
    assert used == {7, 8, 9, 10, 11, 24, 25}
    assert used <= RESERVED["screen"]["spi"]
    assert not used & _default_pins()


@needs_dtc
@pytest.mark.parametrize("board", BOARDS)
def test_the_amplifier_overlay_joins_i2s_and_a_max98357a_in_one_card(board, trees, dtbos,
                                                                      tmp_path):
    merged = tmp_path / "merged.dtb"
    got = _apply(trees / f"{board}.dtb", dtbos / f"{AMP}.dtbo", merged)
    assert got.returncode == 0, got.stderr
    i2s = _cells(merged, I2S, "phandle")[0]
    dma = _cells(merged, DMA, "phandle")[0]
    assert _fdtget(merged, I2S, "compatible") == ["brcm,bcm2835-i2s"]
    assert _fdtget(merged, I2S, "status") == ["okay"]
    assert _cells(merged, I2S, "#sound-dai-cells") == [0]
    assert _cells(merged, I2S, "dmas") == [dma, 2, dma, 3]
    assert "brcm,bcm2835-dma" in _fdtget(merged, DMA, "compatible")
    cards = [f"/{n}" for n in _children(merged, "/")
             if "simple-audio-card" in _compatible(merged, f"/{n}")]
    assert len(cards) == 1
    card = cards[0]
    assert _fdtget(merged, card, "simple-audio-card,format") == ["i2s"]
    assert _cells(merged, f"{card}/simple-audio-card,cpu", "sound-dai") == [i2s]
    codec = _node_with_phandle(merged, "/", _cells(merged, f"{card}/simple-audio-card,codec",
                                                      "sound-dai")[0])
    assert _fdtget(merged, codec, "compatible") == ["maxim,max98357a"]
    used = _pinctrl_pins(merged, I2S)
    assert used == RESERVED["audio"]["i2s"]
    assert not used & _default_pins()


@needs_dtc
@pytest.mark.parametrize("overlay", (SCREEN, AMP))
def test_debians_own_trees_take_no_overlay_without_the_images_labels(overlay, debian, dtbos,
                                                                    tmp_path):
    got = _apply(debian / "broadcom/bcm2711-rpi-4-b.dtb", dtbos / f"{overlay}.dtbo",
                 tmp_path / "merged.dtb")
    assert got.returncode != 0 and "FDT_ERR_NOTFOUND" in got.stderr


@needs_dtc
def test_an_overlay_aimed_at_a_node_the_tree_lacks_is_refused(trees, tmp_path):
    source = (IMAGE / "overlays" / f"{AMP}.dts").read_text()
    assert source.count("i2s@7e203000") == 1
    broken = tmp_path / "broken.dts"
    broken.write_text(source.replace("i2s@7e203000", "i2s@7e203800"))
    subprocess.run(["dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", str(tmp_path / "b.dtbo"),
                    str(broken)], check=True)
    got = _apply(trees / "bcm2837-rpi-3-b.dtb", tmp_path / "b.dtbo", tmp_path / "merged.dtb")
    assert got.returncode != 0


@needs_dtc
def test_the_label_hook_changes_nothing_the_second_time(trees, tmp_path):
    copy = tmp_path / "trees"
    shutil.copytree(trees, copy)
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    again = subprocess.run(["sh", str(HOOK)], env=dict(os.environ, WOLFBOX_DTB_DIR=str(copy)),
                           capture_output=True, text=True, check=True)
    assert again.stdout == ""
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before


# The kernel itself with the overlays: Debian's kernel booted on qemu's
# Raspberry Pi 3 (-M raspi3b) with the Pi 3's tree as the image's boot
# partition holds it plus both overlays, and a tiny initramfs (busybox from
# Debian, the sound and SPI modules from the kernel's own package) that
# loads the drivers and reports what bound. The Pi 4 and Zero 2 W have no
# 64-bit qemu machine here; their trees are checked by fdtoverlay above.
INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /mods/order); do insmod /mods/$m || echo "insmod $m failed"; done
n=0
while ! grep -q MAX98357A /proc/asound/cards && [ $n -lt 1200 ]; do sleep 0.1; n=$((n+1)); done
echo "=== cards"; cat /proc/asound/cards
echo "=== spi"; cat /sys/bus/spi/devices/spi0.0/modalias
tr '\\0' ' ' < /sys/bus/spi/devices/spi0.0/of_node/compatible; echo
echo "=== end"
poweroff -f
"""
MODULES = ("spi_bcm2835", "snd_soc_bcm2835_i2s", "snd_soc_max98357a", "snd_soc_simple_card")


def _modules_in_order(tree: Path, wanted: tuple[str, ...]) -> list[Path]:
    """The modules and everything they depend on (their .modinfo's
    depends=), each after its dependencies: what insmod needs, without
    depmod."""
    by_name = {ko.name.split(".ko")[0].replace("-", "_"): ko for ko in tree.rglob("*.ko*")}
    order: list[Path] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        found = re.search(rb"depends=([^\0]*)\0", by_name[name].read_bytes())
        for dep in (found.group(1).decode().split(",") if found else []):
            if dep:
                visit(dep.replace("-", "_"))
        order.append(by_name[name])

    for name in wanted:
        visit(name)
    return order


def _newc(files: dict[str, tuple[int, bytes]]) -> bytes:
    """A cpio archive in the kernel's initramfs format (newc), from
    path -> (mode, bytes); directories have no bytes."""
    out = bytearray()
    for ino, (name, (mode, data)) in enumerate([*files.items(), ("TRAILER!!!", (0, b""))], 1):
        raw = name.encode() + b"\0"
        fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(raw), 0)
        out += b"070701" + "".join(f"{v:08x}" for v in fields).encode() + raw
        out += b"\0" * (-len(out) % 4) + data
        out += b"\0" * (-len(out) % 4)
    return bytes(out)


def _boot_pi3(debian: Path, dtb: Path, work: Path) -> str:
    """What the initramfs reports, read from qemu's serial port until its
    last line (a deadline only for a guest that never gets there)."""
    import gzip
    import selectors
    import time
    mods = _modules_in_order(next((debian / "lib/modules").iterdir()), MODULES)
    files = {d: (0o40755, b"") for d in ("bin", "proc", "sys", "dev", "mods")}
    files["bin/busybox"] = (0o100755, (debian / "busybox").read_bytes())
    files["init"] = (0o100755, INIT.encode())
    files["mods/order"] = (0o100644, "".join(f"{m.name}\n" for m in mods).encode())
    files.update({f"mods/{m.name}": (0o100644, m.read_bytes()) for m in mods})
    initrd = work / "initrd.gz"
    initrd.write_bytes(gzip.compress(_newc(files), 1))
    qemu = subprocess.Popen(
        ["qemu-system-aarch64", "-M", "raspi3b", "-m", "1G", "-kernel", str(debian / "vmlinuz"),
         "-dtb", str(dtb), "-initrd", str(initrd), "-append",
         "console=ttyAMA0 rdinit=/init loglevel=3 panic=-1", "-display", "none",
         "-serial", "stdio", "-monitor", "none", "-no-reboot"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert qemu.stdout is not None
    seen = b""
    deadline = time.monotonic() + 900
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(qemu.stdout, selectors.EVENT_READ)
            while b"=== end" not in seen and time.monotonic() < deadline:
                if sel.select(timeout=5):
                    chunk = qemu.stdout.read1(65536)          # type: ignore[attr-defined]
                    if not chunk:
                        break
                    seen += chunk
    finally:
        qemu.kill()                     # poweroff -f halts; qemu's Pi has no power switch
        qemu.wait()
    return seen.decode(errors="replace")


@needs_dtc
@pytest.mark.skipif(shutil.which("qemu-system-aarch64") is None,
                    reason="needs qemu-system-aarch64 (apt install qemu-system-arm; CI has it)")
def test_on_qemus_pi_3_the_kernel_makes_the_amplifier_a_sound_card(debian, trees, dtbos,
                                                                      tmp_path):
    merged = tmp_path / "pi3.dtb"
    got = subprocess.run(["fdtoverlay", "-i", str(trees / "bcm2837-rpi-3-b.dtb"), "-o", str(merged),
                          str(dtbos / f"{AMP}.dtbo"), str(dtbos / f"{SCREEN}.dtbo")],
                         capture_output=True, text=True, check=False)
    assert got.returncode == 0, got.stderr
    report = _boot_pi3(debian, merged, tmp_path)
    assert "=== end" in report, report[-3000:]
    cards = report.split("=== cards")[1].split("=== spi")[0]
    assert re.search(r"^\s*0 \[MAX98357A\s*\]: simple-card - MAX98357A", cards, re.M), cards
    # The screen: SPI0 runs and holds the ili9486 for a driver to take (the
    # image's kernel has none: see the parts table).
    spi = report.split("=== spi")[1].split("=== end")[0]
    assert "spi:rpi-lcd-35" in spi and "waveshare,rpi-lcd-35 ilitek,ili9486" in spi, spi


def _bom_row(part: str) -> str:
    for line in (ROOT / "hardware/BOM.md").read_text().splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 2 and cells[2] == part:
            return line
    raise AssertionError(f"hardware/BOM.md has no row for {part}")


@pytest.mark.parametrize("overlay", sorted(DRIVERS))
def test_the_image_kernel_drives_the_part_or_the_parts_table_says_it_does_not(overlay, debian):
    symbols, part = DRIVERS[overlay]
    config = (debian / "config").read_text()
    built = all(re.search(rf"^{s}=[ym]$", config, re.M) for s in symbols)
    row = _bom_row(part)
    says_not = "not with the image" in row
    assert built != says_not, (overlay, built, row)
    if built:
        assert f"dtoverlay={overlay}" in row


# The boot script: wolfbox.toml's [hardware] -> raspi-firmware-custom -> config.txt.

def _load_dtoverlays():
    spec = importlib.util.spec_from_file_location("wolfbox_image_dtoverlays",
                                                  LIB / "dtoverlays.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dtoverlays = _load_dtoverlays()
CUSTOM = "# Wolfbox image: appended to config.txt by raspi-firmware's hook.\n[all]\nquiet\n"


@pytest.fixture
def box(tmp_path):
    """A scratch root and boot partition: the image's custom file, a stand-in
    for raspi-firmware's hook (config.txt = its own lines + the custom file),
    the real label hook, both overlays on the card."""
    root, boot = tmp_path / "root", tmp_path / "boot"
    (root / "etc/default").mkdir(parents=True)
    (root / "etc/wolfbox").mkdir(parents=True)
    hooks = root / "etc/kernel/postinst.d"
    hooks.mkdir(parents=True)
    (root / dtoverlays.CUSTOM).write_text(CUSTOM)
    z50 = hooks / "z50-raspi-firmware"
    z50.write_text(f'#!/bin/sh\n{{ echo "arm_64bit=1"; cat "{root / dtoverlays.CUSTOM}"; }}'
                   f' > "{boot / "config.txt"}"\n')
    z50.chmod(0o755)
    shutil.copy(HOOK, hooks / HOOK.name)
    (boot / "overlays").mkdir(parents=True)
    for name in (dtoverlays.OVERLAYS.values()):
        (boot / "overlays" / f"{name}.dtbo").write_bytes(b"\xd0\x0d\xfe\xed")
    subprocess.run([str(z50)], check=True)
    return root, boot


def _settings(root: Path, screen: str, audio: str) -> None:
    (root / dtoverlays.CONFIG).write_text(f'[hardware]\nscreen = "{screen}"\naudio = "{audio}"\n')


def test_the_amplifier_in_the_settings_puts_its_line_in_config_txt_and_restarts_once(box):
    root, boot = box
    _settings(root, "hdmi", "i2s")
    done = dtoverlays.apply(root, boot, live=False)
    assert any("restarting once" in line for line in done)
    config = (boot / "config.txt").read_text()
    assert "dtoverlay=wolfbox-max98357a" in config and "ili9486" not in config
    assert config.index("quiet") < config.index("dtoverlay=")     # after the image's own lines
    assert dtoverlays.apply(root, boot, live=False) == []           # the next boot: nothing


def test_both_parts_then_none_leaves_the_rest_of_the_custom_file_as_it_was(box):
    root, boot = box
    _settings(root, "spi", "i2s")
    dtoverlays.apply(root, boot, live=False)
    config = (boot / "config.txt").read_text()
    assert "dtoverlay=wolfbox-ili9486\ndtoverlay=wolfbox-max98357a" in config
    _settings(root, "hdmi", "jack")
    done = dtoverlays.apply(root, boot, live=False)
    assert "dtoverlay lines now: none" in done
    assert (root / dtoverlays.CUSTOM).read_text() == CUSTOM
    assert "dtoverlay" not in (boot / "config.txt").read_text()


def test_a_missing_overlay_or_unreadable_settings_say_so_in_one_line_and_write_nothing(box):
    root, boot = box
    (boot / "overlays/wolfbox-max98357a.dtbo").unlink()
    _settings(root, "hdmi", "i2s")
    done = dtoverlays.apply(root, boot, live=False)
    assert done == ["overlays/wolfbox-max98357a.dtbo is not on the boot partition; "
                    "its line is left out"]
    (root / dtoverlays.CONFIG).write_text("[hardware\n")
    done = dtoverlays.apply(root, boot, live=False)
    assert len(done) == 1 and "cannot be read" in done[0]
    assert (root / dtoverlays.CUSTOM).read_text() == CUSTOM


def test_a_failing_firmware_hook_is_one_line_and_no_restart(box):
    root, boot = box
    (root / dtoverlays.Z50).write_text("#!/bin/sh\necho 'missing /boot/firmware' >&2\nexit 1\n")
    _settings(root, "hdmi", "i2s")
    done = dtoverlays.apply(root, boot, live=False)
    assert len(done) == 1 and "missing /boot/firmware" in done[0]


def test_with_the_amplifier_alsas_default_is_its_card_and_only_then(box):
    root, boot = box
    source = (IMAGE / "overlays" / f"{AMP}.dts").read_text()
    card = re.search(r'simple-audio-card,name = "([^"]+)"', source).group(1)
    _settings(root, "hdmi", "i2s")
    done = dtoverlays.apply(root, boot, live=False)
    asound = root / dtoverlays.ASOUND
    assert f'slave.pcm "hw:{card}"' in asound.read_text() and f"card {card}" in asound.read_text()
    assert f"ALSA's default device: the {card} card" in done
    _settings(root, "hdmi", "jack")
    dtoverlays.apply(root, boot, live=False)
    assert not asound.exists()
    asound.write_text("pcm.!default { type hw card 1 }\n")          # the owner's own
    _settings(root, "hdmi", "i2s")
    done = dtoverlays.apply(root, boot, live=False)
    assert asound.read_text() == "pcm.!default { type hw card 1 }\n"
    assert any("not this script's" in line for line in done)
    _settings(root, "hdmi", "jack")
    dtoverlays.apply(root, boot, live=False)
    assert asound.exists()


def test_the_boot_unit_runs_the_overlay_script_after_the_card_settings():
    unit = (IMAGE / "overlay/etc/systemd/system/wolfbox-bootfiles.service").read_text()
    runs = re.findall(r"^ExecStart=/usr/bin/python3 (\S+)$", unit, re.M)
    assert runs == ["/usr/local/lib/wolfbox-image/bootfiles.py",
                    "/usr/local/lib/wolfbox-image/dtoverlays.py"]
    assert os.access(HOOK, os.X_OK)                      # run-parts runs only executables


def test_the_amplifiers_picture_is_drawn_from_the_pins_the_overlay_uses():
    from wolfbox.hardware.diagram import AMP_GROUND_PIN, AMP_POWER_PIN, audio_svg
    from wolfbox.pinout import GROUND_PINS, HEADER, I2S_SIGNALS
    svg = (ROOT / "hardware/audio-wiring.svg").read_text()
    assert svg == audio_svg()
    wired = {int(n) for n in re.findall(r'fill-opacity="1" stroke="#222"/>\s*<text[^>]*>(\d+)<',
                                        svg)}
    assert wired == {HEADER[b] for b in I2S_SIGNALS} | {AMP_POWER_PIN, AMP_GROUND_PIN}
    assert AMP_GROUND_PIN in GROUND_PINS and AMP_POWER_PIN in (2, 4)
    source = (IMAGE / "overlays" / f"{AMP}.dts").read_text()
    pins = re.search(r"brcm,pins = <([\d ]+)>", source).group(1).split()
    assert set(I2S_SIGNALS) <= {int(p) for p in pins}
    assert not {HEADER[b] for b in I2S_SIGNALS} & {HEADER[p] for p in _default_pins()}
    bom = (ROOT / "hardware/BOM.md").read_text()
    for bcm, name in I2S_SIGNALS.items():
        assert f"| {name} | {HEADER[bcm]} | GPIO {bcm} |" in bom, name
    assert f"| GND | {AMP_GROUND_PIN} |" in bom and f"| Vin | {AMP_POWER_PIN} |" in bom
