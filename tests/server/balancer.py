"""Debian's HAProxy run with the repository's own ``deploy/haproxy.cfg`` (its ports moved to
free ones) in front of ``brailledev serve`` processes sharing one PostgreSQL database: the
balancer test and ``bench/table_failover.py`` start the same cluster.

    with Cluster(postgres.database(), tmp_path, processes=3) as cluster:
        code = new_table(cluster.url, game="uno")
        cluster.holder().kill()            # the process holding the table, kill -9
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Self

from tests.daemon import Daemon, free_port
from tests.server.helpers import ServeProcess, launch_all, request

HAPROXY = "/usr/sbin/haproxy"
CONFIG = Path(__file__).parents[2] / "deploy" / "haproxy.cfg"


class Balancer:
    """HAProxy in front of ``ports``, with the repository's configuration, started."""

    def __init__(self, folder: Path, ports: list[int]) -> None:
        self.port = free_port()
        text = CONFIG.read_text().replace("127.0.0.1:8765", f"127.0.0.1:{self.port}")
        for number, port in enumerate(ports, 1):
            text = text.replace(f"127.0.0.1:877{number}", f"127.0.0.1:{port}")
        # fewer processes than the configuration's three: the others' lines go
        text = "\n".join(line for line in text.splitlines()
                          if not line.lstrip().startswith("server serve")
                          or "127.0.0.1:877" not in line) + "\n"
        self.config = folder / "haproxy.cfg"
        self.config.write_text(text)
        self.daemon = Daemon("HAProxy", [HAPROXY, "-db", "-f", str(self.config)],
                             folder / "haproxy.log")
        self.daemon.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.daemon.stop()


def healthy(url: str) -> bool:
    """Whether ``url``'s ``GET /healthz`` answers 200: ``healthy(serve.url)``."""
    try:
        return request(f"{url}/healthz")[0] == 200
    except OSError:
        return False


def holding(serve: ServeProcess) -> int:
    """How many tables the running process ``serve`` holds in memory, by its ``/healthz``."""
    return int(json.loads(request(f"{serve.url}/healthz")[2])["tables"])


class Cluster:
    """``processes`` serve processes on the database ``address``, each trusting the
    balancer's ``X-Forwarded-For`` as the README starts them (``--open`` where the README
    gives a ``--key-file``; more options in ``args``), and HAProxy in front of them, every
    one healthy through the balancer."""

    def __init__(self, address: str, folder: Path, processes: int = 3,
                 args: tuple[str, ...] = ()) -> None:
        self.address = address
        self.serves = [ServeProcess(address, "--trust-proxy", "--open", *args,
                                    folder=folder)
                       for _ in range(processes)]
        self.balancer: Balancer | None = None
        try:
            launch_all(self.serves)
            self.balancer = Balancer(folder, [serve.port for serve in self.serves])
            self.balancer.daemon.wait_until(self.up, 20, pause=0.1)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        assert self.balancer is not None
        return self.balancer.url

    def up(self) -> bool:
        """Every running process healthy, and the balancer answering."""
        return all(healthy(serve.url) for serve in self.serves
                   if serve.process is not None) and healthy(self.url)

    def holder(self) -> ServeProcess:
        """The one live process holding a table (the others let theirs go), 10 s at most."""
        deadline = time.monotonic() + 10
        while True:
            found = [serve for serve in self.serves
                     if serve.process is not None and holding(serve) > 0]
            if len(found) == 1:
                return found[0]
            assert time.monotonic() < deadline, f"{len(found)} processes hold the table"
            time.sleep(0.05)

    def close(self) -> None:
        if self.balancer is not None:
            self.balancer.close()
        for serve in self.serves:
            serve.stop()
