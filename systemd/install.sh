#!/usr/bin/env bash
# Install Wolfbox as the Raspberry Pi's boot-to-box service.
#
#   sudo systemd/install.sh             install, or bring an install up to date
#   sudo systemd/install.sh --dry-run   print every step, change nothing
#   sudo systemd/install.sh --uninstall remove the service, the program and its cache
#   sudo systemd/install.sh --voices de,zh   also download Piper voices for German
#                                            and Chinese (needs the internet)
#   sudo systemd/install.sh --no-prepare     leave rendering the voice to the box's
#                                            first start
#   sudo systemd/install.sh --phones         open the service to the local network, for
#                                            phones at the table, and set up the box's own
#                                            Wi-Fi for them (--no-phones closes and removes it)
#   systemd/install.sh --list-packages       the Debian packages it installs
#
# For 64-bit Raspberry Pi OS, Debian, Ubuntu and Armbian (Bookworm, Trixie,
# Noble and later). Every step checks first and only acts when something is
# missing or out of date, so a second run changes nothing and says so.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# WOLFBOX_ROOT, WOLFBOX_USER, WOLFBOX_GROUPS, WOLFBOX_DEV and WOLFBOX_STEPS exist
# for the test suite, which installs into a scratch folder (WOLFBOX_STEPS: only
# these steps); on a Pi leave them unset.
ROOT=${WOLFBOX_ROOT:-}
PREFIX=$ROOT/opt/wolfbox
CONFIG_DIR=$ROOT/etc/wolfbox
CONFIG=$CONFIG_DIR/wolfbox.toml
CACHE=$ROOT/var/cache/wolfbox
STATE=$ROOT/var/lib/wolfbox
VOICES=$STATE/voices
VOICE_LANGS=""
UNIT=$ROOT/etc/systemd/system/wolfbox.service
PHONES_DROPIN=$ROOT/etc/systemd/system/wolfbox.service.d/phones.conf
POLKIT_RULE=$ROOT/etc/polkit-1/rules.d/50-wolfbox.rules
# The box's own Wi-Fi (--phones): a root unit the service may start and stop,
# NetworkManager's connection it brings up, the DNS and port 80 of its portal.
HOTSPOT_UNIT=$ROOT/etc/systemd/system/wolfbox-hotspot.service
NM_PROFILE=$ROOT/etc/NetworkManager/system-connections/wolfbox-hotspot.nmconnection
CAPTIVE_DNS=$ROOT/etc/NetworkManager/dnsmasq-shared.d/wolfbox-captive.conf
CAPTIVE_NFT=$ROOT/etc/wolfbox/captive.nft
# The unit's root helper: makes the Wi-Fi's name and passphrase, root's.
WIFI_HELPER=$ROOT/usr/local/lib/wolfbox/wolfbox-wifi
UDEV_RULE=$ROOT/etc/udev/rules.d/60-wolfbox-gpio.rules
DEV=${WOLFBOX_DEV:-/dev}
USER_NAME=${WOLFBOX_USER:-wolfbox}
read -r -a GROUPS_WANTED <<< "${WOLFBOX_GROUPS-gpio audio video render input tty}"
read -r -a STEPS <<< "${WOLFBOX_STEPS:-packages user program config dirs voices prepare polkit hotspot unit}"
# The groups the service joins, those of GROUPS_WANTED this system has: the
# unit names only these (systemd refuses to start a unit whose group is missing).
JOINED=()
# What the box takes from apt, the one list of it (--list-packages prints it).
# espeak-ng speaks German and Mandarin where no Piper voice for them is
# installed; fonts-wqy-microhei draws Chinese; polkitd (with dbus) lets the
# service power the Pi off; colorzero, under gpiozero, needs setuptools.
# SDL's KMSDRM draws through EGL on GBM, which load Mesa's DRI drivers (vc4
# and v3d on a Pi): libgl1-mesa-dri, which neither libegl1 nor libgbm1
# brings on bookworm (without it the box falls back to the terminal).
APT_PACKAGES=(python3 python3-venv python3-pip python3-setuptools espeak-ng libgbm1 libegl1
              libgles2 libgl1-mesa-dri libasound2 fonts-wqy-microhei dbus polkitd)
