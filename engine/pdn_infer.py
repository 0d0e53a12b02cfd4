"""Which variant a PDN game without a GameType tag records, from everything the file says.

A move list alone rarely names its rules: 121 of the 153 games of a Soviet
championship are legal under Brazilian rules too. So the guess weighs, per
game: the board the squares need (numbers above 32, files i-j: 10x10;
algebraic squares: an 8x8 variant written like chess; numbers up to 32: any
8x8 variant or 10x10), clues in the text (`Clue`: Cyrillic letters,
a Cyrillic code page, Italian tag names, `:` between capture squares and
`0:1`-style results, which are Russian habits, variant and country names in
Event and Site, a Black tag before the White one as English checkers
programs write), and what the rest of the file showed (`FileEvidence`: the
GameType tags of other games and the games only one variant can replay).
`rank` orders the candidate variants by that; the replay (`engine.pdn`)
takes the first in which every move is legal. Every step leaves a sentence
in the game's grounds, which `check-game` prints.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from engine.pdn_records import PdnRecord
from engine.pdn_results import is_russian_form
from engine.variant import VARIANTS, UnknownVariantError, Variant, get_variant

__all__ = ["Clue", "FileEvidence", "Guess", "clues_of", "rank"]

# Candidate sets by board and notation, in the order tried when nothing else
# speaks. Numeric 8x8: English first (by far the most common numeric file),
# then Italian; Brazilian and Russian read numbers too; Portuguese and Spanish
# move alike, so a game legal in one is legal in the other and the first
# wins; Pool last (an English game is rarely legal in Pool, whose men capture
# backwards). Squares 1-32 exist on 10x10 too: a numeric game that fits no
# 8x8 variant (`32-28 19-23`, the usual International opening) is International.
NUMERIC_8X8 = ("english", "italian", "brazilian", "russian", "portuguese", "spanish", "pool")
NUMERIC = (*NUMERIC_8X8, "international")
ALGEBRAIC_8X8 = ("brazilian", "russian")
TEN_BY_TEN = ("international",)
NO_MOVES = ("brazilian", *[name for name in NUMERIC if name != "brazilian"])

# Tag names only the Italian federation's files use.
_ITALIAN_TAGS = frozenset({"bianco", "nero", "risultato", "dati", "anno", "evento", "luogo"})
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CYRILLIC_ENCODINGS = ("cp1251", "koi8_r", "cp866")

# Words in Event and Site, as (variant, weight, pattern). A rules name weighs
# more than a country or city; "czech", "turkish", "frisian" are variants
# this engine does not play: they only explain why no variant fits.
_WORDS: tuple[tuple[str, int, re.Pattern[str]], ...] = tuple(
    (variant, weight, re.compile(pattern, re.IGNORECASE))
    for variant, weight, pattern in (
        ("pool", 4, r"\bpool\b|\bapca\b"),
        ("russian", 4, r"russian|русск|shashki"),
        ("russian", 2, r"\brussia|\bussr\b|ссср|росси|moscow|москв|leningrad|ленинград"),
        ("brazilian", 4, r"brazilian|brasileir|бразильск"),
        ("brazilian", 2, r"\bbrazil|\bbrasil"),
        ("italian", 4, r"italian|dama italiana"),
        ("italian", 2, r"\bitalia\b|campionato|\bfid\b"),
        ("english", 4, r"checkers|english draughts|\bacf\b|\beda\b"),
        ("portuguese", 4, r"portugu"),
        ("spanish", 4, r"spanish|españ|espanol|\bspain\b"),
        ("international", 4, r"international|fmjd|dammen|kndb|стоклеточн|100-?square"),
        ("czech", 4, r"czech|česk|ceska dama|česká dáma"),
        ("czech", 2, r"\bčr\b|\bcr\b|praha|prague|\bbrno\b|ostrava|plzeň"),
        ("turkish", 4, r"turkish|dama turca|türk"),
        ("frisian", 4, r"frisian|frysk|fries"),
        ("thai", 4, r"\bthai\b"),
    )
)
# A clue at least this heavy decides between candidates without asking the file.
DECISIVE_WEIGHT = 3


@dataclass(frozen=True)
class Clue:
    """A hint in the text: which variant it points to, how strongly, and why.

    A clue that names the rules (`rules`: "Brazilian draughts" in the Event,
    a Variant tag) outweighs any number of clues about where the file comes
    from (Cyrillic letters, a code page, notation habits): Russian players
    play Brazilian draughts too.
    """

    variant: str  # a name in VARIANTS, or a variant not played here ("czech")
    weight: int
    reason: str
    rules: bool = False


@dataclass
class FileEvidence:
    """What the games read so far say about the whole file.

    `votes` counts, per variant, the games that only it could replay or that
    a decisive clue put in it (one vote each), and the games whose GameType
    names it (three: the file says so in so many words). They are evidence
    for the games that fit several variants and carry no clue of their own.
    """

    encoding: str | None = None
    votes: Counter[str] = field(default_factory=Counter)

    def vote(self, variant: str, weight: int = 1) -> None:
        self.votes[variant] += weight

    @property
    def settled(self) -> str | None:
        """The file's variant once its games agree: 3 votes, and four times all others."""
        if not self.votes:
            return None
        (leader, count), *rest = self.votes.most_common()
        others = sum(number for _, number in rest)
        return leader if count >= 3 and count >= 4 * others else None

    def summary(self) -> str:
        return ", ".join(f"{name} {count}" for name, count in self.votes.most_common())


