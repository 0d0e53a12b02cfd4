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

The graph is built as it is explored, from the king's first jumps; each jump
keeps its landings and the ordered list of the jumps that may follow it.

The search. A *state* is (jump, pieces taken so far), packed into one small
int: the taken set in compact bits (one per enemy piece, see `EnemyPieces`)
shifted left by `NODE_BITS`, plus the jump's index, so that a transition is
one addition. The search is breadth first: layer k holds
the states after k + 1 captures, so the longest capture takes as many pieces
as there are layers, and a state reached in several orders is expanded once.
Nothing bounds it: the worst positions (several kings, a dozen pieces each
able to be taken in many orders) have a few hundred states per king, and even
exact reachability of the pieces left would rule out only half of them, at a
cost far above the one step of a set comprehension each state costs.

Spelling. The states on a longest capture are marked backwards from the last
layer (a state is marked when a marked state of the next layer follows it);
the paths are then spelt forwards through marked states only, a layer at a
time, in the order the engine has always listed them: first jumps in
direction order, landings nearest first, and from each landing the next
jumps in direction order. They are spelt directly in the caller's square
numbers, so nobody converts them afterwards.
"""

from __future__ import annotations

from engine.rays import Rays

NODE_BITS = 8  # a state's low bits: the jump's index (at most 4 per enemy piece, 50 pieces)
_NODE = (1 << NODE_BITS) - 1

# RawMove, as engine.movegen defines it (not imported: movegen imports this module)
_RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]
# A step from a jump to the next: (landing, next piece, its compact bit, state delta)
_Step = tuple[int, int, int, int]

# per direction: the crossing diagonal's two directions (bits growing, then falling)
_CROSSING = ((1, 2), (0, 3), (0, 3), (1, 2))
# per direction: where straight on comes among a landing's jumps, in direction order
# (before both crossing ones, between them, between them, after both)
_STRAIGHT_SLOT = (0, 1, 1, 2)


class EnemyPieces:
    """The numbering of the enemy pieces shared by every king's search on one board:
    the i-th enemy piece (by bit) has the compact bit ``bit[square] = 1 <<
    (NODE_BITS + i)`` and its jump along direction d has index ``base[square] + d``
    (= 4 * i + d); `jumps` is the number of such indices."""

    __slots__ = ("base", "bit", "jumps")

    def __init__(self, opp: int, squares: int) -> None:
        base = [0] * squares
        bit = [0] * squares
        i = 0
        while opp:
            low = opp & -opp
            square = low.bit_length() - 1
            base[square], bit[square] = 4 * i, 1 << (NODE_BITS + i)
            opp ^= low
            i += 1
        self.base, self.bit, self.jumps = base, bit, 4 * i


class KingCaptures:
    """One flying king's capture graph and search layers, on one board.

    Invariants: jump n jumps one enemy piece along one direction and lands on
    ``_lands[n]``, nearest first; ``_steps[n]`` lists every jump that may
    follow it as (landing, piece, bit, delta), landings nearest first and from
    each landing in direction order (the jump straight on is listed at every
    landing), where bit is the piece's compact bit and delta is ``next state -
    state``, valid when ``not state & bit``; ``_parents[n]`` holds the delta
    of every edge into jump n, once per edge; ``_layers[k]`` is every state
    reachable with k + 1 pieces taken, so `longest` = len(_layers).
    """

    __slots__ = ("origin", "longest", "_firsts", "_lands", "_steps", "_parents", "_layers")

    def __init__(self, rays: Rays, origin: int, occupied: int, opp: int,
                 pieces: EnemyPieces) -> None:
        """Explore every capture of the king on `origin` (not in `occupied`)."""
        ray, ray_mask, ascending, step, masks = (rays.ray, rays.ray_mask, rays.ascending,
                                                 rays.step, rays.masks)
        empty = rays.valid & ~occupied
        # enemy pieces with an empty square right behind them, seen along each direction
        jumpable = tuple(opp & (empty >> s if s > 0 else empty << -s) for s in step)
        base, bit_of = pieces.base, pieces.bit
        size = pieces.jumps
        lands_of: list[tuple[int, ...]] = [()] * size
        steps_of: list[list[_Step]] = [[]] * size
        edges: list[list[tuple[int, int]]] = [[]] * size
        parents: list[list[int]] = [[] for _ in range(size)]  # jump -> deltas of edges into it
        firsts: list[tuple[int, int]] = []  # (piece, state) from the origin, direction order
        todo: list[int] = []  # jumps to explore (piece << 2 | direction)
        queued = 0  # the jump indices in `todo` or explored, as bits
        for d in range(4):
            hit = ray_mask[origin * 4 + d] & occupied
            if hit:
                piece = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                if jumpable[d] >> piece & 1:
                    node = base[piece] + d
                    firsts.append((piece, bit_of[piece] | node))
                    if not queued >> node & 1:
                        queued |= 1 << node
                        todo.append(piece << 2 | d)
        for key in todo:  # todo grows while it is walked: every jump is explored once
            over, d = key >> 2, key & 3
            index = base[over] + d
            blocked = ray_mask[key] & occupied
            out = []
            straight = (0, 0, 0)  # (piece, bit, delta) of the jump straight on, if slot >= 0
            slot = -1
            if blocked:
                blocker = ((blocked & -blocked).bit_length() - 1 if ascending[d]
                           else blocked.bit_length() - 1)
                lands = ray[key][:(blocker - over) // step[d] - 1]
                if jumpable[d] >> blocker & 1:
                    child = base[blocker] + d
                    if not queued >> child & 1:
                        queued |= 1 << child
                        todo.append(blocker << 2 | d)
                    bit = bit_of[blocker]
                    delta = bit + child - index
                    straight = (blocker, bit, delta)
                    slot = _STRAIGHT_SLOT[d]
                    out.append((bit, delta))
                    parents[child].append(delta)
            else:
                lands = ray[key]
            up, down = _CROSSING[d]
            up_mask, down_mask = masks[up], masks[down]
            up_jumpable, down_jumpable = jumpable[up], jumpable[down]
            steps: list[_Step] = []
            for land in lands:
                if slot == 0:
                    steps.append((land,) + straight)
                hit = up_mask[land] & occupied
                if hit:
                    piece = (hit & -hit).bit_length() - 1
                    if up_jumpable >> piece & 1:
                        child = base[piece] + up
                        if not queued >> child & 1:
                            queued |= 1 << child
                            todo.append(piece << 2 | up)
                        bit = bit_of[piece]
                        delta = bit + child - index
                        out.append((bit, delta))
                        parents[child].append(delta)
                        steps.append((land, piece, bit, delta))
                if slot == 1:
                    steps.append((land,) + straight)
                hit = down_mask[land] & occupied
                if hit:
                    piece = hit.bit_length() - 1
                    if down_jumpable >> piece & 1:
                        child = base[piece] + down
                        if not queued >> child & 1:
                            queued |= 1 << child
                            todo.append(piece << 2 | down)
                        bit = bit_of[piece]
                        delta = bit + child - index
                        out.append((bit, delta))
                        parents[child].append(delta)
                        steps.append((land, piece, bit, delta))
                if slot == 2:
                    steps.append((land,) + straight)
            lands_of[index] = lands
            steps_of[index] = steps
            edges[index] = out

        layer = {state for _, state in firsts}
        layers = []
        while layer:
            layers.append(layer)
            layer = {state + delta for state in layer
                     for bit, delta in edges[state & _NODE] if not state & bit}

        self.origin = origin
        self.longest = len(layers)
        self._firsts = firsts
        self._lands = lands_of
        self._steps = steps_of
        self._parents = parents
        self._layers = layers

    def paths(self, out: list[_RawMove], names: tuple[int, ...]) -> None:
        """Append every longest capture, one raw move per landing path, its landings and
        the pieces it jumps written as ``names[bit]`` (origin, destination and captured
        mask stay bits).

        Spelt a layer at a time: each capture so far is (state, landings before
        the state's own, pieces jumped, their mask); each is followed by every
        step that stays on a longest capture, in the order paths are listed, so
        every layer is in that order too.
        """
        layers = self._layers
        if not layers:
            return
        on_longest = self._on_longest()
        last_layer = layers[-1]
        steps_of = self._steps
        captures: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = [
            (state, (), (names[piece],), 1 << piece) for piece, state in self._firsts
            if state in on_longest]
        for _ in range(len(layers) - 1):
            captures = [(state + delta, landings + (names[land],), order + (names[piece],),
                         taken | 1 << piece)
                        for state, landings, order, taken in captures
                        for land, piece, bit, delta in steps_of[state & _NODE]
                        if not state & bit and state + delta in on_longest]
        origin, lands_of = self.origin, self._lands
        finals = {node: [(last, (names[last],)) for last in lands_of[node]]
                  for node in {state & _NODE for state in last_layer}}
        out.extend([(origin, last, taken, True, landings + named, order)
                    for state, landings, order, taken in captures
                    for last, named in finals[state & _NODE]])

    def _on_longest(self) -> set[int]:
        """The states some longest capture passes through, marked from the last layer back."""
        parents = self._parents
        layers = self._layers
        marked = layers[-1]
        on_longest = set(marked)
        for layer in reversed(layers[:-1]):
            marked = {parent for state in marked for delta in parents[state & _NODE]
                      if (parent := state - delta) in layer}
            on_longest |= marked
        return on_longest
