"""The jumps a flying king may make on one board, worked out once for all its kings.

A jump is "the enemy piece on p jumped along d", indexed ``p * 4 + d`` like the
rays (`engine.rays`). Exploring it finds its landings (the empty squares beyond p
along d, up to the next piece or the edge, nearest first) and the jumps that may
follow it: from each landing, the first piece along either crossing direction, and
from every landing alike the piece that ends the run, straight on; each when the
square right behind it is empty (`Board.explore`, `Tables`).

Exploring a jump reads the board on few squares: the run, the piece ending it and,
when that is an enemy piece, the square right behind it (`Tables.examined`); from
each landing, along each crossing direction, the squares up to the first piece and
the one right behind it. A king searches the board without itself, which differs
from the whole board on its own square only. So the jumps are explored once on the
whole board (`JumpGraph`), and each king takes them as they are except those that
read its square, which it explores again on its own board (`JumpGraph.for_king`,
`KingGain` for what its board gains). That is exact, and it makes several kings cost
little more than one: most jumps of a crowded board never read a given king's square.
"""

from __future__ import annotations

from typing import TypeVar

from engine.king_paths import Step
from engine.rays import Rays

_Entry = TypeVar("_Entry")

# per direction: where straight on comes among a landing's jumps, in direction order
# (before both crossing ones, between them, between them, after both)
_STRAIGHT_SLOT = (0, 1, 1, 2)

# several kings share one exploration from this many on, on boards of this size or
# more; fewer kings, or kings on a smaller board, explore one board each
# (`engine.majority_captures`): sharing costs each king what its board gains and the jumps it
# explores again, which pays only where a king's own exploration is large, as on a
# crowded 10 x 10 board (measured 2026-12-02: nine kings' searches 650 -> 482 us,
# thirteen small ones even; shared, 8 x 8 boards with four or more capturing kings
# took 27% longer on average)
SHARED_FROM = 4
SHARED_BOARD = 10

_QUEUED: list[int] = []  # a jump's edges while it waits to be explored (never written to)


def crossing_sights(rays: Rays, empty: int, jumpable: list[int]) -> list[int]:
    """Per direction e, the empty squares from which the first piece along e is one
    that may be jumped along e (`jumpable[e]`): a flood backwards from those pieces."""
    sights = []
    for e, shift in enumerate(rays.step):
        if shift > 0:
            x = (jumpable[e] >> shift) & empty
            seen = x
            while x:
                x = (x >> shift) & empty
                seen |= x
        else:
            x = (jumpable[e] << -shift) & empty
            seen = x
            while x:
                x = (x << -shift) & empty
                seen |= x
        sights.append(seen)
    return sights


class Tables:
    """What exploring jumps found, indexed by jump (``square * 4 + direction``).

    Invariants: for an explored jump n, ``edges[n]`` holds the edge int of every jump
    that may follow it, once each, where it first comes in listing order (landings
    nearest first, from each landing in direction order, straight on at every
    landing); ``steps[n]`` the same jumps in listing order, one per landing they are
    made from, as ((landing, next piece) named, next piece's compact bit, edge int);
    ``lands[n]`` its landings nearest first; ``examined[n]`` the squares read on its
    run and ``landings[n]`` its landings as bitboards (only where they are kept,
    `JumpGraph`). ``edges[n]`` is None for a jump not explored.
    """

    __slots__ = ("edges", "steps", "lands", "examined", "landings")

    def __init__(self, slots: int, marks: bool) -> None:
        self.edges: list[list[int] | None] = [None] * slots
        self.steps: list[list[Step]] = [[]] * slots
        self.lands: list[tuple[int, ...]] = [()] * slots
        self.examined: list[int] | None = [0] * slots if marks else None
        self.landings: list[int] | None = [0] * slots if marks else None

    def land_list(self) -> list[tuple[int, ...]]:
        return self.lands

    def step_list(self) -> list[list[Step]]:
        return self.steps