# With phones (--phones), the box's own Wi-Fi: NetworkManager runs its access
# point; dnsmasq-base and wpasupplicant, only recommended by it, hand out the
# phones' addresses and answer their DNS, and drive the radio; nftables sends
# port 80 (the phones' "is there internet?" probes) to the page; iw tells the
# box when the home network's access point is gone (NetworkManager may not).
PHONE_PACKAGES=(network-manager dnsmasq-base wpasupplicant nftables iw)
# The GPIO driver: from apt where the archive has it (Raspberry Pi OS's does),
# else its wheel from PyPI into the box's venv (Debian, Ubuntu, Armbian).
APT_PREFERRED=(python3-lgpio)
pypi_for() {
    case $1 in
        python3-lgpio) printf 'lgpio==0.2.2.0' ;;
        *) return 1 ;;
    esac
}
FROM_PYPI=()

DRY_RUN=0
PREPARE=1
PHONES=""          # on, off, or "": as an earlier run left it
MODE=install
CHANGED=0

usage() {
    sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
}

list_packages() {
    local pkg
    for pkg in "${APT_PACKAGES[@]}"; do printf 'apt %s\n' "$pkg"; done
    for pkg in "${PHONE_PACKAGES[@]}"; do printf 'apt-phones %s\n' "$pkg"; done
    for pkg in "${APT_PREFERRED[@]}"; do printf 'apt-or-pypi %s %s\n' "$pkg" "$(pypi_for "$pkg")"; done
}

for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) MODE=uninstall ;;
        --no-prepare) PREPARE=0 ;;
        --phones) PHONES=on ;;
        --no-phones) PHONES=off ;;
        --voices=*) VOICE_LANGS=${arg#--voices=} ;;
        --list-packages) list_packages; exit 0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (use --dry-run, --uninstall, --no-prepare," \
                "--phones, --no-phones, --voices=de,zh, --list-packages or --help)" >&2
           exit 2 ;;
    esac
done

# The Piper voice the box uses for each language when it is installed
# (else espeak-ng speaks that language). Licences: see their MODEL_CARD.
voice_for() {
    case $1 in
        de) printf 'de_DE-thorsten-medium' ;;
        zh) printf 'zh_CN-huayan-medium' ;;
        *) return 1 ;;
    esac
}

say() { printf '%s\n' "$*"; }

for lang in ${VOICE_LANGS//,/ }; do
    if ! voice_for "$lang" >/dev/null; then
        echo "install.sh: no Piper voice known for '$lang' (--voices takes de, zh or both)" >&2
        exit 2
    fi
done

# Run a command that changes the system, or say what it would be.
act() {
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        say "  would run: $*"
    else
        say "  running: $*"
        "$@"
    fi
}

# Write stdin to a file (mode, owner) if its content differs.
put_file() {
    local path=$1 mode=$2 content
    content=$(cat)
    if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
        say "ok: $path is up to date"
        return
    fi
    say "do: write $path"
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        say "  would write $path (mode $mode)"
    else
        install -d "$(dirname "$path")"
        printf '%s\n' "$content" > "$path.tmp"
        chmod "$mode" "$path.tmp"
        mv "$path.tmp" "$path"
    fi
}

check_platform() {
    local arch=${WOLFBOX_ARCH:-$(uname -m)}
    case $arch in
        aarch64|arm64|x86_64) ;;
        armv6l|armv7l|armhf|armel)
            say "install.sh: this is 32-bit Raspberry Pi OS ($arch). Wolfbox needs the 64-bit" \
                "OS: its voice runs on onnxruntime, which has no 32-bit ARM build." \
                "Flash Raspberry Pi OS (64-bit) and run this again." >&2
            exit 1 ;;
        *) say "install.sh: unsupported machine '$arch' (64-bit ARM or x86 only)" >&2
           exit 1 ;;
    esac
    local codename=""
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null
        codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
    fi
    case $codename in
        bookworm|trixie|noble) ;;
        *) say "note: made for Debian, Raspberry Pi OS or Armbian Bookworm or Trixie, or Ubuntu" \
               "Noble (Python 3.11 or newer); this is '${codename:-unknown}'" ;;
    esac
    if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        say "install.sh: run it as root (sudo $0), or with --dry-run to see the steps" >&2
        exit 1
    fi
}

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# Whether this system's apt archive offers a package (its lists, as last updated).
apt_has() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

# Phones on: asked now (--phones), or left so by an earlier run.
phones_on() {
    [ "$PHONES" = on ] || { [ -z "$PHONES" ] && [ -e "$PHONES_DROPIN" ]; }
}

