"""The blocking and asyncio clients against the real transitiond."""

import asyncio
import json
import os
import time

import pytest
from conftest import SCENES

from transitiond import (AsyncClient, BeginEvent, Client, CompleteEvent, ConnectFailed,
                         ConnectionClosed, DaemonError, Frame, ReconnectBackoff, Scene,
                         StoppingEvent, display_timing)

FLIP = os.path.join(SCENES, "album-flip-push.json")


def stream(client, session):
    """The events of ``session`` up to its complete."""
    events = []
    while True:
        event = client.next_event(timeout=20)
        events.append(event)
        if isinstance(event, CompleteEvent) and event.session == session:
            return events


def test_hello_speaks_protocol_1(daemon):
    with Client(daemon.socket) as client:
        sent = []
        original = client._send_line
        client._send_line = lambda line: (sent.append(line), original(line))[1]
        hello = client.hello()
    assert hello["server"] == "transitiond" and hello["protocol"] == 1
    # The first hello names the client and its protocol; a daemon that does not take those
    # members yet refuses it with bad_request, and a bare hello follows.
    assert b'"client":"transitiond-python"' in sent[0] and b'"protocol":1' in sent[0]
    assert len(sent) == 1 or b"client" not in sent[1]


def test_a_refused_request_raises_the_daemons_code(daemon):
    with Client(daemon.socket) as client:
        with pytest.raises(DaemonError) as refused:
            client.control("pause", "nobody")
    assert refused.value.code == "unknown_session" and "nobody" in refused.value.message


def test_delta_frames_come_out_whole_and_equal_to_full_ones(daemon):
    scene = Scene.load(FLIP)
    with Client(daemon.socket) as full, Client(daemon.socket) as delta:
        full.begin_scene(scene, session="flip")
        full.subscribe("flip", fps=20, clock="virtual")
        delta.subscribe("flip", fps=20, clock="virtual", encoding="delta")
        whole = [e for e in stream(full, "flip") if isinstance(e, Frame)]
        rebuilt = stream(delta, "flip")
    assert isinstance(rebuilt[0], BeginEvent) and rebuilt[0].encoding == "delta"
    frames = [e for e in rebuilt if isinstance(e, Frame)]
    assert [f.seq for f in frames] == list(range(21))
    assert frames[0].key is True and all(f.key is False for f in frames[1:])
    assert [f.fields for f in frames] == [f.fields for f in whole]
    assert [f.layers for f in frames] == [f.layers for f in whole]
    assert isinstance(rebuilt[-1], CompleteEvent) and rebuilt[-1].finished


def test_the_asyncio_client_matches_replies_and_keeps_events_in_order(daemon):
    async def run():
        async with await AsyncClient.connect(daemon.socket) as client:
            hello, routes = await asyncio.gather(client.hello(), client.request("routes"))
            assert hello["protocol"] == 1 and routes["routes"]["push"] == "album-flip"
            await client.begin_scene(Scene.load(FLIP), session="a")
            await client.subscribe("a", fps=10, clock="virtual", encoding="delta")
            events = []
            async for event in client.events():
                events.append(event)
                if isinstance(event, CompleteEvent):
                    return events

    events = asyncio.run(run())
    frames = [e for e in events if isinstance(e, Frame)]
    assert isinstance(events[0], BeginEvent)
    assert [f.seq for f in frames] == list(range(11))
    assert frames[-1].progress == 1


def test_one_240_fps_subscription_keeps_up_with_no_seq_gap(daemon):
    with Client(daemon.socket) as client:
        client.begin_scene(Scene.load(FLIP), session="fast", duration=1)
        client.subscribe("fast", fps=240, encoding="delta")
        frames = [e for e in stream(client, "fast") if isinstance(e, Frame)]
        assert client.resyncs_sent == 0
    seqs = [f.seq for f in frames]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert len(frames) > 100 and frames[-1].progress == 1


