/* One piece's longest captures under the majority rule with flying kings
 * (International, Brazilian), compiled: a flying king's as engine/king_captures.py
 * searches them, and a man's by the same search with a man's reach.
 *
 * Loaded with ctypes by engine/native_captures.py; it includes no Python header, so
 * it builds wherever a C compiler does (setup.py, an optional extension: without a
 * compiler the engine searches in Python, with the same results).
 *
 * The model is engine/king_captures.py's, step for step, so that the two agree on
 * every board, order included (tests/engine/test_native_captures.py):
 *
 * - A jump is "the enemy piece on p jumped along d", node p * 4 + d. Its landings
 *   are the empty squares beyond p along d, nearest first, up to the next piece or
 *   the edge; a man's, the first of them only. The board does not change during a
 *   capture (the pieces jumped stay until the move ends), and the piece's own
 *   square is empty (`occupied` is the board without it).
 * - From each landing, in direction order, the jumps that may follow: straight on
 *   (the piece ending the run, when it is an enemy with an empty square behind it),
 *   placed among the two crossing directions by STRAIGHT_SLOT as the engine lists
 *   them; along each crossing direction, the first piece, when it is an enemy with
 *   an empty square behind it. A jump's edges are those next jumps once each, where
 *   each first comes (only straight on can come twice: from every landing). A man
 *   sees only the squares next to its landing: its next jumps are those of the
 *   engine's square-by-square walk (engine/capture_walk.py), in the same order.
 * - A state is (jump, pieces taken). Layer 0 holds the first jumps from the piece's
 *   square in direction order; layer k + 1 the states reached from layer k's, in the
 *   order of layer k and then of the edges, each where it first comes, along edges
 *   whose piece is not taken yet. The longest capture takes as many pieces as there
 *   are layers.
 * - The endings are (landing, pieces taken) of the last layer's states, in that
 *   order, each where it first comes: the moves, in the order of their first paths.
 *
 * Pieces taken are returned as compact bits: the i-th enemy piece by square has bit
 * 1 << i, as engine.king_captures.EnemyPieces numbers them (below a state's node).
 *
 * Not reentrant: the tables below are static. engine/native_captures.py calls it
 * through ctypes.PyDLL, which holds the GIL for the whole call.
 */

#include <stdint.h>
#include <string.h>

#define MAX_SQUARES 64
#define MAX_NODES (MAX_SQUARES * 4)
#define MAX_RUN 16                    /* landings of one jump: less than a diagonal */
#define MAX_EDGES (2 * MAX_RUN + 1)   /* two crossing jumps per landing, straight on */
#define MAX_STATES (1 << 14)          /* more, and the caller searches in Python */
#define TABLE_BITS 15                 /* the set of states and endings: twice as large */
#define TABLE_SIZE (1 << TABLE_BITS)
#define ENDING_TAG 0x8000             /* an ending's key: (taken, ENDING_TAG | landing) */

/* per jump direction: where straight on comes among a landing's next jumps (0 before
 * both crossing ones, 1 between them, 2 after both), and the crossing directions */
static const int STRAIGHT_SLOT[4] = {0, 1, 1, 2};
static const int CROSSING[4][2] = {{1, 2}, {0, 3}, {0, 3}, {1, 2}};

/* one search's board, and how far the piece sees */
static const int8_t *next_square;     /* next_square[s * 4 + d]: the neighbour, or -1 */
static uint64_t occupied_squares, enemy_squares;
static int flying;                    /* a king (it sees along whole diagonals) or a man */

/* what exploring found, per node (valid while explored[node]) */
static uint8_t explored[MAX_NODES];
static uint8_t edge_count[MAX_NODES], land_count[MAX_NODES];
static uint16_t edge_node[MAX_NODES][MAX_EDGES];
static uint8_t edge_piece[MAX_NODES][MAX_EDGES];
static uint8_t land_square[MAX_NODES][MAX_RUN];

/* every state of the search, layer after layer */
static uint16_t state_node[MAX_STATES];
static uint64_t state_taken[MAX_STATES];

/* one set of keys (taken, tag) for a whole search: an entry is in the set while its
 * generation is the search's */
struct key {
    uint64_t taken;
    uint32_t generation;
    uint16_t tag;
};
static struct key keys[TABLE_SIZE];
static uint32_t generation;

static int is_empty(int square)
{
    return square >= 0 && !(occupied_squares >> square & 1);
}

/* The piece that may be jumped first looking along d from `from` (an enemy piece with
 * an empty square right behind it; for a man, right next to `from`), or -1. */
static int jumpable_along(int from, int d)
{
    int square = next_square[from * 4 + d];
    while (flying && square >= 0 && !(occupied_squares >> square & 1))
        square = next_square[square * 4 + d];
    if (square < 0 || !(enemy_squares >> square & 1))
        return -1;
    return is_empty(next_square[square * 4 + d]) ? square : -1;
}

static void add_edge(int node, int child, int piece)
{
    int k = edge_count[node]++;
    edge_node[node][k] = (uint16_t)child;
    edge_piece[node][k] = (uint8_t)piece;
}