@dataclass
class Guess:
    """The candidate variants for one game, in the order to try, and why."""

    candidates: list[Variant]
    clues: list[Clue]
    board: str  # why these candidates: the squares the moves use
    decisive: bool  # a clue alone puts the first candidate ahead of the others

    def grounds(self) -> list[str]:
        return [self.board, *[clue.reason for clue in self.clues]]

    def unplayed(self) -> list[Clue]:
        """Clues naming variants this engine does not play (Czech, Turkish, ...)."""
        return [clue for clue in self.clues if clue.variant not in VARIANTS]


def rank(record: PdnRecord, evidence: FileEvidence) -> Guess:
    """Order the variants a game may be in: by its clues, the file's variant, the usual order."""
    names, board = _board(record)
    clues = clues_of(record, evidence.encoding)
    rules: Counter[str] = Counter()
    habits: Counter[str] = Counter()
    for clue in clues:
        (rules if clue.rules else habits)[clue.variant] += clue.weight
    settled = evidence.settled

    def score(name: str) -> tuple[int, int]:
        return rules[name], habits[name]

    order = sorted(
        names, key=lambda name: (*(-s for s in score(name)), name != settled, names.index(name))
    )
    top = score(order[0])
    decisive = len(order) == 1 or (
        (top[0] > 0 or top[1] >= DECISIVE_WEIGHT) and top > score(order[1])
    )
    return Guess([VARIANTS[name] for name in order], clues, board, decisive)


def clues_of(record: PdnRecord, encoding: str | None = None) -> list[Clue]:
    """Every clue the game's text gives, strongest first."""
    found: list[Clue] = []
    names = {key.lower() for key in record.tags}
    if names & _ITALIAN_TAGS:
        shown = ", ".join(sorted(key for key in record.tags if key.lower() in _ITALIAN_TAGS))
        found.append(Clue("italian", 3, f"Italian tag names ({shown})"))
    cyrillic = [key for key, value in record.tags.items() if _CYRILLIC.search(value)]
    if cyrillic:
        found.append(Clue("russian", 3, f"Cyrillic text in tags ({', '.join(cyrillic[:3])})"))
    if encoding and any(name in encoding for name in CYRILLIC_ENCODINGS):
        found.append(Clue("russian", 3, f"the file is in a Cyrillic code page ({encoding})"))
    if any(":" in move.text for move in record.moves):
        found.append(Clue("russian", 2, "captures written with ':' (the Russian habit)"))
    results = [text for text in (record.result_tag(), record.terminator) if text]
    if any(is_russian_form(text) for text in results):
        shown = next(text for text in results if is_russian_form(text))
        found.append(Clue("russian", 2, f"result written {shown!r} (the Russian habit)"))
    order = [key.lower() for key in record.tags]
    if "black" in order and "white" in order and order.index("black") < order.index("white"):
        found.append(Clue("english", 2, "the Black tag comes before White (as English "
                                        "checkers programs write them)"))
    found += _words(record)
    variant_tag = record.tag("Variant")
    if variant_tag:
        try:
            named = get_variant(variant_tag)
        except (UnknownVariantError, ValueError):
            pass
        else:
            found.append(Clue(named.name, 8, f"Variant tag {variant_tag!r}", rules=True))
    return sorted(found, key=lambda clue: (not clue.rules, -clue.weight))


