"""A throwaway PostgreSQL server for the tests and benchmarks of ``byapar serve --database
postgresql://...``: a new cluster in a temporary folder, listening only on a Unix socket there
(no TCP port, so nothing else on the machine can reach it or clash with it), gone when stopped.

    with TempPostgres() as pg:
        url = pg.url      # postgresql://postgres@/postgres?host=FOLDER

Uses the server programs of Debian's ``postgresql`` package (``initdb``, ``pg_ctl``; found on
PATH or in /usr/lib/postgresql/N/bin). PostgreSQL refuses to run as root, so under root the
server runs as the package's ``postgres`` user.

    python -m bench.temp_postgres     # start one, print its URL, stop it on Ctrl+C
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

PROGRAMS = ("initdb", "pg_ctl")
DEBIAN_GLOB = "/usr/lib/postgresql/*/bin"
START_TIMEOUT_S = 60


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed here."""


def server_programs() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest; None if
    neither has them."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    folders = [Path(f) for f in glob.glob(DEBIAN_GLOB)
               if all((Path(f) / p).exists() for p in PROGRAMS)]
    return max(folders, key=lambda f: int(f.parent.name) if f.parent.name.isdigit() else 0,
               default=None)


def _run_as() -> dict:
    """Arguments of ``subprocess.run`` that run a program as a user PostgreSQL accepts."""
    if os.geteuid() != 0:
        return {}
    import pwd

    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresMissing("PostgreSQL refuses to run as root and there is no postgres user "
                              "(apt-get install postgresql makes one)") from None
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


class TempPostgres:
    """A PostgreSQL server of its own in a temporary folder; ``url`` once started.
    ``durable=False`` (for tests) turns off fsync: faster, and only a crash of the machine
    would lose what it committed."""

    def __init__(self, durable: bool = False) -> None:
        bin_dir = server_programs()
        if bin_dir is None:
            raise PostgresMissing("PostgreSQL's server programs (initdb, pg_ctl) are not "
                                  "installed: apt-get install postgresql")
        self.bin = bin_dir
        self.durable = durable
        self.folder: Path | None = None
        self.url = ""

    def _run(self, *args: str) -> None:
        out = subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=self.folder,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=START_TIMEOUT_S, **self._as)
        if out.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({out.returncode}): {out.stdout[-2000:]}")

    def start(self) -> str:
        self._as = _run_as()
        self.folder = Path(tempfile.mkdtemp(prefix="byapar-pg-"))
        try:
            return self._start()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
            raise

    def _start(self) -> str:
        if self._as:
            os.chown(self.folder, self._as["user"], self._as["group"])
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        settings = [f"unix_socket_directories = '{self.folder}'", "listen_addresses = ''"]
        if not self.durable:
            # a stopped server loses nothing committed (the system's cache keeps what was
            # written), only a crash of the machine would
            settings += ["fsync = off", "full_page_writes = off"]
        with open(data / "postgresql.conf", "a") as f:
            f.write("\n".join(settings) + "\n")
        self._run("pg_ctl", "start", "-D", str(data), "-w", "-t", str(START_TIMEOUT_S),
                  "-l", str(self.folder / "server.log"))
        self.url = f"postgresql://postgres@/postgres?host={self.folder}"
        return self.url

    def restart(self) -> None:
        """Stop the server at once (as a crash would) and start it again on the same data."""
        data = self.folder / "data"
        self._run("pg_ctl", "stop", "-D", str(data), "-m", "immediate", "-w")
        self._run("pg_ctl", "start", "-D", str(data), "-w", "-t", str(START_TIMEOUT_S),
                  "-l", str(self.folder / "server.log"))

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            self._run("pg_ctl", "stop", "-D", str(self.folder / "data"), "-m", "immediate",
                      "-w")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> TempPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


if __name__ == "__main__":
    import time

    with TempPostgres() as pg:
        print(pg.url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