class KingTables:
    """One king's jumps where it shares a board's exploration (`JumpGraph.for_king`):
    ``edges`` for every jump, the whole board's where the king's are the same; ``lands``
    and ``steps`` hold only the jumps it explored on its own board, over the whole
    board's `base` (`land_list` and `step_list` merge them when first read).
    Invariants: those of `Tables`, for the merged lists."""

    __slots__ = ("edges", "lands", "steps", "examined", "landings", "_base", "_land_list",
                 "_step_list")

    def __init__(self, base: Tables) -> None:
        self.edges = base.edges.copy()
        self.lands: dict[int, tuple[int, ...]] = {}
        self.steps: dict[int, list[Step]] = {}
        self.examined: list[int] | None = None
        self.landings: list[int] | None = None
        self._base = base
        self._land_list: list[tuple[int, ...]] | None = None
        self._step_list: list[list[Step]] | None = None

    def land_list(self) -> list[tuple[int, ...]]:
        if self._land_list is None:
            self._land_list = _overlaid(self._base.lands, self.lands)
        return self._land_list

    def step_list(self) -> list[list[Step]]:
        """Merged apart from the landings: only spelling paths reads the steps."""
        if self._step_list is None:
            self._step_list = _overlaid(self._base.steps, self.steps)
        return self._step_list


def _overlaid(base: list[_Entry], own: dict[int, _Entry]) -> list[_Entry]:
    """A copy of `base` with `own`'s entries written over it."""
    merged = base.copy()
    for node, entry in own.items():
        merged[node] = entry
    return merged