def test_the_client_rides_out_a_restart(daemon):
    client = Client(daemon.socket)
    client.subscribe("*", fps=30, encoding="delta")
    daemon.stop()
    stopped = False
    with pytest.raises(ConnectionClosed):
        while True:
            event = client.next_event(timeout=20)
            if isinstance(event, StoppingEvent):
                stopped = True
    assert stopped
    daemon.start()
    client.reconnect(ReconnectBackoff(give_up_after=30))
    client.subscribe("*", fps=30, encoding="delta")
    with Client(daemon.socket) as other:
        other.begin_scene(Scene.load(FLIP), session="after")
    events = stream(client, "after")
    assert any(isinstance(e, Frame) and e.session == "after" and e.key for e in events)
    client.close()


def test_reconnect_gives_up_when_told(daemon, tmp_path):
    with pytest.raises(ConnectFailed):
        Client(str(tmp_path / "none.sock"))
    client = Client(daemon.socket)
    daemon.stop()
    with pytest.raises(ConnectFailed):
        client.reconnect(ReconnectBackoff(give_up_after=0.3))


def test_the_hello_identity_can_be_turned_off(daemon, monkeypatch):
    import transitiond.core

    monkeypatch.setattr(transitiond.core, "SEND_HELLO_IDENTITY", False)
    with Client(daemon.socket) as client:
        sent = []
        original = client._send_line
        client._send_line = lambda line: (sent.append(line), original(line))[1]
        client.hello()
    assert b"client" not in sent[0] and b'"op":"hello"' in sent[0]


def test_the_asyncio_client_rides_out_a_restart(daemon):
    async def run():
        client = await AsyncClient.connect(daemon.socket)
        await client.subscribe("*", fps=30, encoding="delta")
        daemon.stop()
        kinds = []
        with pytest.raises(ConnectionClosed):
            while True:
                kinds.append(type(await client.next_event(timeout=20)))
        assert StoppingEvent in kinds
        daemon.start()
        await client.reconnect(ReconnectBackoff(give_up_after=30))
        await client.subscribe("*", fps=30, encoding="delta")
        with Client(daemon.socket) as other:
            other.begin_scene(Scene.load(FLIP), session="after")
        while True:
            event = await client.next_event(timeout=20)
            if isinstance(event, CompleteEvent):
                break
        await client.close()
        return event

    assert asyncio.run(run()) == CompleteEvent("after", True)


def test_a_scene_file_sent_verbatim_as_context_is_refused_naming_the_member(daemon):
    with open(FLIP) as file:
        scene = json.load(file)
    with Client(daemon.socket) as client:
        with pytest.raises(DaemonError) as refused:
            client.request("begin", context=scene)
        assert refused.value.code == "bad_request"
        assert "context.animator" in str(refused.value)
        # The app's own hints still pass; nothing was begun by the refused request.
        fields = Scene.load(FLIP).begin_fields(session="hinted")
        fields["context"]["appHint"] = {"a": 1}
        assert client.request("begin", **fields)["session"] == "hinted"
        assert [s["session"] for s in client.sessions()] == ["hinted"]


def test_display_paced_frames_show_vblanks_and_a_frame_is_pulled(daemon):
    scene = Scene.load(FLIP)
    with Client(daemon.socket) as client:
        now = client.clock()
        assert abs(now - time.monotonic()) < 1
        started = client.begin_scene(scene, session="paced", duration=0.5)
        start = started["start"]
        period = 1 / 120
        vblank = now + 0.0013
        reply = client.subscribe("paced", display=display_timing(period, vblank, lead=0.003))
        assert reply["display"]["lead"] == 0.003
        subscription = reply["subscription"]
        frames = [e for e in stream(client, "paced") if isinstance(e, Frame)]
        paced = [f for f in frames if f.progress < 1]
        assert len(paced) > 20
        for frame in paced:
            periods = (start + frame.t - vblank) / period
            assert abs(periods - round(periods)) * period < 0.0001, frame.t
        with pytest.raises(DaemonError) as ended:
            client.presented(subscription, "paced", paced[0].seq, start + paced[0].t)
        assert ended.value.code == "unknown_subscription"
        client.begin_scene(scene, session="pulled", duration=10)
        pulled = client.pull_frame("pulled", now + 1)
        assert pulled.seq == 0 and pulled.session == "pulled" and pulled.layers
        with pytest.raises(DaemonError) as refused:
            client.request("subscribe", session="pulled", display={"period": 0.0001, "vblank": now})
        assert refused.value.code == "bad_request" and "display.period" in refused.value.message