static void explore(int node)
{
    int piece = node >> 2, d = node & 3;
    int up = CROSSING[d][0], down = CROSSING[d][1];
    int square = next_square[piece * 4 + d];
    int lands = 0;
    while (square >= 0 && !(occupied_squares >> square & 1)) {
        land_square[node][lands++] = (uint8_t)square;
        square = next_square[square * 4 + d];
        if (!flying)
            break;  /* a man lands right behind; straight on, it jumps what is next */
    }
    land_count[node] = (uint8_t)lands;
    edge_count[node] = 0;
    int slot = -1;  /* straight on, if it may be jumped */
    if (square >= 0 && enemy_squares >> square & 1 && is_empty(next_square[square * 4 + d]))
        slot = STRAIGHT_SLOT[d];
    int straight = square, straight_listed = 0;
    for (int k = 0; k < lands; k++) {
        int land = land_square[node][k];
        for (int place = 0; place < 3; place++) {
            if (place == slot && !straight_listed) {
                add_edge(node, straight * 4 + d, straight);
                straight_listed = 1;
            }
            if (place < 2) {
                int e = place == 0 ? up : down;
                int hit = jumpable_along(land, e);
                if (hit >= 0)
                    add_edge(node, hit * 4 + e, hit);
            }
        }
    }
    explored[node] = 1;
}

/* Adds (taken, tag) to the set; 1 when it was not there. */
static int add_key(uint64_t taken, uint16_t tag)
{
    uint64_t hash = (taken ^ (uint64_t)tag * 0x9E3779B97F4A7C15ull) * 0xFF51AFD7ED558CCDull;
    uint32_t index = (uint32_t)(hash >> (64 - TABLE_BITS));
    while (keys[index].generation == generation) {
        if (keys[index].taken == taken && keys[index].tag == tag)
            return 0;
        index = (index + 1) & (TABLE_SIZE - 1);
    }
    keys[index].generation = generation;
    keys[index].taken = taken;
    keys[index].tag = tag;
    return 1;
}

static uint64_t compact(uint64_t taken)
{
    uint64_t bits = 0;
    while (taken) {
        int square = __builtin_ctzll(taken);
        taken &= taken - 1;
        bits |= 1ull << (__builtin_popcountll(enemy_squares & ((1ull << square) - 1)));
    }
    return bits;
}

/* The piece on `origin` (not in `occupied`; a flying king if `king`, else a man that
 * captures in all four directions) capturing the pieces `enemy`, on the board whose
 * neighbours are `next` (n squares * 4 directions, -1 off the board): writes its
 * endings (landing, pieces taken as compact bits) to `out_land` and
 * `out_taken`, at most `capacity`, and counts[0] = pieces the longest capture takes,
 * counts[1] = states searched. Returns how many endings, or -1 when the search
 * outgrows the tables or `capacity` (then nothing is written that counts). */
int longest_captures(const int8_t *next, int origin, uint64_t occupied, uint64_t enemy,
                     int king, int32_t *out_land, uint64_t *out_taken, int capacity,
                     int32_t *counts)
{
    next_square = next;
    occupied_squares = occupied;
    enemy_squares = enemy;
    flying = king;
    memset(explored, 0, sizeof explored);
    if (++generation == 0) {  /* wrapped: every entry would look current */
        memset(keys, 0, sizeof keys);
        generation = 1;
    }
    int states = 0;
    for (int d = 0; d < 4; d++) {
        int hit = jumpable_along(origin, d);
        if (hit >= 0) {
            state_node[states] = (uint16_t)(hit * 4 + d);
            state_taken[states++] = 1ull << hit;
        }
    }
    int layer_start = 0, layer_end = states, layers = 0;
    while (layer_start < layer_end) {
        layers++;
        for (int i = layer_start; i < layer_end; i++) {
            int node = state_node[i];
            uint64_t taken = state_taken[i];
            if (!explored[node])
                explore(node);
            for (int k = 0; k < edge_count[node]; k++) {
                uint64_t piece = 1ull << edge_piece[node][k];
                if (taken & piece)
                    continue;
                int child = edge_node[node][k];
                if (!add_key(taken | piece, (uint16_t)child))
                    continue;
                if (states == MAX_STATES)
                    return -1;
                state_node[states] = (uint16_t)child;
                state_taken[states++] = taken | piece;
            }
        }
        if (states == layer_end)
            break;  /* layer_start..layer_end was the last layer */
        layer_start = layer_end;
        layer_end = states;
    }
    counts[0] = layers;
    counts[1] = states;
    int endings = 0;
    for (int i = layer_start; i < layer_end; i++) {
        int node = state_node[i];
        for (int k = 0; k < land_count[node]; k++) {
            int land = land_square[node][k];
            if (!add_key(state_taken[i], (uint16_t)(ENDING_TAG | land)))
                continue;
            if (endings == capacity)
                return -1;
            out_land[endings] = land;
            out_taken[endings++] = compact(state_taken[i]);
        }
    }
    return endings;
}
