"""A flying king's longest captures, for the majority rule (International, Brazilian).

The model. While one piece captures, the board does not change: the pieces it
jumps stay on their squares until the move ends (they block, and cannot be
jumped twice), and only its own origin square is empty. So every capture a
flying king can make is a walk in one fixed graph whose nodes are *jumps*:
"piece p jumped along direction d". A jump's landings are the empty squares
beyond p along d, up to the next piece or the edge. From a landing the king
jumps the first piece it meets along the crossing diagonal, or, from every
landing alike, the piece that ends the run, straight on (backwards it would
meet p again). A capture sequence is a walk that never jumps one piece twice;
it takes as many pieces as it has jumps.

The graph (`engine.jump_graph`). A jump's index is ``square * 4 + direction``,
the same index as the ray tables (`engine.rays`), so a jump's landings are a slice
of its ray. The graph is built as it is explored, from the king's first jumps;
which landings see a piece to jump along a crossing diagonal is known for the
whole board beforehand (a few shifts per direction), so a landing without a
crossing jump costs nothing unless the jump also goes straight on. Several kings
of one side share one exploration of the board, each exploring again only the
jumps that read its own square (`JumpGraph.for_king`).

The search. A *state* is (jump, pieces taken so far), packed into one small
int: the taken set in compact bits (one per enemy piece, see `EnemyPieces`)
above `NODE_BITS`, plus the jump's index. An edge is one int too, ``x = bit |
(jump ^ next jump)`` where bit is the next piece's compact bit: it may be
taken when ``state & x < 1 << NODE_BITS`` (the piece is not yet taken), and
then leads to ``state ^ x``. The search is breadth first: layer k holds the
states after k + 1 captures, so the longest capture takes as many pieces as
there are layers, and a state reached in several orders is expanded once.
Nothing bounds it: the worst positions (several kings, a dozen pieces each
able to be taken in many orders) have a few hundred states per king.

The order. Paths are listed in the order the engine has always listed them:
first jumps in direction order, landings nearest first, and from each landing
the next jumps in direction order. Each layer lists its states in the order of
their first paths (a state's first path is its earliest parent's first path
and that parent's earliest step into it, as every path into one layer has the
same length), so the moves, one per (destination, pieces taken), come from the
last layer in the order of their first paths without spelling any path
(`_last_endings`; `KingPaths.endings` for the proof).

Spelling, when asked for (`engine.king_paths`, from the search's tables). The
states on a longest capture are marked backwards from the last layer (through
each jump's list of incoming edges). One move's first path is spelt back through
each state's earliest parent; every path (for all the king's moves at once when
`Position.legal_moves()`'s moves are first read) from both ends through marked
states only, whichever side has fewer partial paths first: prefixes forwards
from the origin, suffixes backwards (shared by every prefix that reaches the
same state), joined where they meet. Each partial path is one tuple alternating
pieces and landings, already in the caller's square numbers, so a step costs
one tuple concatenation; the path and the capture order are its two slices.

Compiled (`engine.native_captures`, `engine/capture_search.c`). The same search in C gives
the longest, the number of states and the endings in the same order; where it is
built and the caller reads no path now, it answers, and this module's search is made
only when a path is first read.
"""

from __future__ import annotations

from engine import native_captures
from engine.jump_graph import Board, JumpGraph, KingTables, Tables
from engine.king_paths import NODE, NODE_BITS, EveryPath, KingPaths, Layer, PathsLater, Spelt
from engine.king_paths import Ending as _Ending
from engine.raw_moves import RawMove
from engine.rays import Rays

_NODE = NODE

# a king whose search has at most this many states has its moves' paths spelt at once
# (`KingCaptures.moves`, `firsts`): then spelling costs less than deferring it
SPELT_AT_ONCE = 24

class EnemyPieces:
    """The numbering of the enemy pieces shared by every king's search on one board:
    the i-th enemy piece (by bit) has the compact bit ``bit[square] = 1 <<
    (NODE_BITS + i)``, and ``square[i]`` is its square. A set of pieces taken is
    written ``taken``: bit i for the i-th piece (a state's bits above `NODE_BITS`);
    `mask` and `named` remember what they worked out per set, for one naming of the
    squares (one move generation)."""

    __slots__ = ("_opp", "_squares", "_numbering", "_masks", "_named")

    def __init__(self, opp: int, squares: int) -> None:
        """Nothing is worked out yet: a position whose captures the compiled search
        lists and that are only counted never reads the numbering."""
        self._opp, self._squares = opp, squares
        self._numbering: tuple[list[int], list[int]] | None = None  # (bit, square)
        self._masks: dict[int, int] = {}
        self._named: dict[int, frozenset[int]] = {}

    @property
    def bit(self) -> list[int]:
        return self._numbered()[0]

    @property
    def square(self) -> list[int]:
        return self._numbered()[1]

    def _numbered(self) -> tuple[list[int], list[int]]:
        if self._numbering is None:
            bit = [0] * self._squares
            square: list[int] = []
            compact = 1 << NODE_BITS
            opp = self._opp
            while opp:
                low = opp & -opp
                square.append(low.bit_length() - 1)
                bit[square[-1]] = compact
                opp ^= low
                compact <<= 1
            self._numbering = (bit, square)
        return self._numbering

    def mask(self, taken: int) -> int:
        """The squares of the pieces `taken`, as a bitboard."""
        mask = self._masks.get(taken)
        if mask is None:
            square = self.square
            mask = self._masks[taken] = sum(1 << square[i] for i in range(taken.bit_length())
                                            if taken >> i & 1)
        return mask

    def named(self, taken: int, names: tuple[int, ...]) -> frozenset[int]:
        """The squares of the pieces `taken`, written in `names` (the same every call)."""
        found = self._named.get(taken)
        if found is None:
            square, pieces, rest = self.square, [], taken
            while rest:
                low = rest & -rest
                pieces.append(names[square[low.bit_length() - 1]])
                rest ^= low
            found = self._named[taken] = frozenset(pieces)
        return found


