"""The Pi extras install on a Pi: every pin resolves on PyPI, for the Pi's platform.

`pip install -e '.[pi5]'` once failed everywhere: the Pi 5 NeoPixel package
exists only as release candidates, which `>=1` excludes. These tests ask PyPI
(through pip, the way a builder's Pi will) to resolve each extra, then check
that every package it picks has a wheel for 64-bit Raspberry Pi OS or is one
of the source builds docs/hardware.md prepares the Pi for.

The offline checks always run. The PyPI ones run when this run requires
`pypi` (.ci/run sets DRAUGHTSBOARD_REQUIRE=...,pypi); elsewhere they skip.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from optional import need, required

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
HARDWARE_DOC = (ROOT / "docs" / "hardware.md").read_text()

#: Raspberry Pi OS releases the extras must install on: Python, glibc, wheel platform.
PI_TARGETS = {
    "Raspberry Pi OS 12 (Bookworm), 64-bit": ("3.11", 36),
    "Raspberry Pi OS 13 (Trixie), 64-bit": ("3.13", 41),
}

#: Packages with no aarch64 wheel for some target: pip builds them on the Pi, and the
#: Debian packages named here (listed in docs/hardware.md's apt line) are what the build
#: needs. Checked by building each sdist with only these on Debian 12 (x86_64).
SOURCE_BUILDS = {
    "rpi-gpio": ("python3-dev", "build-essential"),
    "rpi-ws281x": ("python3-dev", "build-essential"),
    "gpiod": ("python3-dev", "build-essential"),
    "sysv-ipc": ("python3-dev", "build-essential"),
    "adafruit-blinka-raspberry-pi-pwm": ("python3-dev", "build-essential"),
    "adafruit-blinka-raspberry-pi5-neopixel": ("python3-dev", "build-essential"),
    # lgpio 0.2.2.0 has aarch64 wheels for Python 3.11 only; its sdist links liblgpio
    # through SWIG (lgpio setup.py, dynamically linked build).
    "lgpio": ("swig", "liblgpio-dev"),
}

#: What Blinka 10.0.0 checks for on a Pi (adafruit_blinka/platform_dependencies.py,
#: get_platform_dependencies): without them `import board` fails or asks to pip-install.
BLINKA_PI_NEEDS = {"gpiod", "adafruit-blinka-raspberry-pi-pwm"}
BLINKA_NEOPIXEL = {"pi": "rpi-ws281x", "pi5": "adafruit-blinka-raspberry-pi5-neopixel"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def names(extra: str) -> set[str]:
    return {canonical(re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0]) for req in EXTRAS[extra]}


# --- offline --------------------------------------------------------------------------------


def test_the_two_gpio_modules_are_never_installed_together():
    # RPi.GPIO and rpi-lgpio both install the module RPi.GPIO.
    assert "rpi-gpio" in names("pi") and "rpi-lgpio" not in names("pi")
    assert "rpi-lgpio" in names("pi5") and "rpi-gpio" not in names("pi5")


@pytest.mark.parametrize("extra", ["pi", "pi5"])
def test_each_pi_extra_brings_what_blinka_checks_for_on_a_pi(extra):
    assert BLINKA_PI_NEEDS | {BLINKA_NEOPIXEL[extra], "adafruit-blinka", "pyserial"} <= names(extra)


def test_the_pi5_neopixel_pin_admits_the_release_candidates_that_exist():
    (pin,) = [r for r in EXTRAS["pi5"] if canonical(r).startswith("adafruit-blinka-raspberry-pi5")]
    assert re.search(r">=\s*1\.0\.0rc\d", pin), pin  # `>=1` would exclude 1.0.0rc2


def test_the_hardware_doc_prepares_the_pi_for_every_source_build():
    apt_lines = [line for line in HARDWARE_DOC.splitlines() if "apt install" in line]
    wanted = {package for packages in SOURCE_BUILDS.values() for package in packages}
    missing = {p for p in wanted if not any(re.search(rf"\b{p}\b", line) for line in apt_lines)}
    assert not missing, f"docs/hardware.md's apt install line lacks {sorted(missing)}"


# --- against PyPI ----------------------------------------------------------------------------


def pip(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def online() -> None:
    need("pypi", "pypi" in required(), "set DRAUGHTSBOARD_REQUIRE=pypi to ask PyPI (CI does)")


def resolve(extra: str, tmp_path: Path) -> list[dict]:
    report = tmp_path / f"{extra}.json"
    done = pip("install", "--dry-run", "--ignore-installed", "--quiet", "--report", str(report),
               *EXTRAS[extra])  # fmt: skip
    assert done.returncode == 0, f"[{extra}] does not resolve on PyPI:\n{done.stderr[-3000:]}"
    return json.loads(report.read_text())["install"]


def platforms(glibc_minor: int) -> list[str]:
    tags = [f"manylinux_2_{minor}_aarch64" for minor in range(glibc_minor, 16, -1)]
    return [*tags, "manylinux2014_aarch64", "linux_aarch64"]


@pytest.mark.parametrize("extra", ["usb", "pi", "pi5"])
def test_each_extra_resolves_and_installs_on_raspberry_pi_os(online, extra, tmp_path):
    resolved = resolve(extra, tmp_path)
    pinned = {canonical(item["metadata"]["name"]): item["metadata"]["version"] for item in resolved}
    assert names(extra) <= set(pinned)
    wheels_expected = [f"{n}=={v}" for n, v in sorted(pinned.items()) if n not in SOURCE_BUILDS]
    problems = []
    for target, (python, glibc) in PI_TARGETS.items():
        flags = ["--python-version", python, "--implementation", "cp"]
        flags += [f"--platform={tag}" for tag in platforms(glibc)]

        def download(*requirements: str, flags: list[str] = flags) -> bool:
            done = pip("download", "--no-deps", "--only-binary=:all:", *flags,
                       "-d", str(tmp_path / "wheels"), *requirements)  # fmt: skip
            return done.returncode == 0

        if not download(*wheels_expected):  # one call; then one per package to name the culprit
            problems += [
                f"{requirement} has no wheel for {target} (Python {python})"
                for requirement in wheels_expected
                if not download(requirement)
            ]
    assert not problems, "\n".join(problems)


def test_source_only_packages_build_with_the_documented_tools(online, tmp_path):
    """Build every sdist the Pi will build, here with only gcc, g++ and the Python headers.

    x86_64 is a stand-in for the Pi (the C is not architecture specific); it catches a
    release that starts needing a system library the docs do not install.
    """
    resolved = resolve("pi", tmp_path) + resolve("pi5", tmp_path)
    sdists = sorted(
        {
            f"{item['metadata']['name']}=={item['metadata']['version']}"
            for item in resolved
            if canonical(item["metadata"]["name"]) in SOURCE_BUILDS
            and canonical(item["metadata"]["name"]) != "lgpio"  # needs liblgpio: Pi OS only
        }
    )
    assert len(sdists) >= 6, sdists
    from_source = ",".join(sorted(SOURCE_BUILDS))
    built = pip("wheel", "--no-deps", f"--no-binary={from_source}", "-w", str(tmp_path / "built"),
                *sdists, timeout=1200)  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    assert len(list((tmp_path / "built").glob("*.whl"))) == len(sdists)
