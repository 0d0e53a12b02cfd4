"""A flying king's longest captures, for the majority rule (International, Brazilian).

The model. While one piece captures, the board does not change: the pieces it
jumps stay on their squares until the move ends (they block, and cannot be
jumped twice), and only its own origin square is empty. So every capture a
flying king can make is a walk in one fixed graph whose nodes are *jumps*:
"piece p jumped along direction d". A jump's landings are the empty squares
beyond p along d, up to the next piece or the edge. From a landing the king
jumps the first piece it meets along a crossing diagonal, or, from every
landing alike, the piece that ends the run, straight on (backwards it would
meet p again). A capture sequence is a walk that never jumps one piece twice;
it takes as many pieces as it has jumps.

The search. A *state* is (jump, pieces taken so far), packed into one small
int: the taken set in compact bits (one per enemy piece the graph uses, in the
order they are found) shifted left by `NODE_BITS`, plus the jump's index, so
that a transition is one addition. The search is breadth first: layer k holds
the states after k + 1 captures, so the longest capture takes as many pieces
as there are layers, and a state reached in several orders is expanded once.
Nothing bounds it: the worst positions (several kings, a dozen pieces each
able to be taken in many orders) have a few hundred states per king, and the
bounds tried (pieces left, pieces still reachable) ruled out too few of them
to pay for their own cost, so each state costs one step of a set
comprehension instead.

Spelling. The states on a longest capture are marked backwards from the last
layer (a state is marked when a marked state of the next layer follows it);
the paths are spelt forwards over marked states only, in the order the engine
has always listed them: first jumps in direction order, landings nearest
first, and from each landing the next jumps in direction order.
"""

from __future__ import annotations

from engine.rays import Rays

NODE_BITS = 8  # a state's low bits: the jump's index (at most 4 per enemy piece)
_NODE = (1 << NODE_BITS) - 1

# RawMove, as engine.movegen defines it (not imported: movegen imports this module)
_RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]