step_packages() {
    local missing=() pkg wanted=("${APT_PACKAGES[@]}")
    if phones_on; then
        wanted+=("${PHONE_PACKAGES[@]}")
        for pkg in "${PHONE_PACKAGES[@]}"; do
            if ! installed "$pkg"; then
                say "note: the box's own Wi-Fi for the phones needs $pkg (NetworkManager runs" \
                    "its access point): installing it"
            fi
        done
    fi
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "do: update apt's package lists (${missing[*]} to install)"
        act apt-get update                     # what the archive has is only known after it
    fi
    for pkg in "${APT_PREFERRED[@]}"; do
        if installed "$pkg"; then
            continue
        elif apt_has "$pkg"; then
            missing+=("$pkg")
        else
            FROM_PYPI+=("$(pypi_for "$pkg")")
            say "note: no $pkg in this system's apt archive (Raspberry Pi OS has it):" \
                "$(pypi_for "$pkg") comes from PyPI into the box's venv instead"
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "ok: packages are installed (${wanted[*]})"
        return
    fi
    say "do: install packages: ${missing[*]}"
    act apt-get install -y --no-install-recommends "${missing[@]}"
}

# The group that reaches the GPIO chips: Raspberry Pi OS has "gpio"; elsewhere
# they belong to root, or to a group of the system's own, which the service
# joins instead. Prints nothing when there is neither: the installer makes
# "gpio" then, with a udev rule giving it the chips as Raspberry Pi OS's does.
gpio_group() {
    local chip group
    if getent group gpio >/dev/null; then
        printf 'gpio'
        return
    fi
    for chip in "$DEV"/gpiochip* "$DEV"/gpiomem*; do
        [ -e "$chip" ] || continue
        group=$(stat -c %G "$chip")
        if [ "$group" != root ]; then
            printf '%s' "$group"
            return
        fi
    done
}

step_gpio_rule() {
    put_file "$UDEV_RULE" 0644 <<'EOF'
# Wolfbox: the gpio group reads and drives the GPIO chips, as on Raspberry Pi OS
# (systemd/install.sh made the group and this rule: this system had neither).
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
KERNEL=="gpiomem*", GROUP="gpio", MODE="0660"
EOF
    if [ -S "$ROOT/run/udev/control" ]; then            # udev runs: apply it now
        act udevadm control --reload
        act udevadm trigger --action=change --sysname-match='gpiochip*' \
            --sysname-match='gpiomem*'
    fi
}

step_user() {
    if id "$USER_NAME" >/dev/null 2>&1; then
        say "ok: user $USER_NAME exists"
    else
        say "do: create the system user $USER_NAME"
        act useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
    fi
    local group made
    for group in "${GROUPS_WANTED[@]}"; do
        made=0
        if [ "$group" = gpio ]; then
            group=$(gpio_group)
            if [ -z "$group" ]; then
                group=gpio
                made=1
                say "do: make the group gpio for the GPIO chips (this system has none)"
                act groupadd --system gpio
            elif [ "$group" != gpio ]; then
                say "note: the GPIO chips belong to group $group here; $USER_NAME joins it"
            fi
            if [ "$made" = 1 ] || [ -f "$UDEV_RULE" ]; then
                step_gpio_rule
            fi
        fi
        if [ "$made" = 0 ] && ! getent group "$group" >/dev/null; then
            say "note: no group $group on this system; skipped"
            continue
        fi
        JOINED+=("$group")
        if id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            say "ok: $USER_NAME is in group $group"
        else
            say "do: add $USER_NAME to group $group"
            act usermod -aG "$group" "$USER_NAME"
        fi
    done
}

