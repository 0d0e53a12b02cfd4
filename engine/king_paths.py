"""Spelling a flying king's capture paths from its finished search (`engine.king_captures`).

`KingPaths` holds the tables a `KingCaptures` search leaves (its layers of states,
in the order of their first paths, and its jumps' steps, incoming edges and
landings; states packed as that module says) and spells from them: every path of
the longest captures (`spelt`, from both ends), each move's first path alone
(`endings`, `first_path`), or every path grouped by move (`every_path`).
`EveryPath` and `PathsLater` defer that last spelling until a move's paths are
first read (`Position.legal_moves()`).
"""

from __future__ import annotations

from collections.abc import Callable

NODE_BITS = 8  # a state's low bits: the jump's index (square * 4 + direction < 256)
NODE = (1 << NODE_BITS) - 1

# A step from a jump to the next, in listing order: ((landing, next piece) named, bit, x)
Step = tuple[tuple[int, int], int, int]
Ending = tuple[int, int]  # (destination bit, pieces taken as compact bits)
# a layer's states (keys) in the order of their first paths
Layer = dict[int, None] | set[int]
# a move's first path, its capture order and every path, named
Spelt = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


class KingPaths:
    """The paths of one king's longest captures, spelt from its search's tables.

    Invariants (those of `KingCaptures`): ``layers[k]`` holds every state reachable
    with k + 1 pieces taken, in the order of first paths, the longest captures ending
    in the last; ``steps[n]`` lists the steps from jump n in listing order,
    ``parents[n]`` the edges into n, ``lands[n]`` its landings nearest first;
    ``firsts`` the first jumps as (piece, state) in direction order; ``names`` bit
    index -> the number written.
    """

    __slots__ = ("_layers", "_parents", "_firsts", "_steps", "_lands", "_names", "_marks",
                 "_earliest")

    def __init__(self, layers: list[Layer], parents: list[list[int] | None],
                 firsts: list[tuple[int, int]], steps: list[list[Step]],
                 lands: list[tuple[int, ...]], names: tuple[int, ...]) -> None:
        self._layers, self._parents, self._firsts = layers, parents, firsts
        self._steps, self._lands, self._names = steps, lands, names
        self._marks: list[Layer] | None = None
        self._earliest: dict[int, int] = {}

    def endings(self) -> list[tuple[Ending, int, int]]:
        """Every ending (destination bit, pieces taken) of a longest capture, in the order
        of first paths, with the last state and landing of its first path.

        Why the order holds: paths into one layer all have the same length, so the
        first path into a state is the first path of its earliest parent (in the order
        of their first paths) with that parent's earliest step into it; listing each
        layer's states in the order their first paths come keeps that true for the
        next, and for the endings. The search's layers are listed so
        (`KingCaptures.__init__`, through each jump's next jumps listed where they first
        come); so are the marked
        states walked here, each once, to keep each state's earliest parent
        (`first_path`): every path into a marked state passes marked states only. The
        cost is the marked states and their edges, not every path times its length."""
        layers = self._layers
        if not layers:
            return []
        marked = self.marked()
        steps_of, lands_of = self._steps, self._lands
        earliest = self._earliest  # state -> the parent its first path comes through
        order = [state for _, state in self._firsts if state in marked[0]]
        for after in marked[1:]:
            # a step repeated from a farther landing comes after its first: it changes
            # nothing below
            reached = [(state ^ x, state) for state in order
                       for _, bit, x in steps_of[state & NODE]
                       if not state & bit and state ^ x in after]
            earliest.update(reversed(reached))  # each state's earliest parent written last
            order = list(dict.fromkeys([state for state, _ in reached]))
        ends = [((land, state >> NODE_BITS), state, land) for state in order
                for land in lands_of[state & NODE]]
        first = {ending: (ending, state, land) for ending, state, land in reversed(ends)}
        return [first[ending] for ending in dict.fromkeys([ending for ending, _, _ in ends])]

    def first_path(self, state: int, land: int) -> tuple[int, ...]:
        """The first path (pieces and landings alternating, named) to `state`, ending on
        `land`, back through each state's earliest parent (after `endings`)."""
        steps_of, earliest, names = self._steps, self._earliest, self._names
        spelt = [names[land]]
        parent = earliest.get(state)
        while parent is not None:
            x = state ^ parent
            for pair, _, step_x in steps_of[parent & NODE]:
                if step_x == x:  # the nearest landing the step is made from
                    spelt.append(pair[1])
                    spelt.append(pair[0])
                    break
            state, parent = parent, earliest.get(parent)
        spelt.append(names[(state & NODE) >> 2])  # the first piece (a jump is square * 4 + d)
        spelt.reverse()
        return tuple(spelt)

    def every_path(self) -> list[Spelt]:
        """Per (destination, pieces taken), in the order of first paths (that of
        `endings`): (first path, its capture order, every landing path)."""
        return [spelt for _, spelt in self.every_path_by_ending()]

    def every_path_by_ending(self) -> list[tuple[Ending, Spelt]]:
        grouped: dict[Ending, list[tuple[int, ...]]] = {}
        for spelt, ending in self.spelt():
            group = grouped.get(ending)
            if group is None:
                grouped[ending] = [spelt]
            else:
                group.append(spelt)
        return [(ending, (group[0][1::2], group[0][0::2], tuple([spelt[1::2] for spelt in group])))
                for ending, group in grouped.items()]

    def marked(self) -> list[Layer]:
        """Per layer, its states that lie on a longest capture, marked backwards from
        the last layer (every state of which does) through each jump's incoming edges;
        remembered (spelling every path after `endings` marks nothing again)."""
        if self._marks is not None:
            return self._marks
        layers, parents = self._layers, self._parents
        last = len(layers) - 1
        marked = [layers[last]] * len(layers)  # marked[k]: states of layer k on a longest
        for k in range(last - 1, -1, -1):
            after, layer = marked[k + 1], layers[k]
            marked[k] = {state for later in after
                         for x in parents[later & NODE]  # type: ignore[union-attr]
                         if (state := later ^ x) in layer}
        self._marks = marked
        return marked

    def spelt(self) -> list[tuple[tuple[int, ...], Ending]]:
        """Every longest capture in listing order: (pieces and landings alternating,
        named; (destination bit, pieces taken))."""
        layers = self._layers
        if not layers:
            return []
        steps_of, names = self._steps, self._names
        last = len(layers) - 1
        marked = self.marked()
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
                            for pair, bit, x in steps_of[state & NODE]
                            if not state & bit and state ^ x in after]
                ahead += 1
            else:
                after_suffixes = suffixes
                behind -= 1
                suffixes = {state: [(pair + tail, ending)
                                    for pair, bit, x in steps_of[state & NODE]
                                    if not state & bit
                                    for tail, ending in after_suffixes.get(state ^ x, ())]
                            for state in marked[behind]}
                suffix_count = sum(map(len, suffixes.values()))
        return [(spelt + tail, ending) for state, spelt in prefixes
                for tail, ending in suffixes[state]]

    def _last_steps(self, final: Layer) -> dict[int, list[tuple[tuple[int, ...], Ending]]]:
        """Per final state, its last landings: ((landing named,), (landing, pieces taken))."""
        names, lands_of = self._names, self._lands
        return {state: [((names[land],), (land, state >> NODE_BITS))
                        for land in lands_of[state & NODE]]
                for state in final}


class EveryPath:
    """Every path of one piece's longest captures, grouped as its moves are: spelt on
    the first `of` call, for all the piece's moves at once (by `spell`: a king's by
    `KingPaths.every_path`, a man's by its walk), and `spell` let go then (it keeps
    the search alive only for this)."""

    __slots__ = ("_spell", "_spelt")

    def __init__(self, spell: Callable[[], list[Spelt]]) -> None:
        self._spell: Callable[[], list[Spelt]] | None = spell
        self._spelt: list[Spelt] | None = None

    def of(self, index: int) -> Spelt:
        """(first path, its capture order, every path) of the piece's `index`-th move (in
        the order of first paths, as `KingCaptures.moves` lists them)."""
        spelt = self._spelt
        if spelt is None:
            assert self._spell is not None
            spelt = self._spelt = self._spell()
            self._spell = None
        return spelt[index]


class PathsLater:
    """One move's every path, not spelt yet: the `index`-th group of `every`."""

    __slots__ = ("every", "index")

    def __init__(self, every: EveryPath, index: int) -> None:
        self.every, self.index = every, index

    def spell(self) -> Spelt:
        return self.every.of(self.index)
