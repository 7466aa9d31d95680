"""The project as a real package: the wheel builds, holds this project's own top-level names and
the shipped checkpoints, installs into a fresh venv, and ``byapar arena`` runs from a folder
outside the repository.

The venv sees the system's packages (``--system-site-packages``), so numpy, gymnasium,
PettingZoo, OpenSkill and Pillow come from there and nothing is downloaded; the wheel itself is
installed with ``--ignore-installed`` so that the venv runs the wheel's code, not a checkout
installed in editable mode. About 30 s; deselect with ``-m 'not package'``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.package

ROOT = Path(__file__).resolve().parent.parent
OWN_NAMES = {"byapar_env", "byapar_agents", "byapar_training", "byapar_checkpoints",
             "byapar_serve", "byapar_harness", "byapar_cli"}
# What a build must not see: version control, earlier builds (setuptools' build/ folder can
# hold modules deleted since, which would then ship), caches and training runs.
NOT_SOURCES = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                     ".pytest_cache", ".ruff_cache", ".benchmarks", "runs",
                                     ".venv", "venv", "node_modules")


def _setuptools_here() -> bool:
    """The build backend is installed here (no download needed to build)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    major = importlib.metadata.version("setuptools").split(".")[0]
    return major.isdigit() and int(major) >= 68  # pyproject.toml's build requirement


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a clean copy of the working tree."""
    root = tmp_path_factory.mktemp("package")
    source = root / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    out = root / "wheels"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out),
           str(source)]
    if _setuptools_here():
        cmd.insert(4, "--no-build-isolation")  # else pip fetches setuptools from the index
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (found,) = out.glob("byapar_env-*.whl")
    return found


def test_the_wheel_holds_only_this_projects_names_and_the_checkpoints(wheel) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        record = z.read(f"{info}/RECORD").decode().splitlines()
        top_level = set(z.read(f"{info}/top_level.txt").decode().split())
        entry_points = z.read(f"{info}/entry_points.txt").decode()
        sizes = {i.filename: i.file_size for i in z.infolist()}
    recorded = {line.split(",")[0].split("/")[0] for line in record if line}
    assert recorded - {info} == OWN_NAMES
    assert {n.split("/")[0] for n in names} - {info} == OWN_NAMES
    assert top_level == OWN_NAMES
    assert "byapar = byapar_cli:main" in entry_points
    shipped = sorted(p for p in (ROOT / "byapar_checkpoints").rglob("*")
                     if p.name in ("meta.json", "weights.npz"))
    assert any(p.name == "weights.npz" for p in shipped)
    for path in shipped:
        name = "byapar_checkpoints/" + path.relative_to(ROOT / "byapar_checkpoints").as_posix()
        assert sizes.get(name) == path.stat().st_size, f"{name} is not in the wheel as shipped"


def test_the_installed_wheel_runs_the_arena_from_another_folder(wheel, tmp_path) -> None:
    venv = tmp_path / "venv"
    # The dependencies are this interpreter's, whatever it is (a venv, a container's Python, the
    # system's): a .pth file in the new venv lists this interpreter's site folders. (A venv
    # made with --system-site-packages from inside a venv would see the base interpreter's
    # packages instead.) --without-pip: this interpreter's pip, seen the same way, installs the
    # wheel into the venv. Folders listed by a .pth file run no .pth files of their own, so a
    # checkout installed here in editable mode stays out.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    own_site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                              capture_output=True, text=True, check=True, timeout=60).stdout
    ours = [p for p in sys.path
            if os.path.isdir(p) and os.path.basename(p) in ("site-packages", "dist-packages")]
    (Path(own_site.strip()) / "outer.pth").write_text("\n".join(ours) + "\n")
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index",
                           "--no-deps", "--ignore-installed", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Every dependency is satisfied there, and every module comes from the venv, not from a
    # checkout installed in editable mode.
    check = subprocess.run([str(python), "-c", _CHECK], capture_output=True, text=True,
                           cwd=elsewhere, env=env, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.split() == ["ok"], check.stdout
    done = subprocess.run([str(bindir / "byapar"), "arena", "--players", "hard,medium",
                           "--games", "20", "--quiet"], capture_output=True, text=True,
                          cwd=elsewhere, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout and "hard" in done.stdout and "medium" in done.stdout
    version = subprocess.run([str(bindir / "byapar"), "--version"], capture_output=True,
                             text=True, cwd=elsewhere, env=env, timeout=120)
    assert version.stdout.strip() == f"byapar {wheel.name.split('-')[1]}"
    assert list(elsewhere.iterdir()) == []  # the arena wrote nothing where it ran


_CHECK = """
import importlib, importlib.metadata as md, sys
from pathlib import Path
from packaging.requirements import Requirement
prefix = Path(sys.prefix).resolve()
for name in ("byapar_env", "byapar_agents", "byapar_training", "byapar_checkpoints",
             "byapar_serve", "byapar_harness", "byapar_cli"):
    where = Path(importlib.import_module(name).__file__).resolve()
    assert prefix in where.parents, f"{name} comes from {where}, not from the venv"
for text in md.requires("byapar-env"):
    req = Requirement(text)
    if req.marker is None or req.marker.evaluate({"extra": ""}):
        have = md.version(req.name)
        assert req.specifier.contains(have, prereleases=True), f"{req} but {have} installed"
print("ok")
"""
