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

The graph. A jump's index is ``square * 4 + direction``, the same index as the
ray tables (`engine.rays`), so a jump's landings are a slice of its ray. The
graph is built as it is explored, from the king's first jumps; which landings
see a piece to jump along a crossing diagonal is known for the whole board
beforehand (`_crossing_sights`, a few shifts per direction), so a landing
without a crossing jump costs nothing unless the jump also goes straight on.

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

Spelling. The states on a longest capture are marked backwards from the last
layer (through each jump's list of incoming edges). Paths are then spelt from
both ends through marked states only, whichever side has fewer partial paths
first: prefixes forwards from the origin, suffixes backwards (shared by every
prefix that reaches the same state), joined where they meet. Each partial path
is one tuple alternating pieces and landings, already in the caller's square
numbers, so a step costs one tuple concatenation; the path and the capture
order are its two slices. The order is the one the engine has always listed
paths in: first jumps in direction order, landings nearest first, and from
each landing the next jumps in direction order.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rays import Rays

NODE_BITS = 8  # a state's low bits: the jump's index (square * 4 + direction < 256)
_NODE = (1 << NODE_BITS) - 1

# RawMove, as engine.movegen defines it (not imported: movegen imports this module)
_RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]
# A step from a jump to the next, in listing order: ((landing, next piece) named, bit, x)
_Step = tuple[tuple[int, int], int, int]
# A partial path: pieces and landings alternating, named; and where it ends
_Ending = tuple[int, int]  # (destination bit, pieces taken as compact bits)
# states (keys) in the order of their first paths
Layer = dict[int, None] | set[int]
# a move's first path, its capture order and every path, named
Spelt = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]

# a king whose search has at most this many states has its moves' paths spelt at once
# (`KingCaptures.moves`, `firsts`): then spelling costs less than deferring it
SPELT_AT_ONCE = 24

# per direction: where straight on comes among a landing's jumps, in direction order
# (before both crossing ones, between them, between them, after both)
_STRAIGHT_SLOT = (0, 1, 1, 2)


class EnemyPieces:
    """The numbering of the enemy pieces shared by every king's search on one board:
    the i-th enemy piece (by bit) has the compact bit ``bit[square] = 1 <<
    (NODE_BITS + i)``, and ``square[i]`` is its square."""

    __slots__ = ("bit", "square")

    def __init__(self, opp: int, squares: int) -> None:
        bit = [0] * squares
        square: list[int] = []
        compact = 1 << NODE_BITS
        while opp:
            low = opp & -opp
            square.append(low.bit_length() - 1)
            bit[square[-1]] = compact
            opp ^= low
            compact <<= 1
        self.bit, self.square = bit, square


class EveryPath:
    """Every path of one king's longest captures, grouped as its moves are: spelt on
    the first `of` call, for all the king's moves at once (`KingCaptures.every_path`),
    and the search let go then (it is only kept for this)."""

    __slots__ = ("_search", "_spelt")

    def __init__(self, search: KingCaptures) -> None:
        self._search: KingCaptures | None = search
        self._spelt: list[Spelt] | None = None

    def of(self, index: int) -> Spelt:
        """(first path, its capture order, every path) of the king's `index`-th move (in
        the order of `KingCaptures.moves`)."""
        spelt = self._spelt
        if spelt is None:
            assert self._search is not None
            spelt = self._spelt = self._search.every_path()
            self._search = None
        return spelt[index]


class PathsLater:
    """One move's every path, not spelt yet: the `index`-th group of `every`."""

    __slots__ = ("every", "index")

    def __init__(self, every: EveryPath, index: int) -> None:
        self.every, self.index = every, index

    def spell(self) -> Spelt:
        return self.every.of(self.index)


def _crossing_sights(rays: Rays, empty: int, jumpable: list[int]) -> list[int]:
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


