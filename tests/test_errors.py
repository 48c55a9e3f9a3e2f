"""One tree of errors (wolfbox.errors): every exception class the box
defines is in it, or is one of the few private ones that steer control
flow inside their module; and the commands catch its root, so any kind of
bad input is one line and exit 2, never a traceback."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import wolfbox
from wolfbox import cli, errors

# Exceptions that never leave their module (errors.py's docstring names them).
PRIVATE = {"wolfbox.config._NotRegular", "wolfbox.device.joincard.NoRoom",
           "wolfbox.audio.renderer._Hung", "wolfbox.audio.renderer._TooLong",
           "wolfbox.audio.renderer._Died", "wolfbox.device.signals.Stopped",
           "wolfbox.device.hotspot._ToolFailed", "wolfbox.device.hotspot._NoManager",
           "wolfbox.device.hotspot._UpFailed"}


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    # The adapters install as wolfbox's subpackages from folders of their own.
    packages = [wolfbox] + [importlib.import_module(f"wolfbox.{name}")
                            for name in ("device", "audio", "hardware", "phones")]
    names = {info.name for package in packages
             for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")}
    for name in sorted(names):
        if name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("wolfbox."):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_exception_of_the_box_is_in_the_one_tree_or_private() -> None:
    found = _exception_classes()
    assert PRIVATE <= set(found)            # the list above names real classes
    outside = sorted(name for name, cls in found.items()
                     if name not in PRIVATE
                     and not (cls.__module__ == "wolfbox.errors"
                              and issubclass(cls, errors.WolfboxError)))
    assert outside == []
    # ... and the tree's docstring draws each of them
    for name, cls in found.items():
        if cls.__module__ == "wolfbox.errors":
            assert f" {cls.__name__} " in errors.__doc__, name


def test_no_two_exceptions_share_a_name() -> None:
    names = [cls.__name__ for cls in _exception_classes().values()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("kind", [errors.NotJson, errors.CannotResume,
                                  errors.MalformedMessage, errors.DeckError])
def test_a_command_says_any_kind_as_one_line_and_exits_2(
        kind: type[errors.WolfboxError], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def dispatch(_args: object) -> int:
        raise kind("the saved seat 9 is not a seat\nof this table")
    monkeypatch.setattr(cli, "_dispatch", dispatch)
    assert cli.main(["decks"]) == 2
    assert capsys.readouterr().err == "wolfbox: the saved seat 9 is not a seat of this table\n"


def test_a_tampered_frame_is_not_swallowed_by_an_except_value_error():
    """A phone's frame that does not open must reach whoever closes the
    socket. A reader that opens a frame and parses its JSON catches the
    JSON's ValueError (image/phones_sim.py's reader does, round
    `json.loads(channel.open(frame))`): a tampered frame passes through
    that clause, as does a message the box will not take."""
    import json

    from nacl.public import PrivateKey

    from wolfbox.phones import protocol, seal

    box_key, phone_key = PrivateKey.generate(), PrivateKey.generate()
    challenge = seal.challenge()
    phone = seal.Channel(phone_key, bytes(box_key.public_key), box=False, challenge=challenge)
    box = seal.Channel(box_key, bytes(phone_key.public_key), box=True, challenge=challenge)
    frame = bytearray(phone.seal(b'{"t": "hello"}'))
    frame[-1] ^= 1                                      # one bit flipped on the way

    def read(raw: bytes) -> object:
        try:
            return json.loads(box.open(raw))
        except ValueError:                              # not JSON: passed over
            return None

    with pytest.raises(errors.Unsealable):
        read(bytes(frame))
    with pytest.raises(errors.MalformedMessage):
        try:
            protocol.read(b"x" * (protocol.MAX_MESSAGE_BYTES + 1))
        except ValueError:
            pass


def test_only_the_kinds_of_a_value_read_are_value_errors():
    """The root is no ValueError (gpiozero's exc.py): a class adds it only
    where it stands for one, as the tree in wolfbox.errors marks."""
    assert not issubclass(errors.WolfboxError, ValueError)
    marked = {line.split()[1] for line in errors.__doc__.splitlines()
              if line.rstrip().endswith("+ ValueError")}
    valued = {cls.__name__ for cls in vars(errors).values()
              if isinstance(cls, type) and issubclass(cls, errors.WolfboxError)
              and issubclass(cls, ValueError)}
    assert valued == marked == {"NotJson", "Misfit", "CannotResume"}