class KingCaptures:
    """One flying king's capture search, on one board.

    Invariants: ``_jumps`` holds what exploring found of every jump the king can
    reach, on its board (`engine.jump_graph.Tables`, or `KingTables` where several
    kings share the exploration); ``_layers[k]`` is every state
    reachable with k + 1 pieces taken, in the order of their first paths, so
    `longest` = len(_layers) and `states` = their total. Where the compiled search
    answered, ``_layers`` and ``_jumps`` are made only when first needed
    (`_searched`), and ``_endings`` is already what `_last_endings` gives.
    """

    __slots__ = ("origin", "longest", "states", "_board", "_graph", "_names", "_pieces",
                 "_firsts", "_jumps", "_layers", "_endings")

    def __init__(self, rays: Rays, origin: int, occupied: int, opp: int,
                 pieces: EnemyPieces, names: tuple[int, ...],
                 graph: JumpGraph | None = None, compiled: bool = True) -> None:
        """Search every capture of the king on `origin` (not in `occupied`); paths will
        be spelt in `names` (bit index -> number). `graph`: the jumps of the whole board
        (`occupied` and `origin`), shared by several kings of the side to move; without
        it the king explores its own board. With `compiled`, the compiled search
        (`engine.native_captures`) is asked first, and where it answers, the Python search
        is made only when a path is first read (`_searched`); a caller that spells
        paths at once asks the Python search alone."""
        ray_mask, ascending = rays.ray_mask, rays.ascending
        bit_of = pieces.bit
        # a first jump's piece has the square behind it read alike with the king or not
        board = Board(rays, occupied, opp) if graph is None else graph.whole
        jumpable = board.jumpable
        self.origin = origin
        self._board, self._graph = board, graph
        self._names = names
        self._pieces = pieces
        firsts: list[tuple[int, int]] = []  # (piece, state) from the origin, direction order
        for d in range(4):
            hit = ray_mask[origin * 4 + d] & occupied
            if hit:
                piece = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                if jumpable[d] >> piece & 1:
                    firsts.append((piece, bit_of[piece] | piece * 4 + d))
        self._firsts = firsts
        self._layers: list[Layer] | None = None
        self._endings: list[_Ending] | None = None
        if not firsts:
            self.longest = self.states = 0
            self._layers, self._endings = [], []
            return
        found = native_captures.endings(rays, origin, occupied, opp) if compiled else None
        if found is None:
            self._search()
        else:
            self.longest, self.states, self._endings = found

    def _search(self) -> None:
        """The search in Python: explore the king's jumps (on its own board, or through
        the shared graph's) and list its layers of states."""
        board, graph = self._board, self._graph
        first_jumps = [state & _NODE for _, state in self._firsts]
        jumps: Tables | KingTables
        if graph is None:  # the king alone: its own board
            jumps = Tables(len(board.rays.ray_mask), marks=False)
            board.explore(first_jumps, jumps, self._pieces.bit, self._names)
        else:
            jumps = graph.for_king(self.origin, first_jumps)
        self._jumps = jumps
        edges = jumps.edges

        # each layer's states in the order of their first paths (see `KingPaths.endings`)
        layer = dict.fromkeys([state for _, state in self._firsts])
        layers: list[Layer] = []
        while layer:
            layers.append(layer)
            layer = {state ^ x: None for state in layer
                     for x in edges[state & _NODE]  # type: ignore[union-attr]
                     if state & x < 256}  # a state stays where it first comes
        self.longest = len(layers)
        self.states = sum(map(len, layers))
        self._layers = layers

    def _searched(self) -> list[Layer]:
        """The layers of the Python search, made now if the compiled one answered."""
        if self._layers is None:
            self._search()
        assert self._layers is not None
        return self._layers

    def paths(self, out: list[RawMove]) -> None:
        """Append every longest capture, one raw move per landing path, its landings and
        the pieces it jumps in the names given (origin, destination and captured mask
        stay bits)."""
        origin, mask_of = self.origin, self._pieces.mask
        for spelt, (destination, taken) in self.spelling().spelt():
            out.append((origin, destination, mask_of(taken), True, spelt[1::2], spelt[0::2]))

    def firsts(self, out: list[RawMove]) -> None:
        """Append every longest capture once per (destination, pieces taken), with its
        first path, in the order of first paths (what `paths` then keeping each move's
        first path gives), without spelling the other paths (`KingPaths.endings`)."""
        origin, mask_of, spelling = self.origin, self._pieces.mask, self.spelling()
        if self.states <= SPELT_AT_ONCE:  # cheaper spelt (see `moves`)
            listed: set[_Ending] = set()
            for spelt, ending in spelling.spelt():
                if ending not in listed:
                    listed.add(ending)
                    out.append((origin, ending[0], mask_of(ending[1]), True, spelt[1::2],
                                spelt[0::2]))
            return
        for (destination, taken), state, land in spelling.endings():
            spelt = spelling.first_path(state, land)
            out.append((origin, destination, mask_of(taken), True, spelt[1::2], spelt[0::2]))

    def unspelt(self, out: list[RawMove]) -> None:
        """Append every longest capture once per (destination, pieces taken), in the order
        of first paths, as raw moves without a path or capture order (empty tuples)."""
        origin, mask_of = self.origin, self._pieces.mask
        for destination, taken in self._last_endings():
            out.append((origin, destination, mask_of(taken), True, (), ()))

    def _last_endings(self) -> list[_Ending]:
        """Every ending (destination bit, pieces taken) of a longest capture, in the order
        of first paths: the last layer's states come in the order of their first paths
        (`KingPaths.endings` says why; every one of them is on a longest capture), and so
        do their endings, each listed where it first comes."""
        if self._endings is None:
            layers = self._searched()
            lands = self._jumps.land_list()
            self._endings = list(dict.fromkeys([(land, state >> NODE_BITS)
                                                for state in layers[-1]
                                                for land in lands[state & _NODE]]))
        return self._endings

    def moves(self, out: list) -> None:
        """Append every longest capture once per (destination, pieces taken), in the
        order of first paths, as `MoveGenerator.grouped` lists moves: (origin,
        destination, True, pieces taken named, (first path, its capture order, every
        path)), the last a `PathsLater` to be spelt when asked unless the search has
        so few states (`SPELT_AT_ONCE`) that deferring would cost more (when the Python
        search was made: after the compiled one, spelling would make it)."""
        origin = self.origin
        if self.states <= SPELT_AT_ONCE and self._layers is not None:
            for (destination, _), spelt in self.spelling().every_path_by_ending():
                out.append((origin, destination, True, frozenset(spelt[1]), spelt))
            return
        every, names, named = EveryPath(self._every_path), self._names, self._pieces.named
        for index, (destination, taken) in enumerate(self._last_endings()):
            out.append((origin, destination, True, named(taken, names),
                        PathsLater(every, index)))

    def _every_path(self) -> list[Spelt]:
        """Every path, grouped by move in the order of `moves` (`KingPaths.every_path`)."""
        return self.spelling().every_path()

    def spelling(self) -> KingPaths:
        """What spells this search's paths: its layers, the steps and landings of its
        jumps, and their incoming edges, worked out now (the search does not need them)."""
        layers = self._searched()
        jumps = self._jumps
        return KingPaths(layers, self._parents(), self._firsts, jumps.step_list(),
                         jumps.land_list(), self._names)

    def _parents(self) -> list[list[int] | None]:
        """Per jump the king reaches, the edges into it (None for the others)."""
        edges = self._jumps.edges
        parents: list[list[int] | None] = [None] * len(edges)
        reached = list(dict.fromkeys([state & _NODE for _, state in self._firsts]))
        for node in reached:
            parents[node] = []
        for node in reached:  # reached grows while it is walked: every jump the king reaches
            for x in edges[node]:  # type: ignore[union-attr]
                into = parents[x & _NODE ^ node]
                if into is None:
                    parents[x & _NODE ^ node] = [x]
                    reached.append(x & _NODE ^ node)
                else:
                    into.append(x)
        return parents

    def move_count(self) -> int:
        """How many (destination, pieces taken) the longest captures end with: every
        state of the last layer is on a longest capture, so no path is walked."""
        return len(self._last_endings()) if self.longest else 0

    def path_count(self) -> int:
        """How many landing paths the longest captures have, counted layer by layer
        (paths into each state), none spelt."""
        if not self.longest:
            return 0
        layers = self._searched()
        steps_of, lands_of = self._jumps.step_list(), self._jumps.land_list()
        ways = {state: 1 for _, state in self._firsts}
        for _ in range(len(layers) - 1):
            after: dict[int, int] = {}
            for state, count in ways.items():
                for _, bit, x in steps_of[state & _NODE]:
                    if not state & bit:
                        child = state ^ x
                        after[child] = after.get(child, 0) + count
            ways = after
        return sum(count * len(lands_of[state & _NODE]) for state, count in ways.items())
