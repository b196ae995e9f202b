"""Decoding and the delta applier on hand-written lines: defaults, errors, resync."""

import json

import pytest

from transitiond import (IDENTITY, BeginEvent, Border, CompleteEvent, DecodeError, DeltaApplier,
                         Frame, Reply, Shadow, StreamDecoder)
from transitiond.core import ClientCore

KEY = ('{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"key":true,"layers":['
       '{"id":"a","frame":[0,0,10,10],"z":0,"alpha":0.5,"background":"#ff0000ff"},'
       '{"id":"b","frame":[0,0,5,5],"z":1}]}')


def delta(seq, layers, removed=None):
    frame = {"event": "frame", "session": "s", "seq": seq, "t": seq / 10, "progress": seq / 10,
             "layers": layers, "key": False}
    if removed is not None:
        frame["removed"] = removed
    return json.dumps(frame)


def test_a_layer_gets_every_default():
    decoder = StreamDecoder()
    frame = decoder.decode(KEY)
    assert isinstance(frame, Frame) and frame.key is True
    b = frame.layers[1]
    assert (b.anchor, b.transform, b.alpha, b.hidden, b.background, b.content) == (
        (0.5, 0.5), IDENTITY, 1.0, False, None, None)
    assert "key" not in frame.fields


def test_the_appearance_members_decode_typed_and_drop_at_their_default():
    decoder = StreamDecoder()
    decoder.decode(KEY)
    frame = decoder.decode(delta(1, [{
        "id": "a", "cornerRadius": 6, "clips": True, "clipTo": "b",
        "border": {"width": 2, "color": "#ffffffff"},
        "shadow": {"color": "#00000080", "blur": 8, "offset": [0, 3]}}]))
    a = frame.layers[0]
    assert (a.corner_radius, a.clips, a.clip_to) == (6, True, "b")
    assert a.border == Border(2, "#ffffffff")
    assert a.shadow == Shadow("#00000080", 8, (0, 3))
    b = frame.layers[1]
    assert (b.corner_radius, b.clips, b.border, b.shadow, b.clip_to) == (0, False, None, None, None)
    frame = decoder.decode(delta(2, [{
        "id": "a", "cornerRadius": 0, "clips": False, "clipTo": None,
        "border": {"width": 0, "color": "#00000000"},
        "shadow": {"color": "#00000000", "blur": 0, "offset": [0, 0]}}]))
    assert frame.fields["layers"][0] == {"id": "a", "frame": [0, 0, 10, 10], "z": 0,
                                          "alpha": 0.5, "background": "#ff0000ff"}
    with pytest.raises(DecodeError):
        decoder.decode(delta(3, [{"id": "a", "cornerRadius": -1}]))


def test_a_member_back_at_its_default_is_dropped_and_removed_layers_go():
    decoder = StreamDecoder()
    decoder.decode(KEY)
    frame = decoder.decode(delta(1, [{"id": "a", "alpha": 1, "background": None},
                                     {"id": "c", "frame": [1, 2, 3, 4], "z": 2}], ["b"]))
    assert [layer["id"] for layer in frame.fields["layers"]] == ["a", "c"]
    assert frame.fields["layers"][0] == {"id": "a", "frame": [0, 0, 10, 10], "z": 0}
    assert frame.key is False and "removed" not in frame.fields


def test_the_kept_frame_is_not_changed_by_a_later_delta():
    decoder = StreamDecoder()
    first = decoder.decode(KEY)
    decoder.decode(delta(1, [{"id": "a", "alpha": 0.25}]))
    assert first.fields["layers"][0]["alpha"] == 0.5


def test_a_delta_before_any_key_frame_is_a_clean_error():
    with pytest.raises(DecodeError, match="before any key frame"):
        StreamDecoder().decode(delta(3, []))


@pytest.mark.parametrize("line", [
    "", "{", "[1]", "nan", '{"event":1}', '{"event":"frame"}',
    '{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[{"id":"a"}]}',
    '{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[],"key":3}',
    '{"event":"frame","session":"s","seq":true,"t":0,"progress":0,"layers":[]}',
    '{"event":"frame","session":"s","seq":0,"t":NaN,"progress":0,"layers":[]}',
    '{"event":"complete","session":"s"}', '{"ok":false}', b"\xff\xfe",
])
def test_malformed_lines_raise_decode_error(line):
    with pytest.raises(DecodeError):
        StreamDecoder().decode(line)


def test_other_messages_decode_typed():
    decoder = StreamDecoder()
    begin = decoder.decode('{"event":"begin","session":"s","animator":"a","operation":"push",'
                           '"duration":1,"container":[390,844],"clock":"virtual","fps":30}')
    assert isinstance(begin, BeginEvent) and begin.container == (390, 844)
    assert decoder.decode('{"event":"complete","session":"s","finished":false}') == \
        CompleteEvent("s", False)
    reply = decoder.decode('{"id":7,"ok":false,"error":{"code":"bad_request","message":"m"}}')
    assert isinstance(reply, Reply) and reply.error_code == "bad_request"


def test_a_full_subscriptions_complete_leaves_the_delta_state():
    applier = DeltaApplier()
    applier.apply(json.loads(KEY))
    applier.apply({"event": "frame", "session": "s", "seq": 0, "t": 0, "progress": 0,
                   "layers": []})
    applier.completed("s")
    assert applier.has_session("s")


def test_a_seq_gap_asks_for_a_key_frame_once_and_drops_deltas_until_it():
    core = ClientCore()
    core.subscribed(Reply(1, True, {"subscription": 4, "session": "s", "encoding": "delta"}))
    frame, answer = core.receive(KEY)
    assert frame is not None and answer is None
    frame, answer = core.receive(delta(2, []))  # seq 1 is missing
    assert frame is None and json.loads(answer)["op"] == "resync"
    assert json.loads(answer)["subscription"] == 4
    frame, answer = core.receive(delta(3, []))
    assert frame is None and answer is None
    frame, answer = core.receive(KEY.replace('"seq":0', '"seq":3'))
    assert frame.seq == 3 and core.resyncs_sent == 1
    frame, _ = core.receive(delta(4, []))
    assert frame.seq == 4


def test_a_layer_a_delta_leaves_alone_keeps_its_typed_layer():
    decoder = StreamDecoder()
    first = decoder.decode(KEY)
    second = decoder.decode(delta(1, [{"id": "a", "alpha": 0.25}]))
    assert second.layers[1] is first.layers[1]
    assert second.layers[0] is not first.layers[0] and second.layers[0].alpha == 0.25
    third = decoder.decode(delta(2, [{"id": "b", "hidden": True}]))
    assert third.layers[0] is second.layers[0] and third.layers[1].hidden is True


def test_a_bad_line_from_the_daemon_is_a_decode_error_in_its_place(tmp_path):
    import socket
    import threading

    from transitiond import Client

    path = str(tmp_path / "fake.sock")
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(1)

    def serve():
        peer, _ = server.accept()
        peer.recv(1024)
        peer.sendall(b'{not json\n{"id":1,"ok":true,"routes":{}}\n'
                     b'{"event":"complete","session":"s","finished":true}\n')
        peer.recv(1024)
        peer.close()

    thread = threading.Thread(target=serve)
    thread.start()
    with Client(path) as client:
        assert client.request("routes") == {"id": 1, "ok": True, "routes": {}}
        with pytest.raises(DecodeError):
            client.next_event(timeout=10)
        assert client.next_event(timeout=10) == CompleteEvent("s", True)
    thread.join()
    server.close()