source_stamp() {
    (printf '%s\n' "${FROM_PYPI[@]}"; cd "$SOURCE" && find pyproject.toml systemd/constraints.txt wolfbox device audio hardware phones \
        -type f \( -name '*.py' -o -name '*.toml' -o -name '*.txt' \) -print0 | sort -z \
        | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

# Each version lives in its own folder next to $PREFIX, which is a link to the
# current one: a new version is built beside the old (a venv cannot be moved,
# so it is made where it will run), and the link is swapped only once it is
# complete. A failed update leaves the old version running, and nothing of an
# older version (a module since removed, a stale .pyc) survives into a new one.
step_program() {
    local stamp release
    stamp=$(source_stamp)
    if [ -f "$PREFIX/.installed" ] && [ "$(cat "$PREFIX/.installed")" = "$stamp" ]; then
        say "ok: $PREFIX holds this version of Wolfbox"
        return
    fi
    release=$PREFIX-${stamp:0:12}
    say "do: install Wolfbox into $release, then point $PREFIX at it" \
        "(a venv that sees Debian's packages; versions pinned by systemd/constraints.txt)"
    if [ -e "$release" ]; then
        act rm -rf "$release"                        # a half-built one from a failed run
    fi
    act install -d -m 0755 "$release"
    act cp -r "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/wolfbox" "$SOURCE/device" \
        "$SOURCE/audio" "$SOURCE/hardware" "$SOURCE/phones" "$release/"
    # No pip of its own: Debian's python3-pip, seen through --system-site-packages,
    # installs into it (seconds saved on a Pi Zero, nothing to keep up to date).
    act python3 -m venv --without-pip --system-site-packages "$release/.venv"
    if [ "$DRY_RUN" = 0 ] && ! "$release/.venv/bin/python" -m pip --version >/dev/null 2>&1; then
        act "$release/.venv/bin/python" -m ensurepip --default-pip
    fi
    act "$release/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --constraint "$SOURCE/systemd/constraints.txt" "$release"
    local wheel
    for wheel in "${FROM_PYPI[@]}"; do
        # A wheel or nothing: no compiler on the box. Without it gpiozero falls
        # back to its native driver, or the box says the buttons are off.
        if ! act "$release/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
                --only-binary :all: "$wheel"; then
            say "warning: no wheel of $wheel for this Python: the buttons use gpiozero's" \
                "native driver (a Pi 4 or older; on a Pi 5 they stay off)"
        fi
    done
    if [ "$DRY_RUN" = 0 ]; then
        printf '%s\n' "$stamp" > "$release/.installed"
    fi
    if [ -d "$PREFIX" ] && [ ! -L "$PREFIX" ]; then
        act rm -rf "$PREFIX"                         # an install from before the links
    fi
    act ln -sfn "$(basename "$release")" "$PREFIX.new"
    act mv -T "$PREFIX.new" "$PREFIX"
    local old
    for old in "$PREFIX"-????????????; do
        if [ -d "$old" ] && [ "$old" != "$release" ]; then
            act rm -rf "$old"
        fi
    done
}

step_config() {
    if [ -f "$CONFIG" ]; then
        say "ok: $CONFIG exists (kept as it is)"
        return
    fi
    put_file "$CONFIG" 0644 <<'EOF'
# Wolfbox settings; `wolfbox config` prints every key with its default.
[hardware]
pin_factory = "auto"
screen = "hdmi"        # hdmi, dsi or spi (a 3.5" SPI screen keeps its pins free)
audio = "jack"         # jack, usb, hdmi or i2s
power_action = "poweroff"
EOF
}

step_dirs() {
    local dir
    for dir in "$CACHE" "$STATE"; do
        if [ -d "$dir" ] && [ "$(stat -c %U "$dir")" = "$USER_NAME" ]; then
            say "ok: $dir belongs to $USER_NAME"
        else
            say "do: make $dir for $USER_NAME"
            act install -d -o "$USER_NAME" -g "$USER_NAME" -m 0700 "$dir"
        fi
    done
}

step_voices() {
    local lang name
    if [ -z "$VOICE_LANGS" ]; then
        say "tip: sudo $0 --voices=de,zh downloads Piper voices for German and Chinese" \
            "(needs the internet); without them the box speaks those with espeak-ng"
        return
    fi
    for lang in ${VOICE_LANGS//,/ }; do
        name=$(voice_for "$lang")
        if [ -f "$VOICES/$name.onnx" ] && [ -f "$VOICES/$name.onnx.json" ]; then
            say "ok: the $lang voice $name is in $VOICES"
            continue
        fi
        say "do: download the Piper voice $name into $VOICES"
        act install -d -o "$USER_NAME" -g "$USER_NAME" -m 0755 "$VOICES"
        if ! act runuser -u "$USER_NAME" -- "$PREFIX/.venv/bin/python" -m piper.download_voices \
                --download-dir "$VOICES" "$name"; then
            say "warning: could not download $name (no internet?): $lang is spoken by espeak-ng"
        fi
    done
}

step_prepare() {
    # The service's own state: lines are rendered at the speed chosen on the box.
    local run=(runuser -u "$USER_NAME" -- env "CACHE_DIRECTORY=$CACHE" HOME="$STATE"
               "STATE_DIRECTORY=$STATE" "WOLFBOX_VOICES=$VOICES"
               "$PREFIX/.venv/bin/wolfbox" prepare --config "$CONFIG")
    local later="the box renders a game's lines in the background when it opens it"
    later+=" (captions until each line is ready)"
    if [ "$PREPARE" = 0 ]; then
        say "skip: rendering the voice (--no-prepare): $later"
        return
    fi
    if [ "$DRY_RUN" = 0 ] && "${run[@]}" --check >/dev/null 2>&1; then
        say "ok: every line is rendered"
        return
    fi
    say "do: render every line of the voice (a few minutes on a Pi 4, longer on a Zero)"
    if ! act "${run[@]}"; then
        say "note: rendering the voice failed (above); $later"
    fi
}

step_polkit() {
    {
        cat <<EOF
// Let the Wolfbox service power the Pi off when its power button is held.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "$USER_NAME") {
        return polkit.Result.YES;
    }
});
EOF
        if phones_on; then
            cat <<EOF
// With phones (install.sh --phones): let it start and stop the box's own
// Wi-Fi, that one unit and nothing else of systemd or NetworkManager.
polkit.addRule(function(action, subject) {
    if (action.id == "org.freedesktop.systemd1.manage-units" &&
        action.lookup("unit") == "wolfbox-hotspot.service" &&
        (action.lookup("verb") == "start" || action.lookup("verb") == "stop") &&
        subject.user == "$USER_NAME") {
        return polkit.Result.YES;
    }
});
EOF
        fi
    } | put_file "$POLKIT_RULE" 0644
}

