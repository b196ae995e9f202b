"""The default socket path rules and the reconnection schedule, as the Swift client's."""

from transitiond import ReconnectBackoff, default_socket_path


def test_the_default_socket_path_rules():
    assert default_socket_path({"TRANSITIOND_SOCKET": "/x.sock", "XDG_RUNTIME_DIR": "/r"}) == "/x.sock"
    assert default_socket_path({"TRANSITIOND_SOCKET": "", "XDG_RUNTIME_DIR": "/r/"}) == \
        "/r/transitiond/transitiond.sock"
    assert default_socket_path({}, uid=1000) == "/tmp/transitiond-1000/transitiond.sock"


def test_the_backoff_doubles_from_50_ms_to_2_s():
    backoff = ReconnectBackoff()
    assert [backoff.delay(n, 0) for n in range(8)] == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2, 2]
    assert ReconnectBackoff(give_up_after=1).delay(0, 1) is None
    assert abs(ReconnectBackoff(give_up_after=1).delay(5, 0.9) - 0.1) < 1e-9