class Board:
    """What exploring reads of one board: its pieces, the enemy pieces that may be
    jumped along each direction (an empty square right behind them), and the crossing
    sights (`crossing_sights`, worked out when first needed)."""

    __slots__ = ("rays", "occupied", "empty", "jumpable", "sights")

    def __init__(self, rays: Rays, occupied: int, opp: int) -> None:
        empty = rays.valid & ~occupied
        self.rays, self.occupied, self.empty = rays, occupied, empty
        self.jumpable = [opp & (empty >> s if s > 0 else empty << -s) for s in rays.step]
        self.sights: list[int] | None = None

    def crossing(self) -> list[int]:
        if self.sights is None:
            self.sights = crossing_sights(self.rays, self.empty, self.jumpable)
        return self.sights

    def explore(self, todo: list[int], tables: Tables | KingTables, bit_of: list[int],
                names: tuple[int, ...]) -> list[int]:
        """Explore the jumps of `todo` and every jump that may follow them not explored
        in `tables` yet, writing what they find there (`Tables`); return todo, grown by
        those (compact bits as `bit_of` gives them, squares named in `names`)."""
        ray_mask, jumps = self.rays.ray_mask, self.rays.jumps
        occupied, jumpable, sights = self.occupied, self.jumpable, self.crossing()
        edges, steps_of, lands_of = tables.edges, tables.steps, tables.lands
        examined, landings = tables.examined, tables.landings
        x = bit = blocker_name = 0
        for node in todo:
            edges[node] = _QUEUED
        for node in todo:  # todo grows while it is walked, each jump queued once
            over, d, reach, lands, ascend, shift, up, down, up_mask, down_mask = jumps[node]
            blocked = reach & occupied
            up_sights, down_sights = sights[up], sights[down]
            slot = -1  # where straight on comes among a landing's jumps, if it can
            if blocked:
                blocker = ((blocked & -blocked).bit_length() - 1 if ascend
                           else blocked.bit_length() - 1)
                lands = lands[:(blocker - over) // shift - 1]
                run = reach ^ ray_mask[blocker * 4 + d]  # the landings and the blocker
                crossing = run & (up_sights | down_sights)
                if jumpable[d] >> blocker & 1:
                    slot = _STRAIGHT_SLOT[d]
                    child = blocker * 4 + d
                    bit = bit_of[blocker]
                    x = bit | (child ^ node)
                    if edges[child] is None:
                        edges[child] = _QUEUED
                        todo.append(child)
                    blocker_name = names[blocker]
                if examined is not None:
                    read = run
                    if bit_of[blocker] and run != reach:  # an enemy piece: behind it read
                        beyond = reach ^ run
                        read |= beyond & -beyond if ascend else 1 << beyond.bit_length() - 1
                    examined[node] = read
                    landings[node] = run ^ 1 << blocker  # type: ignore[index]
            else:
                crossing = reach & (up_sights | down_sights)
                if examined is not None:
                    examined[node] = landings[node] = reach  # type: ignore[index]
            lands_of[node] = lands
            if not crossing and slot < 0:
                edges[node] = []
                steps_of[node] = []
                continue
            out: list[int] = [x] if slot >= 0 else []
            steps: list[Step] = []
            # (the two crossing directions are written out, not a call each: this loop
            # runs once per landing of every jump, the hot path of `legal_moves()`)
            for land in lands:  # nearest first
                if slot == 0:
                    steps.append(((names[land], blocker_name), bit, x))
                if crossing >> land & 1:
                    if up_sights >> land & 1:
                        hit = up_mask[land] & occupied
                        piece = (hit & -hit).bit_length() - 1
                        child = piece * 4 + up
                        cx = bit_of[piece] | (child ^ node)
                        out.append(cx)
                        steps.append(((names[land], names[piece]), bit_of[piece], cx))
                        if edges[child] is None:
                            edges[child] = _QUEUED
                            todo.append(child)
                    if slot == 1:
                        steps.append(((names[land], blocker_name), bit, x))
                    if down_sights >> land & 1:
                        hit = down_mask[land] & occupied
                        piece = hit.bit_length() - 1
                        child = piece * 4 + down
                        cx = bit_of[piece] | (child ^ node)
                        out.append(cx)
                        steps.append(((names[land], names[piece]), bit_of[piece], cx))
                        if edges[child] is None:
                            edges[child] = _QUEUED
                            todo.append(child)
                    if slot == 2:
                        steps.append(((names[land], blocker_name), bit, x))
                elif slot > 0:
                    steps.append(((names[land], blocker_name), bit, x))
            if slot > 0 and crossing >> lands[0] & 1:
                # straight on comes first after the crossing jumps from the nearest landing
                # that come before it (`edges` lists each next jump where it first comes)
                before = up_sights >> lands[0] & 1
                if slot == 2:
                    before += down_sights >> lands[0] & 1
                if before:
                    out[:before + 1] = out[1:before + 1] + [x]
            edges[node] = out
            steps_of[node] = steps
        return todo


class JumpGraph:
    """The jumps of one board (`whole`), explored once for the kings of the side to
    move that may capture (`kings`, two or more).

    Invariants: `tables` holds every jump explored on the whole board (`Tables`), a
    set closed under following an edge; `touching` lists those that read a king's
    square (`KingGain`), the only ones a king may have to explore again.
    """

    __slots__ = ("rays", "whole", "opp", "bit_of", "names", "kings", "tables", "touching",
                 "_gains", "_gained")

    def __init__(self, rays: Rays, occupied: int, opp: int, bit_of: list[int],
                 names: tuple[int, ...], kings: int) -> None:
        self.rays, self.opp, self.bit_of, self.names = rays, opp, bit_of, names
        self.kings = kings
        self.whole = Board(rays, occupied, opp)
        self.tables = Tables(len(rays.ray), marks=True)
        self.touching: list[int] = []
        self._gains: dict[int, KingGain] = {}
        self._gained = (0, 0, 0, 0)  # every king's gain, by jump direction

    def close(self, nodes: list[int]) -> list[int]:
        """Explore `nodes` and every jump that may follow them on the whole board, those
        not explored yet; return those newly explored."""
        edges = self.tables.edges
        todo = [node for node in dict.fromkeys(nodes) if edges[node] is None]
        if not todo:
            return todo
        added = self.whole.explore(todo, self.tables, self.bit_of, self.names)
        kings, gained = self.kings, self._gained
        examined, landings = self.tables.examined, self.tables.landings
        assert examined is not None and landings is not None
        self.touching += [node for node in added
                          if examined[node] & kings or landings[node] & gained[node & 3]]
        return added

    def for_king(self, origin: int, firsts: list[int]) -> Tables | KingTables:
        """The jumps of the king on `origin` whose first jumps are `firsts`: the whole
        board's, but those that read its square explored on its board."""
        gain = self._gain(origin)
        self.close(firsts)
        square, gained = 1 << origin, gain.by_direction
        examined, landings = self.tables.examined, self.tables.landings
        assert examined is not None and landings is not None
        affected = [node for node in self.touching
                    if examined[node] & square or landings[node] & gained[node & 3]]
        if not affected:
            return self.tables
        tables = KingTables(self.tables)
        # jumps not on the whole board's tables are explored on the king's board alone
        gain.board().explore(affected, tables, self.bit_of, self.names)
        return tables

    def _gain(self, origin: int) -> KingGain:
        """What the board gains for the king on `origin`; every king's, worked out at
        once before any jump is explored (`touching` needs them all)."""
        if not self._gains:
            rest = self.kings
            while rest:
                square = (rest & -rest).bit_length() - 1
                rest &= rest - 1
                self._gains[square] = KingGain(self, square)
            gained = [0, 0, 0, 0]
            for gain in self._gains.values():
                gained = [a | b for a, b in zip(gained, gain.by_direction, strict=True)]
            self._gained = (gained[0], gained[1], gained[2], gained[3])
        return self._gains[origin]


class KingGain:
    """What the whole board gains when one king's square is emptied, the board its
    search reads: per direction e, the empty squares that come to see a piece that may
    be jumped along e (`sights`) and the pieces that come to be (`jumpable`); per jump
    direction, the squares gained along its crossing diagonal (`by_direction`).

    Emptying a square loses nothing: the squares that saw it first come to see the first
    piece beyond it (gained when that one may be jumped), and an enemy piece right next
    to it comes to be jumped towards it (seen from the squares beyond it, up to the
    next piece). A jump explored on the whole board is the king's too unless it read
    the square (`Tables.examined`) or lands on a square gained along its crossing
    diagonal.
    """

    __slots__ = ("graph", "origin", "sights", "jumpable", "by_direction")

    def __init__(self, graph: JumpGraph, origin: int) -> None:
        rays, whole, opp = graph.rays, graph.whole, graph.opp
        ray, ray_mask, ascending, back = rays.ray, rays.ray_mask, rays.ascending, rays.back
        occupied, jumpable = whole.occupied, whole.jumpable
        self.graph, self.origin = graph, origin
        sights = [0, 0, 0, 0]
        gained = [0, 0, 0, 0]
        for d in range(4):
            # the squares out from `origin` along d see it looking back along e
            e = back[d]
            index = origin * 4 + d
            out = ray_mask[index]
            hit = out & occupied
            first = -1
            if hit:
                first = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                out &= ~(ray_mask[first * 4 + d] | 1 << first)
            hit = ray_mask[origin * 4 + e] & occupied
            if hit:  # the first piece beyond `origin` looking along e
                beyond = (hit & -hit).bit_length() - 1 if ascending[e] else hit.bit_length() - 1
                if jumpable[e] >> beyond & 1:
                    sights[e] |= out | 1 << origin
            if first >= 0 and ray[index][0] == first and opp >> first & 1:
                # an enemy piece right next to it, jumped towards it from beyond
                gained[e] |= 1 << first
                out = ray_mask[first * 4 + d]
                hit = out & occupied
                if hit:
                    second = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                    out &= ~(ray_mask[second * 4 + d] | 1 << second)
                sights[e] |= out
        self.sights, self.jumpable = sights, gained
        crossing_12, crossing_03 = sights[1] | sights[2], sights[0] | sights[3]
        self.by_direction = (crossing_12, crossing_03, crossing_03, crossing_12)

    def board(self) -> Board:
        """The board without the king: the whole board and what it gains."""
        whole = self.graph.whole
        board = Board.__new__(Board)
        board.rays, board.occupied = whole.rays, whole.occupied & ~(1 << self.origin)
        board.empty = whole.empty | 1 << self.origin
        jumpable, gained = whole.jumpable, self.jumpable
        board.jumpable = [jumpable[0] | gained[0], jumpable[1] | gained[1],
                          jumpable[2] | gained[2], jumpable[3] | gained[3]]
        sights, gained = whole.crossing(), self.sights
        board.sights = [sights[0] | gained[0], sights[1] | gained[1], sights[2] | gained[2],
                        sights[3] | gained[3]]
        return board