# The box's own Wi-Fi, for phones where no network it knows is in reach
# ([phones] network = "auto" or "own"; device/hotspot.py): NetworkManager's
# connection (a Wi-Fi access point on 10.42.0.1/24 that isolates its guests,
# WPA2-PSK with CCMP, the passphrase given by nmcli's passwd-file each time,
# never stored by NetworkManager), the root unit and its helper that make
# this box's name and passphrase (root's; the box only reads them) and bring
# it up, and its rules: every DNS name answered with the box, port 80 sent
# to the page's 8080, and nothing forwarded from or to it while it is up.
step_hotspot() {
    if ! phones_on; then
        local path
        for path in "$HOTSPOT_UNIT" "$NM_PROFILE" "$CAPTIVE_DNS" "$CAPTIVE_NFT" "$WIFI_HELPER"; do
            if [ -e "$path" ]; then act rm -f "$path"; fi
        done
        return
    fi
    put_file "$NM_PROFILE" 0600 < "$SOURCE/systemd/wolfbox-hotspot.nmconnection"
    put_file "$CAPTIVE_DNS" 0644 <<'EOF'
# Wolfbox's captive portal (systemd/install.sh --phones): on the box's own
# Wi-Fi, NetworkManager's dnsmasq answers every name with the box, so a
# phone's "is there internet?" probe reaches the phones' page.
address=/#/10.42.0.1
EOF
    put_file "$CAPTIVE_NFT" 0644 < "$SOURCE/systemd/captive.nft"
    # Root's, as everything a root unit runs or reads (never the box's user's).
    put_file "$WIFI_HELPER" 0755 < "$SOURCE/systemd/wolfbox-wifi"
    put_file "$HOTSPOT_UNIT" 0644 < "$SOURCE/systemd/wolfbox-hotspot.service"
    if [ -z "$ROOT" ] && [ -d /run/systemd/system ] &&
            systemctl is-active --quiet NetworkManager.service 2>/dev/null; then
        act nmcli connection reload
    fi
}

