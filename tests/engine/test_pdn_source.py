"""PDN sources: paths, bytes and streams, and the encodings old files come in."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.pdn_source import PdnSource, guess_8bit

RUSSIAN = '[White "Иванов Пётр"]\n[Black "Сидоров"]\n[Event "XXV первенство СССР"]\n1. c3-d4 *\n'
WESTERN = '[White "João Müller"]\n[Black "Gérard Ørsted"]\n[Site "Città"]\n1. c3-d4 *\n'


def read(source: object) -> tuple[str, str | None]:
    pdn = PdnSource(source)  # type: ignore[arg-type]
    text = "".join(pdn.lines())
    return text, pdn.encoding


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r", "cp866"])
def test_cyrillic_code_pages_are_recognised(encoding: str) -> None:
    assert read(RUSSIAN.encode(encoding)) == (RUSSIAN, encoding)


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_western_8bit_files_read_as_windows_1252(encoding: str) -> None:
    assert read(WESTERN.encode(encoding)) == (WESTERN, "cp1252")


def test_windows_1252_punctuation_is_kept() -> None:
    text = '[Event "Open “Zé” – 2003"]\n*\n'
    assert read(text.encode("cp1252")) == (text, "cp1252")


@pytest.mark.parametrize("text", [RUSSIAN, WESTERN])
def test_utf8_with_and_without_bom(text: str) -> None:
    assert read(text.encode()) == (text, "utf-8")
    pdn = PdnSource(b"\xef\xbb\xbf" + text.encode())
    assert "".join(pdn.lines()) == text and pdn.bom and pdn.encoding == "utf-8"


def test_utf16_with_bom() -> None:
    assert read(RUSSIAN.encode("utf-16")) == (RUSSIAN, "utf-16")


def test_ascii_file() -> None:
    assert read(b"1. 32-28 *\n") == ("1. 32-28 *\n", "ascii")


def test_files_glued_together_keep_each_lines_encoding() -> None:
    data = WESTERN.encode() + RUSSIAN.encode("cp1251")
    text, encoding = read(data)
    assert text == WESTERN + RUSSIAN and encoding == "utf-8 and cp1251"


def test_an_8bit_line_far_into_a_file_is_still_decoded() -> None:
    data = b"1. 32-28 *\n" * 40_000 + RUSSIAN.encode("cp1251")
    text, encoding = read(data)
    assert text.endswith(RUSSIAN) and encoding == "cp1251"


def test_guess_prefers_windows_1252_when_nothing_speaks() -> None:
    assert guess_8bit([b"\xa9 1999"]) == "cp1252"


def test_path_text_stream_and_binary_stream(tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    path.write_bytes(RUSSIAN.encode("cp1251"))
    assert read(path) == (RUSSIAN, "cp1251")
    assert read(str(path)) == (RUSSIAN, "cp1251")
    with path.open("rb") as handle:
        assert read(handle) == (RUSSIAN, "cp1251")
        assert not handle.closed  # the caller's stream stays open
    assert read(io.StringIO(RUSSIAN))[0] == RUSSIAN
    assert PdnSource(path).name == str(path)


def test_a_missing_path_raises_os_error_when_read() -> None:
    with pytest.raises(OSError):
        read("/nonexistent/games.pdn")


def test_a_long_line_without_newline_comes_out_whole() -> None:
    data = b"1. 32-28 19-23 " * 20_000
    text, _ = read(data)
    assert text == data.decode()
