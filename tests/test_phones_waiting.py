"""A box that starts before it has a network (its own Wi-Fi comes up a few
seconds after the box, a cable is plugged in later): the start screen says
the phones have no address yet, and that notice goes, whole, once the page
has one, with the page's code in its place (found in the twin: the notice
holds "; ", and was never taken away)."""

from __future__ import annotations

import pytest

from helpers import phones_config
from wolfbox.device.phonelink import _cannot_serve
from wolfbox.phones import link
from wolfbox.phones.link import no_address
from wolfbox.phones.server import PhoneServer


@pytest.mark.parametrize("network", ["home", "own"])
def test_the_no_address_notice_goes_once_the_page_has_an_address(tmp_path, pilots,
                                                                  monkeypatch, network):
    """On "home" the notice says why there may be no address (an install
    without --phones); on "own" (and "auto") only that it waits, as the
    box's own Wi-Fi comes in seconds (where no NetworkManager runs, as
    here, the box says so in its log and the phones wait for a network)."""
    now_at: list[str] = []
    monkeypatch.setattr(link, "local_addresses", lambda: list(now_at))

    class Looking(PhoneServer):
        """The server, looking again at the box's addresses every 50 ms."""
        def __init__(self, *args, **kw) -> None:
            super().__init__(*args, look_every=0.05, **kw)
    monkeypatch.setattr(link, "PhoneServer", Looking)
    config = phones_config(tmp_path)
    config.phones.listen = []                          # the box's own addresses
    config.phones.network = network
    pilot = pilots.start(config, [], warm=False)
    pilot.settle()
    if network == "home":
        waiting = _cannot_serve(no_address())
        assert "; " in waiting                         # the case that was lost
    else:
        waiting = "Phones: waiting for a network"
    assert waiting in pilot.box.notices, pilot.box.notices
    assert pilot.view.join is None                     # no page, no code
    now_at.append("127.0.0.1")                         # the network came
    for _ in range(400):
        pilot.box.act(pilot.box.inbox.wait(0.05))
        if pilot.view.join is not None and not any(waiting in n for n in pilot.box.notices):
            break
    assert not any(waiting in n for n in pilot.box.notices), pilot.box.notices
    assert pilot.view.join is not None and pilot.view.join.url.startswith("http://127.0.0.1:")
    assert "Phones" not in pilot.box.notice
