"""`pip install Sources/python` into a fresh virtual environment gives a working package."""

import os
import shutil
import subprocess
import sys

from conftest import ROOT


def test_pip_installs_the_package_into_a_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # As a user installs it: pip builds it with setuptools from PyPI (build isolation), from a
    # copy, so that the build's files stay out of the source tree.
    source = tmp_path / "source"
    shutil.copytree(os.path.join(ROOT, "Sources", "python"), source,
                    ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(source)], check=True)
    probe = ("import transitiond, sys; "
             "assert transitiond.__file__.startswith(sys.prefix), transitiond.__file__; "
             "d = transitiond.StreamDecoder(); "
             "f = d.decode('{\"event\":\"frame\",\"session\":\"s\",\"seq\":0,\"t\":0,"
             "\"progress\":0,\"layers\":[{\"id\":\"a\",\"frame\":[0,0,1,1],\"z\":0}]}'); "
             "print(f.layers[0].alpha)")
    result = subprocess.run([python, "-c", probe], cwd=str(tmp_path), capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "1.0"
