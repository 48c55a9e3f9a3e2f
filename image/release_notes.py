"""The release notes of one version tag: what changed since the tag before
it, from the commits on the main line (first parent: a merged branch is its
merge commit's one line, not each of its own), and how to check the
download. The release workflow (.github/workflows/release.yml) puts this on
the release page.

    python3 image/release_notes.py v1.2.0 [--sha256 wolfbox-1.2.0.img.xz.sha256]

Standard library and git only: it runs on the release runner before any
venv exists.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

TAG = re.compile(r"^v(\d+\.\d+\.\d+(?:[-.][0-9A-Za-z.]+)?)$")
MERGE = re.compile(r"^Merge (?:branch '[^']+'|[\w./-]+)(?:: | into \S+: ?)")
MOST = 200          # a first release lists at most this many lines


class NotesError(ValueError):
    """A tag or repository the notes cannot be written for."""


def _git(repo: Path, *args: str) -> str:
    got = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                         check=False)
    if got.returncode != 0:
        raise NotesError(f"git {' '.join(args)}: {got.stderr.strip() or 'failed'}")
    return got.stdout


def version_of(tag: str) -> str:
    """v1.2.0 -> 1.2.0; anything else is not a release tag."""
    m = TAG.match(tag)
    if not m:
        raise NotesError(f"tag {tag!r} is not a version tag: v, then MAJOR.MINOR.PATCH "
                         "(v1.2.0, v1.2.0-rc1)")
    return m.group(1)


def previous_tag(repo: Path, tag: str) -> str | None:
    """The nearest version tag before this one on its history, if any."""
    try:
        tags = _git(repo, "tag", "--merged", f"{tag}^", "--sort=-v:refname", "--list", "v*")
    except NotesError:                                  # the tag is on the first commit
        return None
    for line in tags.split():
        if TAG.match(line) and line != tag:
            return line
    return None


def changes(repo: Path, tag: str, since: str | None) -> list[str]:
    """One line per change on the main line, oldest first; a merge commit's
    "Merge NAME: " prefix dropped."""
    span = f"{since}..{tag}" if since else tag
    lines = []
    for subject in _git(repo, "log", "--first-parent", "--reverse", "--format=%s",
                        span).splitlines():
        subject = MERGE.sub("", subject).strip()
        if subject:
            lines.append(subject)
    return lines


def notes(repo: Path, tag: str, sha256: str | None = None) -> str:
    version = version_of(tag)
    try:
        _git(repo, "rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}")
    except NotesError:
        raise NotesError(f"no tag {tag} in {repo} (a shallow clone has no tags: "
                         "fetch with its whole history)") from None
    since = previous_tag(repo, tag)
    lines = changes(repo, tag, since)
    out = [f"# Wolfbox {version}", "",
           f"The SD-card image for a Raspberry Pi 3, 4 or Zero 2 W: `wolfbox-{version}.img.xz`. "
           "Flash it with Raspberry Pi Imager (*Use custom*) or "
           f"`xzcat wolfbox-{version}.img.xz | sudo dd of=/dev/sdX bs=4M conv=fsync`; "
           "the README's \"Flash and play\" says what to put on the card.", ""]
    if sha256:
        out += ["Check the download before flashing it:", "", "```",
                f"{sha256}  wolfbox-{version}.img.xz", "```", "",
                f"(`sha256sum -c wolfbox-{version}.img.xz.sha256`)", ""]
    if since:
        out += [f"## Changes since {since}", ""]
    else:
        out += ["## Changes (the first release)", ""]
    shown = lines if since else lines[-MOST:]
    if not shown:
        out.append("- No changes on the main line since the last release.")
    if not since and len(lines) > MOST:
        out.append(f"- ({len(lines) - MOST} earlier changes not listed)")
    out += [f"- {line}" for line in shown]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Release notes for a version tag.")
    parser.add_argument("tag")
    parser.add_argument("--sha256", type=Path, help="the image's .sha256 file (sha256sum's)")
    parser.add_argument("--repo", type=Path, default=Path.cwd())
    args = parser.parse_args(argv)
    try:
        digest = None
        if args.sha256:
            try:
                digest = args.sha256.read_text().split()[0]
            except (OSError, IndexError) as e:
                raise NotesError(f"{args.sha256}: no SHA-256 in it ({e})") from None
            if not re.fullmatch(r"[0-9a-f]{64}", digest):
                raise NotesError(f"{args.sha256}: {digest!r} is not a SHA-256 (64 hex digits)")
        sys.stdout.write(notes(args.repo, args.tag, digest))
    except NotesError as e:
        print(f"release-notes: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
