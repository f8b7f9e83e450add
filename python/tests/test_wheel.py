"""The wheel that scripts/setup-python.sh builds (target/wheels/, `maturin build --release`) is
an abi3 wheel that installs into a fresh virtual environment and runs the README example there,
with kernels chosen at run time rather than compiled for this CPU. scripts/build-wheel.sh runs the
same test on the wheel it builds for older Linux systems (`PROBDML_WHEEL`), which must carry the
manylinux2014 tag (glibc 2.17)."""

import os
import subprocess
import sys
import venv
from pathlib import Path

from test_readme import readme_python_example

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_installs_into_a_fresh_venv_and_runs_the_readme_example(tmp_path):
    if "PROBDML_WHEEL" in os.environ:
        wheel = Path(os.environ["PROBDML_WHEEL"])
        assert "-manylinux2014_x86_64." in wheel.name, wheel.name
    else:
        wheels = sorted((ROOT / "target" / "wheels").glob("probdml-*.whl"))
        assert len(wheels) == 1, "run bash scripts/setup-python.sh first: it builds target/wheels/probdml-*.whl"
        wheel = wheels[0]
    assert "-cp310-abi3-" in wheel.name, wheel.name
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    import numpy

    # numpy at the version the project pins; pip takes it from its cache when it can.
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel), f"numpy=={numpy.__version__}"],
        check=True,
    )
    script = tmp_path / "example.py"
    script.write_text(
        readme_python_example()
        + "\nimport probdml, probdml._probdml as ext\n"
        + "assert not ext.built_with_avx2()\n"
        + "assert probdml.__file__.startswith(%r)\n" % str(env)
    )
    subprocess.run([python, str(script)], check=True, cwd=tmp_path)
    assert sys.prefix != str(env)


def test_wheel_ships_the_type_information():
    # PEP 561: without py.typed a type checker ignores the package's annotations, and without
    # the stubs it sees the extension as untyped; one stub per submodule of the extension.
    import types
    import zipfile

    import probdml._probdml as ext

    wheels = sorted((ROOT / "target" / "wheels").glob("probdml-*.whl"))
    assert len(wheels) == 1, "run bash scripts/setup-python.sh first: it builds target/wheels/probdml-*.whl"
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    assert "probdml/py.typed" in names
    submodules = [name for name in dir(ext) if isinstance(getattr(ext, name), types.ModuleType)]
    assert len(submodules) == 7
    stubs = {n for n in names if n.endswith(".pyi")}
    assert stubs == {"probdml/_probdml/__init__.pyi"} | {f"probdml/_probdml/{m}.pyi" for m in submodules}
