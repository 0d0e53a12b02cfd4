"""`run`'s start-up lines on the console follow the configured language, as the
announcements do (host/voice/messages.py: CONSOLE)."""

from __future__ import annotations

import io

from host.commands.run import _commands_line
from host.voice.messages import CONSOLE, MESSAGES
from host.web.address import print_address

URL = "http://192.168.1.20:8080/?token=abc123def456"


def test_the_page_and_token_lines_are_in_portuguese_for_a_brazilian_board() -> None:
    out = io.StringIO()
    print_address(URL, "abc123def456", out, language="pt-BR")
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Página do tabuleiro: {URL}"
    assert lines[1] == "Os controles pedem o código abc123def456 (o endereço acima já o leva)."
    assert "board's page" not in out.getvalue() and "token" not in lines[1]


def test_the_page_line_is_in_english_for_an_english_board() -> None:
    out = io.StringIO()
    print_address("http://127.0.0.1:8080/", None, out, language="en")
    assert out.getvalue() == "The board's page: http://127.0.0.1:8080/\n"  # no token: no QR


def test_the_typed_commands_are_listed_in_the_boards_language_first() -> None:
    assert _commands_line("pt-BR") == (
        "Comandos: desfazer, nova, desistir, empate, sair "
        "(em inglês: takeback, new, resign, draw, quit)"
    )
    assert _commands_line("en").startswith("Commands: takeback, new, resign, draw, quit (")


def test_every_console_line_exists_in_every_language() -> None:
    assert set(CONSOLE) == set(MESSAGES)
    keys = {language: set(lines) for language, lines in CONSOLE.items()}
    assert keys["pt-BR"] == keys["en"]