class KingCaptures:
    """One flying king's capture graph and search layers, on one board.

    Invariants: jump n (= square * 4 + direction) lands on ``_lands[n]``, nearest
    first; ``_edges[n]`` holds the edge int x of every jump that may follow it,
    once each; ``_steps[n]`` lists the same jumps in listing order (landings
    nearest first, from each landing in direction order, straight on at every
    landing) as ((landing, piece) named, bit, x); ``_parents[n]`` holds the x of
    every edge into n (None for a jump never reached); ``_layers[k]`` is every
    state reachable with k + 1 pieces taken, so `longest` = len(_layers).
    """

    __slots__ = ("origin", "longest", "_names", "_square_of", "_firsts", "_lands", "_steps",
                 "_edges", "_parents", "_layers", "_marks", "_earliest")

    def __init__(self, rays: Rays, origin: int, occupied: int, opp: int,
                 pieces: EnemyPieces, names: tuple[int, ...]) -> None:
        """Explore every capture of the king on `origin` (not in `occupied`); paths will
        be spelt in `names` (bit index -> number)."""
        ray, ray_mask, ascending, step, jumps = (rays.ray, rays.ray_mask, rays.ascending,
                                                 rays.step, rays.jumps)
        empty = rays.valid & ~occupied
        bit_of = pieces.bit
        # enemy pieces with an empty square right behind them, seen along each direction
        jumpable = [opp & (empty >> s if s > 0 else empty << -s) for s in step]
        self.origin = origin
        self._names = names
        self._square_of = pieces.square
        parents: list[list[int] | None] = [None] * len(ray)
        firsts: list[tuple[int, int]] = []  # (piece, state) from the origin, direction order
        todo: list[int] = []  # jumps to explore; a jump is queued when its parents list is made
        for d in range(4):
            hit = ray_mask[origin * 4 + d] & occupied
            if hit:
                piece = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                if jumpable[d] >> piece & 1:
                    node = piece * 4 + d
                    firsts.append((piece, bit_of[piece] | node))
                    parents[node] = []
                    todo.append(node)
        self._firsts = firsts
        self._parents = parents
        self._marks: list[Layer] | None = None
        self._earliest: dict[int, int] = {}
        if not firsts:
            self.longest = 0
            self._layers: list[Layer] = []
            return
        sights = _crossing_sights(rays, empty, jumpable)
        edges: list[list[int]] = [[]] * len(ray)
        steps_of: list[list[_Step]] = [[]] * len(ray)
        lands_of: list[tuple[int, ...]] = [()] * len(ray)
        for node in todo:  # todo grows while it is walked: every jump is explored once
            over, d, reach, lands, ascend, shift, up, down, up_mask, down_mask = jumps[node]
            blocked = reach & occupied
            up_sights, down_sights = sights[up], sights[down]
            slot = -1  # where straight on comes among a landing's jumps, if it can
            if blocked:
                blocker = ((blocked & -blocked).bit_length() - 1 if ascend
                           else blocked.bit_length() - 1)
                lands = lands[:(blocker - over) // shift - 1]
                crossing = (reach ^ ray_mask[blocker * 4 + d]) & (up_sights | down_sights)
                if jumpable[d] >> blocker & 1:
                    slot = _STRAIGHT_SLOT[d]
                    child = blocker * 4 + d
                    bit = bit_of[blocker]
                    x = bit | (child ^ node)
                    known = parents[child]
                    if known is None:
                        parents[child] = [x]
                        todo.append(child)
                    else:
                        known.append(x)
                    blocker_name = names[blocker]
            else:
                crossing = reach & (up_sights | down_sights)
            lands_of[node] = lands
            if not crossing and slot < 0:
                continue
            out: list[int] = [x] if slot >= 0 else []
            steps: list[_Step] = []
            for land in lands:  # nearest first
                if slot == 0:
                    steps.append(((names[land], blocker_name), bit, x))
                if crossing >> land & 1:
                    if up_sights >> land & 1:
                        hit = up_mask[land] & occupied
                        piece = (hit & -hit).bit_length() - 1
                        child = piece * 4 + up
                        cbit = bit_of[piece]
                        cx = cbit | (child ^ node)
                        out.append(cx)
                        steps.append(((names[land], names[piece]), cbit, cx))
                        known = parents[child]
                        if known is None:
                            parents[child] = [cx]
                            todo.append(child)
                        else:
                            known.append(cx)
                    if slot == 1:
                        steps.append(((names[land], blocker_name), bit, x))
                    if down_sights >> land & 1:
                        hit = down_mask[land] & occupied
                        piece = hit.bit_length() - 1
                        child = piece * 4 + down
                        cbit = bit_of[piece]
                        cx = cbit | (child ^ node)
                        out.append(cx)
                        steps.append(((names[land], names[piece]), cbit, cx))
                        known = parents[child]
                        if known is None:
                            parents[child] = [cx]
                            todo.append(child)
                        else:
                            known.append(cx)
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

        # each layer's states in the order of their first paths (see `_endings`)
        layer = dict.fromkeys([state for _, state in firsts])
        layers: list[Layer] = []
        while layer:
            layers.append(layer)
            layer = dict.fromkeys([state ^ x for state in layer for x in edges[state & _NODE]
                                   if state & x < 256])

        self.longest = len(layers)
        self._lands = lands_of
        self._steps = steps_of
        self._layers = layers
        self._edges = edges

    def paths(self, out: list[_RawMove]) -> None:
        """Append every longest capture, one raw move per landing path, its landings and
        the pieces it jumps in the names given (origin, destination and captured mask
        stay bits)."""
        origin, mask_of = self.origin, self._masks()
        for spelt, (destination, taken) in self._spelt():
            out.append((origin, destination, mask_of(taken), True, spelt[1::2], spelt[0::2]))

    def firsts(self, out: list[_RawMove]) -> None:
        """Append every longest capture once per (destination, pieces taken), with its
        first path, in the order of first paths (what `paths` then keeping each move's
        first path gives), without spelling the other paths (`_endings`)."""
        origin, mask_of = self.origin, self._masks()
        if sum(map(len, self._layers)) <= SPELT_AT_ONCE:  # cheaper spelt (see `moves`)
            listed: set[_Ending] = set()
            for spelt, ending in self._spelt():
                if ending not in listed:
                    listed.add(ending)
                    out.append((origin, ending[0], mask_of(ending[1]), True, spelt[1::2],
                                spelt[0::2]))
            return
        for (destination, taken), state, land in self._endings():
            spelt = self._first_path(state, land)
            out.append((origin, destination, mask_of(taken), True, spelt[1::2], spelt[0::2]))

    def unspelt(self, out: list[_RawMove]) -> None:
        """Append every longest capture once per (destination, pieces taken), in the order
        of first paths, as raw moves without a path or capture order (empty tuples)."""
        origin, mask_of = self.origin, self._masks()
        for destination, taken in self._last_endings():
            out.append((origin, destination, mask_of(taken), True, (), ()))

    def _last_endings(self) -> dict[_Ending, None]:
        """Every ending (destination bit, pieces taken) of a longest capture, in the order
        of first paths: the last layer's states come in the order of their first paths
        (`_endings` says why; every one of them is on a longest capture), and so do their
        endings, each listed where it first comes."""
        lands_of = self._lands
        return dict.fromkeys([(land, state >> NODE_BITS) for state in self._layers[-1]
                              for land in lands_of[state & _NODE]])

    def moves(self, out: list) -> None:
        """Append every longest capture once per (destination, pieces taken), in the
        order of first paths, as `MoveGenerator.grouped` lists moves: (origin,
        destination, True, pieces taken named, (first path, its capture order, every
        path)), the last a `PathsLater` to be spelt when asked unless the search has
        so few states (`SPELT_AT_ONCE`) that deferring would cost more."""
        origin = self.origin
        if sum(map(len, self._layers)) <= SPELT_AT_ONCE:
            for (destination, _), spelt in self._every_path():
                out.append((origin, destination, True, frozenset(spelt[1]), spelt))
            return
        every, names, square_of = EveryPath(self), self._names, self._square_of
        taken_names: dict[int, frozenset[int]] = {}
        for index, (destination, taken) in enumerate(self._last_endings()):
            captures = taken_names.get(taken)
            if captures is None:
                pieces = []
                rest = taken
                while rest:
                    low = rest & -rest
                    pieces.append(names[square_of[low.bit_length() - 1]])
                    rest ^= low
                captures = taken_names[taken] = frozenset(pieces)
            out.append((origin, destination, True, captures, PathsLater(every, index)))

    def _endings(self) -> list[tuple[_Ending, int, int]]:
        """Every ending (destination bit, pieces taken) of a longest capture, in the order
        of first paths, with the last state and landing of its first path.

        Why the order holds: paths into one layer all have the same length, so the
        first path into a state is the first path of its earliest parent (in the order
        of their first paths) with that parent's earliest step into it (`_edges` lists a
        jump's next jumps in the order they first come); listing each layer's states in
        the order their first paths come keeps that true for the next, and for the
        endings. The search's layers are listed so (`__init__`); so are the marked
        states walked here, each once, to keep each state's earliest parent
        (`_first_path`): every path into a marked state passes marked states only. The
        cost is the marked states and their edges, not every path times its length."""
        layers = self._layers
        if not layers:
            return []
        marked = self._marked()
        edges_of, lands_of = self._edges, self._lands
        earliest = self._earliest  # state -> the parent its first path comes through
        order = [state for _, state in self._firsts if state in marked[0]]
        for after in marked[1:]:
            reached = [(state ^ x, state) for state in order for x in edges_of[state & _NODE]
                       if state & x < 256 and state ^ x in after]
            earliest.update(reversed(reached))  # each state's earliest parent written last
            order = list(dict.fromkeys([state for state, _ in reached]))
        ends = [((land, state >> NODE_BITS), state, land) for state in order
                for land in lands_of[state & _NODE]]
        first = {ending: (ending, state, land) for ending, state, land in reversed(ends)}
        return [first[ending] for ending in dict.fromkeys([ending for ending, _, _ in ends])]

    def _first_path(self, state: int, land: int) -> tuple[int, ...]:
        """The first path (pieces and landings alternating, named) to `state`, ending on
        `land`, back through each state's earliest parent (after `_endings`)."""
        steps_of, earliest, names = self._steps, self._earliest, self._names
        spelt = [names[land]]
        parent = earliest.get(state)
        while parent is not None:
            x = state ^ parent
            for pair, _, step_x in steps_of[parent & _NODE]:
                if step_x == x:  # the nearest landing the step is made from
                    spelt.append(pair[1])
                    spelt.append(pair[0])
                    break
            state, parent = parent, earliest.get(parent)
        spelt.append(names[(state & _NODE) >> 2])  # the first piece (a jump is square * 4 + d)
        spelt.reverse()
        return tuple(spelt)

    def every_path(self) -> list[Spelt]:
        """Per (destination, pieces taken), in the order of first paths (that of
        `_endings`): (first path, its capture order, every landing path)."""
        return [spelt for _, spelt in self._every_path()]

    def _every_path(self) -> list[tuple[_Ending, Spelt]]:
        grouped: dict[_Ending, list[tuple[int, ...]]] = {}
        for spelt, ending in self._spelt():
            group = grouped.get(ending)
            if group is None:
                grouped[ending] = [spelt]
            else:
                group.append(spelt)
        return [(ending, (group[0][1::2], group[0][0::2], tuple([spelt[1::2] for spelt in group])))
                for ending, group in grouped.items()]

    def move_count(self) -> int:
        """How many (destination, pieces taken) the longest captures end with: every
        state of the last layer is on a longest capture, so no path is walked."""
        lands_of = self._lands
        return len({(land, state >> NODE_BITS) for state in self._layers[-1]
                    for land in lands_of[state & _NODE]}) if self._layers else 0

    def path_count(self) -> int:
        """How many landing paths the longest captures have, counted layer by layer
        (paths into each state), none spelt."""
        layers = self._layers
        if not layers:
            return 0
        steps_of, lands_of = self._steps, self._lands
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

    def _masks(self) -> Callable[[int], int]:
        """pieces taken (compact bits) -> the mask of their squares, remembered per set."""
        square_of = self._square_of
        captured: dict[int, int] = {}

        def mask_of(taken: int) -> int:
            mask = captured.get(taken)
            if mask is None:
                mask = captured[taken] = sum(1 << square_of[i] for i in range(taken.bit_length())
                                             if taken >> i & 1)
            return mask

        return mask_of

    def _marked(self) -> list[Layer]:
        """Per layer, its states that lie on a longest capture, marked backwards from
        the last layer (every state of which does) through each jump's incoming edges;
        remembered (spelling every path after `first_paths` marks nothing again)."""
        if self._marks is not None:
            return self._marks
        layers, parents = self._layers, self._parents
        last = len(layers) - 1
        marked = [layers[last]] * len(layers)  # marked[k]: states of layer k on a longest
        for k in range(last - 1, -1, -1):
            after, layer = marked[k + 1], layers[k]
            marked[k] = {state for later in after
                         for x in parents[later & _NODE]  # type: ignore[union-attr]
                         if (state := later ^ x) in layer}
        self._marks = marked
        return marked

    def _spelt(self) -> list[tuple[tuple[int, ...], _Ending]]:
        """Every longest capture in listing order: (pieces and landings alternating,
        named; (destination bit, pieces taken))."""
        layers = self._layers
        if not layers:
            return []
        steps_of, names = self._steps, self._names
        last = len(layers) - 1
        marked = self._marked()
        # prefixes: (state, pieces and landings up to the state's piece), listing order
        prefixes: list[tuple[int, tuple[int, ...]]] = [
            (state, (names[piece],)) for piece, state in self._firsts if state in marked[0]]
        # suffixes: state -> [(landings and pieces from the state's landing on, ending)]
        suffixes = self._last_steps(marked[last])
        ahead, behind = 0, last  # the layers prefixes and suffixes have reached
        suffix_count = sum(map(len, suffixes.values()))
        while ahead < behind:
            if len(prefixes) <= suffix_count:
                after = marked[ahead + 1]
                prefixes = [(state ^ x, spelt + pair) for state, spelt in prefixes
                            for pair, bit, x in steps_of[state & _NODE]
                            if not state & bit and state ^ x in after]
                ahead += 1
            else:
                after_suffixes = suffixes
                behind -= 1
                suffixes = {state: [(pair + tail, ending)
                                    for pair, bit, x in steps_of[state & _NODE]
                                    if not state & bit
                                    for tail, ending in after_suffixes.get(state ^ x, ())]
                            for state in marked[behind]}
                suffix_count = sum(map(len, suffixes.values()))
        return [(spelt + tail, ending) for state, spelt in prefixes
                for tail, ending in suffixes[state]]

    def _last_steps(self, final: Layer) -> dict[int, list[tuple[tuple[int, ...], _Ending]]]:
        """Per final state, its last landings: ((landing named,), (landing, pieces taken))."""
        names, lands_of = self._names, self._lands
        return {state: [((names[land],), (land, state >> NODE_BITS))
                        for land in lands_of[state & _NODE]]
                for state in final}