# The unit as shipped, joining only the groups this system has.
unit_text() {
    if [ ${#JOINED[@]} -eq 0 ]; then
        sed '/^SupplementaryGroups=/d' "$SOURCE/systemd/wolfbox.service"
    else
        sed "s/^SupplementaryGroups=.*/SupplementaryGroups=${JOINED[*]}/" \
            "$SOURCE/systemd/wolfbox.service"
    fi
}

step_unit() {
    unit_text | put_file "$UNIT" 0644
    if [ "$PHONES" = on ]; then
        put_file "$PHONES_DROPIN" 0644 < "$SOURCE/systemd/phones.conf"
    elif [ "$PHONES" = off ] && [ -e "$PHONES_DROPIN" ]; then
        act rm -f "$PHONES_DROPIN"
    fi
    if [ ! -d "$ROOT/run/systemd/system" ]; then
        # No systemd running (a chroot, an image being built): it starts at boot.
        if systemctl --root="${ROOT:-/}" is-enabled --quiet wolfbox.service 2>/dev/null; then
            say "ok: wolfbox.service is enabled"
        else
            say "do: enable wolfbox.service at boot (systemd is not running: not started now)"
            act systemctl --root="${ROOT:-/}" enable wolfbox.service
        fi
        return
    fi
    if [ "$CHANGED" = 1 ]; then
        act systemctl daemon-reload
    fi
    if systemctl is-enabled --quiet wolfbox.service 2>/dev/null; then
        say "ok: wolfbox.service is enabled"
    else
        say "do: enable wolfbox.service at boot"
        act systemctl enable wolfbox.service
    fi
    if [ "$CHANGED" = 1 ]; then
        say "do: (re)start wolfbox.service"
        act systemctl restart wolfbox.service
    elif systemctl is-active --quiet wolfbox.service 2>/dev/null; then
        say "ok: wolfbox.service is running"
    else
        say "do: start wolfbox.service"
        act systemctl start wolfbox.service
    fi
}

install_all() {
    check_platform
    say "Installing Wolfbox from $SOURCE$([ "$DRY_RUN" = 1 ] && printf ' (dry run: nothing is changed)')"
    local step
    for step in "${STEPS[@]}"; do
        "step_$step"
    done
    if [ "$CHANGED" = 0 ]; then
        say "Nothing to change: Wolfbox is installed and up to date."
    elif [ "$DRY_RUN" = 1 ]; then
        say "Dry run over: the steps above are what an install would do."
    else
        say "Done. Wolfbox starts on tty1 at every boot (journalctl -u wolfbox to follow it)."
    fi
}

uninstall_all() {
    say "Removing Wolfbox$([ "$DRY_RUN" = 1 ] && printf ' (dry run: nothing is changed)')"
    if systemctl list-unit-files wolfbox.service >/dev/null 2>&1 && [ -f "$UNIT" ]; then
        act systemctl disable --now wolfbox.service
    fi
    local path
    if systemctl list-unit-files wolfbox-hotspot.service >/dev/null 2>&1 &&
            [ -f "$HOTSPOT_UNIT" ]; then
        act systemctl stop wolfbox-hotspot.service
    fi
    for path in "$UNIT" "$PHONES_DROPIN" "$POLKIT_RULE" "$UDEV_RULE" "$HOTSPOT_UNIT" \
            "$NM_PROFILE" "$CAPTIVE_DNS" "$CAPTIVE_NFT" "$WIFI_HELPER"; do
        if [ -e "$path" ]; then act rm -f "$path"; else say "ok: no $path"; fi
    done
    for path in "$PREFIX" "$CACHE" "$STATE" "$ROOT/var/lib/wolfbox-wifi"; do
        if [ -e "$path" ] || [ -L "$path" ]; then act rm -rf "$path"; else say "ok: no $path"; fi
    done
    for path in "$PREFIX"-????????????; do
        if [ -d "$path" ]; then act rm -rf "$path"; fi
    done
    if [ "$USER_NAME" != wolfbox ]; then
        say "kept: user $USER_NAME (not the installer's own)"
    elif id "$USER_NAME" >/dev/null 2>&1; then
        act userdel "$USER_NAME"
    else
        say "ok: no user $USER_NAME"
    fi
    if [ "$CHANGED" = 1 ] && [ -d /run/systemd/system ]; then
        act systemctl daemon-reload
    fi
    if [ -f "$CONFIG" ]; then
        say "kept: your settings in $CONFIG (delete $CONFIG_DIR to remove them)"
    fi
    if [ "$CHANGED" = 0 ]; then
        say "Nothing to remove: Wolfbox is not installed."
    fi
}

if [ "$MODE" = uninstall ]; then
    if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        say "install.sh: run it as root (sudo $0 --uninstall)" >&2
        exit 1
    fi
    uninstall_all
else
    install_all
fi
