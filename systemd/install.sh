#!/usr/bin/env bash
# Install Wolfbox as the Raspberry Pi's boot-to-box service.
#
#   sudo systemd/install.sh             install, or bring an install up to date
#   sudo systemd/install.sh --dry-run   print every step, change nothing
#   sudo systemd/install.sh --uninstall remove the service, the program and its cache
#   sudo systemd/install.sh --voices de,zh   also download Piper voices for German
#                                            and Chinese (needs the internet)
#
# For Raspberry Pi OS 64-bit (Bookworm, Trixie). Every step checks first and
# only acts when something is missing or out of date, so a second run
# changes nothing and says so.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# WOLFBOX_ROOT, WOLFBOX_USER and WOLFBOX_GROUPS exist for the test suite, which
# installs into a scratch folder; on a Pi leave them unset.
ROOT=${WOLFBOX_ROOT:-}
PREFIX=$ROOT/opt/wolfbox
CONFIG_DIR=$ROOT/etc/wolfbox
CONFIG=$CONFIG_DIR/wolfbox.toml
CACHE=$ROOT/var/cache/wolfbox
STATE=$ROOT/var/lib/wolfbox
VOICES=$STATE/voices
VOICE_LANGS=""
UNIT=$ROOT/etc/systemd/system/wolfbox.service
POLKIT_RULE=$ROOT/etc/polkit-1/rules.d/50-wolfbox.rules
USER_NAME=${WOLFBOX_USER:-wolfbox}
read -r -a GROUPS_WANTED <<< "${WOLFBOX_GROUPS-gpio audio video render input tty}"
# espeak-ng speaks German and Mandarin where no Piper voice for them is
# installed; fonts-wqy-microhei draws Chinese.
APT_PACKAGES=(python3 python3-venv python3-pip python3-lgpio espeak-ng libgbm1 libegl1
              libgles2 libasound2 fonts-wqy-microhei)

DRY_RUN=0
MODE=install
CHANGED=0

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) MODE=uninstall ;;
        --voices=*) VOICE_LANGS=${arg#--voices=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (use --dry-run, --uninstall," \
                "--voices=de,zh or --help)" >&2
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
        bookworm|trixie) ;;
        *) say "note: made for Raspberry Pi OS Bookworm or Trixie; this is '${codename:-unknown}'" ;;
    esac
    if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        say "install.sh: run it as root (sudo $0), or with --dry-run to see the steps" >&2
        exit 1
    fi
}

step_packages() {
    local missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "ok: packages are installed (${APT_PACKAGES[*]})"
        return
    fi
    say "do: install packages: ${missing[*]}"
    act apt-get update
    act apt-get install -y --no-install-recommends "${missing[@]}"
}

step_user() {
    if id "$USER_NAME" >/dev/null 2>&1; then
        say "ok: user $USER_NAME exists"
    else
        say "do: create the system user $USER_NAME"
        act useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
    fi
    local group
    for group in "${GROUPS_WANTED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            say "note: no group $group on this system; skipped"
        elif id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            say "ok: $USER_NAME is in group $group"
        else
            say "do: add $USER_NAME to group $group"
            act usermod -aG "$group" "$USER_NAME"
        fi
    done
}

source_stamp() {
    (cd "$SOURCE" && find pyproject.toml systemd/constraints.txt wolfbox device audio hardware \
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
        "(a venv that sees Debian's python3-lgpio; versions pinned by systemd/constraints.txt)"
    if [ -e "$release" ]; then
        act rm -rf "$release"                        # a half-built one from a failed run
    fi
    act install -d -m 0755 "$release"
    act cp -r "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/wolfbox" "$SOURCE/device" \
        "$SOURCE/audio" "$SOURCE/hardware" "$release/"
    # No pip of its own: Debian's python3-pip, seen through --system-site-packages,
    # installs into it (seconds saved on a Pi Zero, nothing to keep up to date).
    act python3 -m venv --without-pip --system-site-packages "$release/.venv"
    if [ "$DRY_RUN" = 0 ] && ! "$release/.venv/bin/python" -m pip --version >/dev/null 2>&1; then
        act "$release/.venv/bin/python" -m ensurepip --default-pip
    fi
    act "$release/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --constraint "$SOURCE/systemd/constraints.txt" "$release"
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
    if [ "$DRY_RUN" = 0 ] && "${run[@]}" --check >/dev/null 2>&1; then
        say "ok: every line is rendered"
        return
    fi
    say "do: render every line of the voice (a few minutes on a Pi 4, longer on a Zero)"
    act "${run[@]}"
}

step_polkit() {
    put_file "$POLKIT_RULE" 0644 <<EOF
// Let the Wolfbox service power the Pi off when its power button is held.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "$USER_NAME") {
        return polkit.Result.YES;
    }
});
EOF
}

step_unit() {
    put_file "$UNIT" 0644 < "$SOURCE/systemd/wolfbox.service"
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
    step_packages
    step_user
    step_program
    step_config
    step_dirs
    step_voices
    step_prepare
    step_polkit
    step_unit
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
    for path in "$UNIT" "$POLKIT_RULE"; do
        if [ -e "$path" ]; then act rm -f "$path"; else say "ok: no $path"; fi
    done
    for path in "$PREFIX" "$CACHE" "$STATE"; do
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