class KingCaptures:
    """One flying king's capture graph and search layers, on one board.

    Invariants: jump n is ``_jumps[n] = piece << 2 | direction`` (which is also
    its index into the ray tables) and lands on ``_lands[n]``, nearest first;
    ``_targets[n]`` lists the jumps that may follow it, each as ``landing
    index << 8 | piece << 2 | direction`` (the jump straight on, in n's own
    direction, once with index 0: it is open from every landing);
    ``_edges[n]`` holds the same as (bit, delta): the next piece's compact bit
    and ``next state - state``, valid when ``not state & bit``;
    ``_layers[k]`` is every state reachable with k + 1 pieces taken, so
    `longest` = len(_layers).
    """

    __slots__ = ("origin", "longest", "_firsts", "_jumps", "_lands", "_targets", "_edges",
                 "_node_of", "_bit_of", "_layers")

    def __init__(self, rays: Rays, origin: int, occupied: int, opp: int) -> None:
        """Explore every capture of the king on `origin` (not in `occupied`)."""
        ray, ray_mask, ascending, step, masks = (rays.ray, rays.ray_mask, rays.ascending,
                                                 rays.step, rays.masks)
        empty = rays.valid & ~occupied
        # enemy pieces with an empty square right behind them, seen along each direction
        jumpable = tuple(opp & (empty >> s if s > 0 else empty << -s) for s in step)
        node_of: dict[int, int] = {}  # piece << 2 | direction -> jump index
        jumps: list[int] = []
        bit_of: dict[int, int] = {}  # piece -> its compact bit, shifted by NODE_BITS
        firsts: list[tuple[int, int]] = []  # (piece, jump) from the origin, direction order
        for d in range(4):
            hit = ray_mask[origin * 4 + d] & occupied
            if hit:
                piece = (hit & -hit).bit_length() - 1 if ascending[d] else hit.bit_length() - 1
                if jumpable[d] >> piece & 1:
                    node_of[piece << 2 | d] = len(jumps)
                    firsts.append((piece, len(jumps)))
                    jumps.append(piece << 2 | d)
                    bit_of.setdefault(piece, 1 << (len(bit_of) + NODE_BITS))
        lands_of: list[tuple[int, ...]] = []
        targets_of: list[list[int]] = []
        edges: list[list[tuple[int, int]]] = []
        index = 0
        while index < len(jumps):  # jumps grows while it is walked: every jump is visited
            key = jumps[index]
            over, d = key >> 2, key & 3
            blocked = ray_mask[key] & occupied
            targets = []
            if blocked:
                blocker = ((blocked & -blocked).bit_length() - 1 if ascending[d]
                           else blocked.bit_length() - 1)
                lands = ray[key][:(blocker - over) // step[d] - 1]
                if jumpable[d] >> blocker & 1:
                    targets.append(blocker << 2 | d)
            else:
                lands = ray[key]
            # the crossing diagonal: one direction with growing bits, one with falling
            up, down = _CROSSING[d]
            up_mask, down_mask = masks[up], masks[down]
            up_jumpable, down_jumpable = jumpable[up], jumpable[down]
            for i, land in enumerate(lands):
                hit = up_mask[land] & occupied
                if hit:
                    piece = (hit & -hit).bit_length() - 1
                    if up_jumpable >> piece & 1:
                        targets.append(i << 8 | piece << 2 | up)
                hit = down_mask[land] & occupied
                if hit:
                    piece = hit.bit_length() - 1
                    if down_jumpable >> piece & 1:
                        targets.append(i << 8 | piece << 2 | down)
            out = []
            for target in targets:
                key = target & 255
                child = node_of.get(key)
                if child is None:
                    child = node_of[key] = len(jumps)
                    jumps.append(key)
                    if key >> 2 not in bit_of:
                        bit_of[key >> 2] = 1 << (len(bit_of) + NODE_BITS)
                bit = bit_of[key >> 2]
                out.append((bit, bit + child - index))
            lands_of.append(lands)
            targets_of.append(targets)
            edges.append(out)
            index += 1

        layer = {bit_of[piece] | node for piece, node in firsts}
        layers = []
        while layer:
            layers.append(layer)
            layer = {state + delta for state in layer
                     for bit, delta in edges[state & _NODE] if not state & bit}

        self.origin = origin
        self.longest = len(layers)
        self._firsts = firsts
        self._jumps = jumps
        self._lands = lands_of
        self._targets = targets_of
        self._edges = edges
        self._node_of = node_of
        self._bit_of = bit_of
        self._layers = layers

    def paths(self, out: list[_RawMove]) -> None:
        """Append every longest capture, one raw move per landing path."""
        layers = self._layers
        if not layers:
            return
        on_longest = self._on_longest()
        lands_of = self._lands
        following = {node: self._following(node) for node in {s & _NODE for s in on_longest}}
        origin = self.origin
        path: list[int] = []  # landings so far (append/pop along the walk)
        order: list[int] = []  # pieces jumped so far

        def spell(state: int, captured: int, need: int) -> None:
            """Record every path taking `need` (> 0) more pieces after `state`."""
            for land, piece, bit, delta in following[state & _NODE]:
                if not state & bit and state + delta in on_longest:
                    path.append(land)
                    order.append(piece)
                    if need > 1:
                        spell(state + delta, captured | 1 << piece, need - 1)
                    else:
                        taken = captured | 1 << piece
                        for last in lands_of[(state + delta) & _NODE]:
                            path.append(last)
                            out.append((origin, last, taken, True, tuple(path), tuple(order)))
                            path.pop()
                    order.pop()
                    path.pop()

        bit_of = self._bit_of
        need = len(layers) - 1
        for piece, node in self._firsts:
            state = bit_of[piece] | node
            if state in on_longest:
                order.append(piece)
                if need:
                    spell(state, 1 << piece, need)
                else:
                    for land in lands_of[node]:
                        out.append((origin, land, 1 << piece, True, (land,), (piece,)))
                order.pop()

    def _on_longest(self) -> set[int]:
        """The states some longest capture passes through, marked from the last layer back."""
        edges = self._edges
        parents: list[list[int]] = [[] for _ in edges]  # jump -> deltas of the edges into it
        for node, out in enumerate(edges):
            for bit, delta in out:
                parents[node + delta - bit].append(delta)
        layers = self._layers
        marked = layers[-1]
        on_longest = set(marked)
        for layer in reversed(layers[:-1]):
            marked = {parent for state in marked for delta in parents[state & _NODE]
                      if (parent := state - delta) in layer}
            on_longest |= marked
        return on_longest

    def _following(self, node: int) -> list[tuple[int, int, int, int]]:
        """(landing, piece, bit, delta) of every jump that may follow jump `node`, in the
        order paths are listed: landings nearest first, from each in direction order."""
        direction = self._jumps[node] & 3
        node_of, bit_of = self._node_of, self._bit_of
        straight = -1
        crossing: list[int] = []  # landing index << 8 | key, by landing then direction
        for target in self._targets[node]:
            if target & 3 == direction:
                straight = target & 255
            else:
                crossing.append(target)
        found = []

        def add(land: int, key: int) -> None:
            bit = bit_of[key >> 2]
            found.append((land, key >> 2, bit, bit + node_of[key] - node))

        k = 0
        for i, land in enumerate(self._lands[node]):
            pending = straight >= 0  # straight on slots in among the crossing by direction
            while k < len(crossing) and crossing[k] >> 8 == i:
                key = crossing[k] & 255
                if pending and key & 3 > direction:
                    add(land, straight)
                    pending = False
                add(land, key)
                k += 1
            if pending:
                add(land, straight)
        return found


_CROSSING = ((1, 2), (0, 3), (0, 3), (1, 2))  # per direction: the crossing diagonal's two