def _words(record: PdnRecord) -> list[Clue]:
    found: list[Clue] = []
    seen: set[str] = set()
    for tag in ("Event", "Site"):
        value = record.tag(tag)
        if not value:
            continue
        for variant, weight, pattern in _WORDS:
            match = pattern.search(value)
            if match and variant not in seen:
                seen.add(variant)
                what = (VARIANTS[variant].title if variant in VARIANTS
                        else f"{variant.capitalize()} draughts")
                found.append(Clue(variant, weight, f"{tag} {value!r} suggests {what}",
                                  rules=weight >= 4))
    return found


def _board(record: PdnRecord) -> tuple[tuple[str, ...], str]:
    """The variants whose board and notation fit the squares the game uses."""
    texts = [move.text for move in record.moves if not move.unknown]
    numbers = [int(n) for text in texts for n in re.findall(r"\d{1,3}", text)]
    squares = [s for text in texts for s in re.findall(r"[a-wyz]\d{1,2}", text)]
    for item in _fen_items(record.tag("FEN") or ""):
        numbers += [int(n) for n in re.findall(r"(?<![a-z0-9])\d{1,3}(?![0-9])", item)]
        squares += re.findall(r"[a-j]\d{1,2}", item)
    if any(n > 32 for n in numbers):
        return TEN_BY_TEN, "squares above 32: the 10x10 board"
    if any(s[0].lower() in "ij" or int(s[1:]) > 8 for s in squares):
        return TEN_BY_TEN, "files i-j or ranks 9-10: the 10x10 board"
    if squares or any(re.search(r"[a-wyz]", text) for text in texts):
        return ALGEBRAIC_8X8, "algebraic squares up to h8: an 8x8 variant written like chess"
    if texts:
        return NUMERIC, "numeric squares up to 32: an 8x8 variant, or 10x10"
    return NO_MOVES, "no moves to go by"


def _fen_items(fen: str) -> list[str]:
    """The square items of a FEN (`K12`, `1-12`, `c3`), lower case, colours and kings dropped."""
    items = []
    for part in fen.lower().strip().strip('"').split(":")[1:]:
        part = part.strip()
        if part[:1] in ("w", "b"):
            items += [item.strip().lstrip("k") for item in part[1:].split(",")]
    return items


# PDN GameType numbers of games this engine does not play (the PDN standard's table).
_NOT_PLAYED = {
    "0": "chess", "1": "Chinese chess", "27": "Canadian draughts", "29": "Czech draughts",
    "30": "Turkish draughts", "31": "Thai draughts", "40": "Frisian draughts",
    "41": "Spantsiretti draughts", "50": "Othello",
}


def named_variant(record: PdnRecord) -> Variant | None:
    """The variant the GameType tag names; None without one.

    Raises `UnknownVariantError` for a GameType naming no variant played here.
    """
    game_type = record.tag("GameType")
    if game_type is None or not game_type.strip():
        return None
    text = game_type.strip()
    head = text.split(",", 1)[0].strip()
    shown = text if len(text) <= 40 else text[:37] + "..."
    if head in _NOT_PLAYED:
        raise UnknownVariantError(
            f"GameType {shown!r} is {_NOT_PLAYED[head]}, which this engine does not play")
    try:
        return get_variant(text)
    except UnknownVariantError:
        raise
    except ValueError:  # a number too long to read
        raise UnknownVariantError(f"GameType {shown!r} is not a PDN game type") from None
