/*
 * una.engine._fastcore: the standard preset's hand, and the random policy, in C.
 *
 * A compiled core behind the pure-Python engine (una/engine/game.py), for speed only:
 * it plays the official 108-card rules with the standard preset's default switches exactly
 * as Game does (Wild Draw Four challenge possible, manual UNO call and catch window,
 * draw one then play or pass, the first-card rules, reshuffles, the blocked-hand rule with
 * idle turns and recycled cards, winner-takes-all scoring), with the engine's own random
 * generator (SplitMix64, una/engine/rng.py) bit for bit, the same deck order, dealing and
 * order of legal actions. The same seeds therefore give the same games; tests/engine/
 * test_fastcore.py proves it against una.engine.fast's pure-Python reference driver.
 *
 * The policy is the random bot's (una/bots/random_bot.py: pick): a uniformly random play
 * among the distinct (card, color) plays, always calling UNO with it; a draw only when
 * there is no play; a playable drawn card is played; a penalty is taken with draw (it
 * never challenges and never catches, except where pick() would: see choose()).
 *
 * Functions (see _fastcore.pyi and una/engine/fast.py, which wraps them):
 *   random_playouts(players, games, seed) -> (games, moves, wins, points)
 *   trace_hand(players, game_seed, policy_seed) -> list of action codes
 *   playout_from(hands, draw_pile, discard, color, direction, to_act, phase, drawn,
 *                pending_draw, owes_uno, idle_turns, recycled, game_rng, policy_seed)
 *       -> (winner, points, moves)
 *   playouts_from(<the same state>, policy_seed, policy, repeats, limit, shuffle_pile)
 *       -> wins per seat
 *       (policy 0: the random policy; 1: the greedy rollout policy, choose_greedy)
 *
 * Cards are small integers: color * 13 + symbol for colored cards (symbols 0-9, then
 * 10 Skip, 11 Reverse, 12 Draw Two; colors R Y G B), 52 Wild, 53 Wild Draw Four.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NKINDS 54
#define DECK 108
/* Room for one card more than the deck: see the first-card loop in start_hand. */
#define CAP (DECK + 4)
#define MAXP 10
#define HAND_SIZE 7
#define WILD 52
#define WILD4 53
#define SYM_SKIP 10
#define SYM_REVERSE 11
#define SYM_DRAW2 12
/* A hand longer than this is a bug, not a game: stop instead of looping for ever. */
#define MOVE_LIMIT 1000000

/* Phases, numbered as una.engine.fast passes them. */
enum { PH_COLOR = 0, PH_PLAY = 1, PH_DRAWN = 2, PH_PENALTY = 3, PH_OVER = 4 };
enum { A_PLAY, A_DRAW, A_PASS, A_COLOR, A_UNO, A_CATCH };

static const char COLOR_LETTERS[4] = {'R', 'Y', 'G', 'B'};
static const char *const SYMBOL_CODES[13] = {
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2"};

/* Per card kind: color (-1: wild), face (what it matches on besides color), points. */
static int8_t CARD_COLOR[NKINDS];
static int8_t CARD_FACE[NKINDS];
static int8_t CARD_POINTS[NKINDS];
/* The whole deck in the canonical order of RuleSet.deck() (presets.classic_deck). */
static uint8_t CANONICAL_DECK[DECK];

static void init_tables(void)
{
    int k = 0;
    for (int c = 0; c < 4; c++) {
        for (int s = 0; s < 13; s++) {
            int id = c * 13 + s;
            CARD_COLOR[id] = (int8_t)c;
            CARD_FACE[id] = (int8_t)s;
            CARD_POINTS[id] = (int8_t)(s < 10 ? s : 20);
            int copies = s == 0 ? 1 : 2;
            for (int i = 0; i < copies; i++)
                CANONICAL_DECK[k++] = (uint8_t)id;
        }
    }
    CARD_COLOR[WILD] = CARD_COLOR[WILD4] = -1;
    CARD_FACE[WILD] = 13;
    CARD_FACE[WILD4] = 14;
    CARD_POINTS[WILD] = CARD_POINTS[WILD4] = 50;
    for (int i = 0; i < 4; i++)
        CANONICAL_DECK[k++] = WILD;
    for (int i = 0; i < 4; i++)
        CANONICAL_DECK[k++] = WILD4;
}

/* ------------------------------------------------------------ SplitMix64 (rng.py) */

static inline uint64_t next64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* (next64() * n) >> 64, as Rng.below. */
static inline uint32_t below(uint64_t *state, uint32_t n)
{
    uint64_t x = next64(state);
#if defined(__SIZEOF_INT128__)
    return (uint32_t)(((unsigned __int128)x * n) >> 64);
#else
    /* n < 2**32: the high word of a 64 x 32 bit product. */
    uint64_t lo = (x & 0xFFFFFFFFULL) * n;
    uint64_t hi = (x >> 32) * n;
    return (uint32_t)((hi + (lo >> 32)) >> 32);
#endif
}

/* Fisher-Yates, as Rng.shuffle. */
static void shuffle(uint64_t *state, uint8_t *items, int len)
{
    for (int i = len - 1; i > 0; i--) {
        int j = (int)below(state, (uint32_t)(i + 1));
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ------------------------------------------------------------------ the game */

typedef struct {
    int n;
    int phase;
    int to_act;
    int direction;
    int color;      /* 0-3, or -1 while a color is to be named */
    int drawn;      /* the card drawn in PH_DRAWN, else -1 */
    int pending;    /* pending draw (a Wild Draw Four waiting on to_act) */
    int idle;       /* Game.idle_turns */
    int winner;
    int points;     /* what the winner scores */
    uint64_t rng;   /* the game's generator: shuffles and reshuffles */
    int plen, dlen;
    int hlen[MAXP];
    int rlen[MAXP];
    uint8_t owes[MAXP];
    uint8_t pile[CAP];      /* the draw pile; its top is the last card */
    uint8_t discard[CAP];   /* the discard pile; its top is the last card */
    uint8_t hand[MAXP][CAP];
    uint8_t recycled[MAXP][CAP]; /* Game.recycled */
} Game;

typedef struct {
    int kind;
    int card;
    int color;   /* the color a wild names, or the color of A_COLOR; -1 */
    int uno;
    int target;  /* A_CATCH */
} Act;

static inline int next_seat(const Game *g, int seat)
{
    int s = seat + g->direction;
    if (s < 0)
        return s + g->n;
    if (s >= g->n)
        return s - g->n;
    return s;
}

static inline void start_turn(Game *g, int seat)
{
    g->to_act = seat;
    g->phase = PH_PLAY;
    g->drawn = -1;
}

static inline int matches(const Game *g, int card)
{
    return card >= WILD || CARD_COLOR[card] == g->color
           || CARD_FACE[card] == CARD_FACE[g->discard[g->dlen - 1]];
}

static void reshuffle(Game *g)
{
    int len = g->dlen - 1;
    memcpy(g->pile, g->discard, (size_t)len);
    g->discard[0] = g->discard[len];
    g->dlen = 1;
    shuffle(&g->rng, g->pile, len);
    g->plen = len;
}

/* Game.draw_cards: up to count cards; returns the last one drawn, or -1. */
static int draw_cards(Game *g, int seat, int count)
{
    int exhausting = g->plen + g->dlen - 1 <= count;
    int last = -1, drawn = 0;
    for (int i = 0; i < count; i++) {
        if (g->plen == 0) {
            if (g->dlen <= 1)
                break;
            reshuffle(g);
        }
        last = g->pile[--g->plen];
        g->hand[seat][g->hlen[seat]++] = (uint8_t)last;
        if (exhausting)
            g->recycled[seat][g->rlen[seat]++] = (uint8_t)last;
        drawn++;
    }
    if (!exhausting && drawn)
        g->idle = 0;
    return last;
}

static int hand_points(const Game *g, int seat)
{
    int total = 0;
    for (int i = 0; i < g->hlen[seat]; i++)
        total += CARD_POINTS[g->hand[seat][i]];
    return total;
}

/* Game._end_hand under winner_takes_all: the winner scores every other hand. */
static void end_hand(Game *g, int winner)
{
    int total = 0;
    for (int s = 0; s < g->n; s++)
        if (s != winner)
            total += hand_points(g, s);
    g->winner = winner;
    g->points = total;
    g->phase = PH_OVER;
    g->to_act = -1;
    g->pending = 0;
    g->drawn = -1;
    memset(g->owes, 0, sizeof g->owes);
}

/* Game._end_blocked: the fewest points in hand (ties to the lowest seat) counts as out. */
static void end_blocked(Game *g)
{
    int best = 0, best_points = hand_points(g, 0);
    for (int s = 1; s < g->n; s++) {
        int p = hand_points(g, s);
        if (p < best_points) {
            best = s;
            best_points = p;
        }
    }
    end_hand(g, best);
}

static void take_penalty(Game *g, int victim, int extra)
{
    int total = g->pending + extra;
    g->pending = 0;
    draw_cards(g, victim, total);
    start_turn(g, next_seat(g, victim));
}

static int remove_card(uint8_t *cards, int *len, int card)
{
    for (int i = 0; i < *len; i++) {
        if (cards[i] == card) {
            memmove(cards + i, cards + i + 1, (size_t)(*len - i - 1));
            (*len)--;
            return 1;
        }
    }
    return 0;
}

/* Game._play with the classic effects. */
static void play_card(Game *g, int seat, int card, int color, int uno)
{
    remove_card(g->hand[seat], &g->hlen[seat], card);
    g->discard[g->dlen++] = (uint8_t)card;
    g->color = card >= WILD ? color : CARD_COLOR[card];
    g->drawn = -1;
    int recycled = g->rlen[seat] && remove_card(g->recycled[seat], &g->rlen[seat], card);
    if (recycled)
        g->idle++;
    else
        g->idle = 0;
    int face = CARD_FACE[card];
    if (g->hlen[seat] == 0) {
        /* The last card: only its draw still applies, then the hand ends. */
        if (card == WILD4)
            take_penalty(g, next_seat(g, seat), 4);
        else if (face == SYM_DRAW2)
            take_penalty(g, next_seat(g, seat), 2);
        end_hand(g, seat);
        return;
    }
    if (card == WILD4) {
        /* Challenges are on: the penalty waits on the victim (draw or challenge). */
        g->pending += 4;
        g->to_act = next_seat(g, seat);
        g->phase = PH_PENALTY;
        g->drawn = -1;
    } else if (face == SYM_DRAW2) {
        g->pending += 2;
        take_penalty(g, next_seat(g, seat), 0);
    } else if (face == SYM_SKIP) {
        start_turn(g, next_seat(g, next_seat(g, seat)));
    } else if (face == SYM_REVERSE) {
        g->direction = -g->direction;
        start_turn(g, g->n == 2 ? seat : next_seat(g, seat));
    } else {
        start_turn(g, next_seat(g, seat));
    }
    if (recycled && g->idle >= g->n) {
        end_blocked(g);
        return;
    }
    if (g->hlen[seat] == 1)
        g->owes[seat] = !uno;
}

static void apply(Game *g, const Act *a)
{
    int seat = g->to_act;
    if (a->kind != A_UNO && a->kind != A_CATCH) {
        /* A turn action closes everybody else's UNO window (uno_window=next_turn). */
        for (int o = 0; o < g->n; o++)
            if (o != seat)
                g->owes[o] = 0;
    }
    switch (a->kind) {
    case A_PLAY:
        play_card(g, seat, a->card, a->color, a->uno);
        break;
    case A_DRAW:
        if (g->phase == PH_PENALTY) {
            take_penalty(g, seat, 0);
        } else {
            int card = draw_cards(g, seat, 1);
            if (card >= 0 && matches(g, card)) {
                g->phase = PH_DRAWN;
                g->drawn = card;
            } else {
                start_turn(g, next_seat(g, seat));
            }
        }
        break;
    case A_PASS:
        if (g->phase == PH_PLAY) {
            /* Nothing could be drawn: an idle turn; a whole round of them blocks. */
            if (++g->idle >= g->n) {
                end_blocked(g);
                break;
            }
        }
        start_turn(g, next_seat(g, seat));
        break;
    case A_COLOR:
        g->color = a->color;
        start_turn(g, seat);
        break;
    case A_UNO:
        if (g->hlen[seat] == 1)
            g->owes[seat] = 0;
        break;
    case A_CATCH:
        if (g->owes[a->target] && g->hlen[a->target] == 1) {
            g->owes[a->target] = 0;
            draw_cards(g, a->target, 2);
        }
        break;
    }
}

/* Clears `a`; true when the seat to act owes its UNO call (then `a` is that call): both
 * policies call it before anything else. */
static int start_choice(const Game *g, Act *a)
{
    int seat = g->to_act;
    a->color = -1;
    a->uno = 0;
    a->card = -1;
    a->target = -1;
    if (g->owes[seat] && g->hlen[seat] == 1) {
        a->kind = A_UNO;
        return 1;
    }
    return 0;
}

/* The random policy (random_bot.pick) on Game.legal_actions(to_act), drawing from the
 * policy generator exactly where pick() draws: one below(k) for k > 1 options. */
static void choose(const Game *g, uint64_t *policy, Act *a)
{
    int seat = g->to_act;
    if (start_choice(g, a))
        return;
    if (g->phase == PH_PLAY || g->phase == PH_DRAWN) {
        uint8_t cards[64];
        int8_t colors[64];
        int k = 0;
        if (g->phase == PH_PLAY) {
            uint64_t seen = 0;
            const uint8_t *hand = g->hand[seat];
            int len = g->hlen[seat];
            int top_face = CARD_FACE[g->discard[g->dlen - 1]];
            for (int i = 0; i < len; i++) {
                int c = hand[i];
                uint64_t bit = 1ULL << c;
                if (seen & bit)
                    continue;
                if (c >= WILD) {
                    seen |= bit;
                    for (int col = 0; col < 4; col++) {
                        cards[k] = (uint8_t)c;
                        colors[k++] = (int8_t)col;
                    }
                } else if (CARD_COLOR[c] == g->color || CARD_FACE[c] == top_face) {
                    seen |= bit;
                    cards[k] = (uint8_t)c;
                    colors[k++] = -1;
                }
            }
        } else if (g->drawn >= WILD) {
            for (int col = 0; col < 4; col++) {
                cards[k] = (uint8_t)g->drawn;
                colors[k++] = (int8_t)col;
            }
        } else {
            cards[k] = (uint8_t)g->drawn;
            colors[k++] = -1;
        }
        if (k) {
            int i = k > 1 ? (int)below(policy, (uint32_t)k) : 0;
            a->kind = A_PLAY;
            a->card = cards[i];
            a->color = colors[i];
            a->uno = g->hlen[seat] == 2;
            return;
        }
        a->kind = g->plen || g->dlen > 1 ? A_DRAW : A_PASS;
        return;
    }
    if (g->phase == PH_COLOR) {
        /* pick() chooses among the whole legal list here: four colors, then catches. */
        int catchable[MAXP], m = 0;
        for (int o = 0; o < g->n; o++)
            if (o != seat && g->owes[o] && g->hlen[o] == 1)
                catchable[m++] = o;
        int i = (int)below(policy, (uint32_t)(4 + m));
        if (i < 4) {
            a->kind = A_COLOR;
            a->color = i;
        } else {
            a->kind = A_CATCH;
            a->target = catchable[i - 4];
        }
        return;
    }
    a->kind = A_DRAW; /* PH_PENALTY: take it, never challenge */
}

/* ------------------------------------------------------------ the greedy policy */

/* A rollout policy for search (una.bots.strong), not a mirror of any bot: the core of the
 * heuristic bot's judgment (una/bots/heuristic.py) at C speed. It plays the card that keeps
 * it in the color it holds most of, keeps wilds for when nothing else fits (unless an
 * opponent is close to going out: then high cards go first), hits a next player who is
 * close to going out with a Draw Two, Skip, Reverse or Wild Draw Four, names its strongest
 * color, keeps a drawn wild in a big hand, takes penalties, always calls UNO. Ties are
 * broken with the policy generator. Scores are the heuristic's, times 100. */
#define DANGER 2

static int danger_for(const Game *g, int seat)
{
    for (int o = 0; o < g->n; o++)
        if (o != seat && g->hlen[o] <= DANGER)
            return 1;
    return 0;
}

/* Non-wild cards of each color in seat's hand and their points. */
static void color_strength(const Game *g, int seat, int count[4], int value[4])
{
    for (int c = 0; c < 4; c++)
        count[c] = value[c] = 0;
    for (int i = 0; i < g->hlen[seat]; i++) {
        int card = g->hand[seat][i];
        if (card < WILD) {
            count[CARD_COLOR[card]]++;
            value[CARD_COLOR[card]] += CARD_POINTS[card];
        }
    }
}

/* The strongest color (most cards, then most points), ties at random. */
static int strongest_color(const int count[4], const int value[4], uint64_t *policy)
{
    int best[4], k = 0, best_key = -1;
    for (int c = 0; c < 4; c++) {
        int key = count[c] * 1000 + value[c];
        if (key > best_key) {
            best_key = key;
            k = 0;
        }
        if (key == best_key)
            best[k++] = c;
    }
    return k > 1 ? best[below(policy, (uint32_t)k)] : best[0];
}

static void choose_greedy(const Game *g, uint64_t *policy, Act *a)
{
    int seat = g->to_act;
    if (start_choice(g, a))
        return;
    int count[4], value[4];
    if (g->phase == PH_COLOR) {
        color_strength(g, seat, count, value);
        a->kind = A_COLOR;
        a->color = strongest_color(count, value, policy);
        return;
    }
    if (g->phase == PH_PENALTY) {
        a->kind = A_DRAW;
        return;
    }
    color_strength(g, seat, count, value);
    int danger = danger_for(g, seat);
    if (g->phase == PH_DRAWN) {
        int card = g->drawn;
        a->uno = g->hlen[seat] == 2;
        if (card >= WILD && g->hlen[seat] > 3 && !danger) {
            a->kind = A_PASS;
            return;
        }
        a->kind = A_PLAY;
        a->card = card;
        a->color = card >= WILD ? strongest_color(count, value, policy) : -1;
        return;
    }
    int nxt = next_seat(g, seat);
    int next_close = nxt != seat && g->hlen[nxt] <= DANGER;
    int top_face = CARD_FACE[g->discard[g->dlen - 1]];
    uint8_t cards[64];
    int8_t colors[64];
    int k = 0;
    long best_score = 0;
    uint64_t seen = 0;
    const uint8_t *hand = g->hand[seat];
    for (int i = 0; i < g->hlen[seat]; i++) {
        int c = hand[i];
        uint64_t bit = 1ULL << c;
        if (seen & bit)
            continue;
        seen |= bit;
        int wild = c >= WILD;
        if (!wild && CARD_COLOR[c] != g->color && CARD_FACE[c] != top_face)
            continue;
        int points = CARD_POINTS[c];
        long base = danger ? points * 50L : points * 4L;
        if (wild && !danger)
            base -= c == WILD4 ? 5000 : 4000;
        if (next_close && (c == WILD4 || CARD_FACE[c] == SYM_DRAW2 || CARD_FACE[c] == SYM_SKIP
                           || CARD_FACE[c] == SYM_REVERSE))
            base += 3000;
        for (int col = 0; col < 4; col++) {
            if (!wild && col != CARD_COLOR[c])
                continue;
            /* What stays in that color after this card is played. */
            int held = count[col] - (wild ? 0 : 1);
            int pts = value[col] - (wild ? 0 : points);
            long score = base + held * 200L + pts;
            if (k == 0 || score > best_score) {
                best_score = score;
                k = 0;
            }
            if (score == best_score) {
                cards[k] = (uint8_t)c;
                colors[k++] = (int8_t)(wild ? col : -1);
            }
        }
    }
    if (k) {
        int i = k > 1 ? (int)below(policy, (uint32_t)k) : 0;
        a->kind = A_PLAY;
        a->card = cards[i];
        a->color = colors[i];
        a->uno = g->hlen[seat] == 2;
        return;
    }
    a->kind = g->plen || g->dlen > 1 ? A_DRAW : A_PASS;
}

/* Game.__init__ and _start_hand for the standard preset, dealer 0. */
static void start_hand(Game *g, int n, uint64_t seed)
{
    g->n = n;
    g->rng = seed;
    g->direction = 1;
    g->pending = 0;
    g->idle = 0;
    g->winner = -1;
    g->points = 0;
    g->drawn = -1;
    memset(g->hlen, 0, sizeof g->hlen);
    memset(g->rlen, 0, sizeof g->rlen);
    memset(g->owes, 0, sizeof g->owes);
    memcpy(g->pile, CANONICAL_DECK, DECK);
    shuffle(&g->rng, g->pile, DECK);
    g->plen = DECK;
    for (int i = 0; i < HAND_SIZE * n; i++) {
        int seat = (1 + i) % n;
        g->hand[seat][g->hlen[seat]++] = g->pile[--g->plen];
    }
    /* A Wild Draw Four turned first goes back and the pile is shuffled (first_card). */
    int card = -1;
    for (int tries = g->plen; tries > 0; tries--) {
        card = g->pile[--g->plen];
        if (card != WILD4)
            break;
        g->pile[g->plen++] = (uint8_t)card;
        shuffle(&g->rng, g->pile, g->plen);
    }
    g->discard[0] = (uint8_t)card;
    g->dlen = 1;
    g->color = CARD_COLOR[card];
    int first = next_seat(g, 0);
    int face = CARD_FACE[card];
    if (card == WILD) {
        g->to_act = first;
        g->phase = PH_COLOR;
        g->color = -1;
    } else if (face == SYM_SKIP) {
        start_turn(g, next_seat(g, first));
    } else if (face == SYM_REVERSE) {
        g->direction = -1;
        start_turn(g, 0);
    } else if (face == SYM_DRAW2) {
        draw_cards(g, first, 2);
        start_turn(g, next_seat(g, first));
    } else {
        start_turn(g, first);
    }
}

enum { POLICY_RANDOM = 0, POLICY_GREEDY = 1 };

/* Plays the hand to its end with the given policy; returns the number of moves, or -1
 * past limit. */
static long play_out_with(Game *g, uint64_t *policy, int kind, long limit)
{
    Act a;
    long moves = 0;
    while (g->phase != PH_OVER) {
        if (moves >= limit)
            return -1;
        if (kind == POLICY_GREEDY)
            choose_greedy(g, policy, &a);
        else
            choose(g, policy, &a);
        apply(g, &a);
        moves++;
    }
    return moves;
}

/* Plays the hand to its end with the random policy; -1 past MOVE_LIMIT. */
static long play_out(Game *g, uint64_t *policy)
{
    return play_out_with(g, policy, POLICY_RANDOM, MOVE_LIMIT);
}

/* ------------------------------------------------------------- Python functions */

/* The policy stream of random_playouts: fixed by una.engine.fast.policy_seed. */
static uint64_t batch_policy_seed(uint64_t seed)
{
    return seed * 0xD1B54A32D192ED03ULL + 0x5851F42D4C957F2DULL;
}

static int check_players(int players)
{
    if (players < 2 || players > MAXP) {
        PyErr_Format(PyExc_ValueError,
                     "players: %d seats, but the standard rules seat 2 to 10", players);
        return -1;
    }
    return 0;
}

static PyObject *stuck_error(void)
{
    PyErr_Format(PyExc_RuntimeError, "a hand ran past %d moves", MOVE_LIMIT);
    return NULL;
}

static PyObject *py_random_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    int players;
    long long games;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iLK:random_playouts", &players, &games, &seed))
        return NULL;
    if (check_players(players) < 0)
        return NULL;
    if (games < 0) {
        PyErr_Format(PyExc_ValueError, "games: must be 0 or more, not %lld", games);
        return NULL;
    }
    long long moves = 0, wins[MAXP] = {0}, points[MAXP] = {0};
    int stuck = 0;
    Game *g = PyMem_RawMalloc(sizeof(Game));
    if (g == NULL)
        return PyErr_NoMemory();
    uint64_t policy = batch_policy_seed(seed);
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < games; i++) {
        start_hand(g, players, seed * 1000003ULL + (uint64_t)i);
        long m = play_out(g, &policy);
        if (m < 0) {
            stuck = 1;
            break;
        }
        moves += m;
        wins[g->winner]++;
        points[g->winner] += g->points;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    if (stuck)
        return stuck_error();
    PyObject *w = PyTuple_New(players), *p = PyTuple_New(players);
    if (w == NULL || p == NULL) {
        Py_XDECREF(w);
        Py_XDECREF(p);
        return NULL;
    }
    for (int s = 0; s < players; s++) {
        PyTuple_SET_ITEM(w, s, PyLong_FromLongLong(wins[s]));
        PyTuple_SET_ITEM(p, s, PyLong_FromLongLong(points[s]));
    }
    return Py_BuildValue("LLNN", games, moves, w, p);
}

static void card_code(char *out, int card)
{
    if (card == WILD)
        strcpy(out, "W");
    else if (card == WILD4)
        strcpy(out, "W4");
    else {
        out[0] = COLOR_LETTERS[CARD_COLOR[card]];
        strcpy(out + 1, SYMBOL_CODES[CARD_FACE[card]]);
    }
}

/* Action.code of an action. */
static PyObject *action_code(const Act *a)
{
    char buf[32], card[4];
    switch (a->kind) {
    case A_PLAY:
        card_code(card, a->card);
        if (a->color >= 0)
            snprintf(buf, sizeof buf, "play %s %c%s", card, COLOR_LETTERS[a->color],
                     a->uno ? " uno" : "");
        else
            snprintf(buf, sizeof buf, "play %s%s", card, a->uno ? " uno" : "");
        return PyUnicode_FromString(buf);
    case A_DRAW:
        return PyUnicode_FromString("draw");
    case A_PASS:
        return PyUnicode_FromString("pass");
    case A_COLOR:
        snprintf(buf, sizeof buf, "color %c", COLOR_LETTERS[a->color]);
        return PyUnicode_FromString(buf);
    case A_UNO:
        return PyUnicode_FromString("uno");
    default:
        snprintf(buf, sizeof buf, "catch @%d", a->target);
        return PyUnicode_FromString(buf);
    }
}

static PyObject *py_trace_hand(PyObject *self, PyObject *args)
{
    (void)self;
    int players;
    unsigned long long game_seed, policy_seed;
    if (!PyArg_ParseTuple(args, "iKK:trace_hand", &players, &game_seed, &policy_seed))
        return NULL;
    if (check_players(players) < 0)
        return NULL;
    Game *g = PyMem_RawMalloc(sizeof(Game));
    if (g == NULL)
        return PyErr_NoMemory();
    PyObject *out = PyList_New(0);
    if (out == NULL)
        goto fail;
    uint64_t policy = policy_seed;
    start_hand(g, players, game_seed);
    Act a;
    long moves = 0;
    while (g->phase != PH_OVER) {
        if (moves++ >= MOVE_LIMIT) {
            stuck_error();
            goto fail;
        }
        choose(g, &policy, &a);
        PyObject *code = action_code(&a);
        if (code == NULL || PyList_Append(out, code) < 0) {
            Py_XDECREF(code);
            goto fail;
        }
        Py_DECREF(code);
        apply(g, &a);
    }
    PyMem_RawFree(g);
    return out;
fail:
    Py_XDECREF(out);
    PyMem_RawFree(g);
    return NULL;
}

/* ------------------------------------------------------ cards from Python objects */

/* The engine's Card objects are interned: set_cards() registers the 54 of the standard
 * deck (strong references, so their addresses stay theirs) and a card is then found by
 * its address. Any other object is read by its `code` attribute. */
#define CARD_SLOTS 256
static PyObject *card_objects[CARD_SLOTS];
static int8_t card_object_ids[CARD_SLOTS];

static inline unsigned card_slot(PyObject *obj)
{
    uintptr_t p = (uintptr_t)obj;
    return (unsigned)((p >> 4) ^ (p >> 12)) & (CARD_SLOTS - 1);
}

static int card_of_code(const char *code)
{
    if (strcmp(code, "W") == 0)
        return WILD;
    if (strcmp(code, "W4") == 0)
        return WILD4;
    for (int c = 0; c < 4; c++) {
        if (code[0] != COLOR_LETTERS[c])
            continue;
        for (int s = 0; s < 13; s++)
            if (strcmp(code + 1, SYMBOL_CODES[s]) == 0)
                return c * 13 + s;
    }
    return -1;
}

/* The card id of a Card object; -1 with an exception set if it is none of the deck's. */
static int card_id(PyObject *obj, const char *what)
{
    unsigned slot = card_slot(obj);
    for (int i = 0; i < CARD_SLOTS; i++) {
        PyObject *known = card_objects[slot];
        if (known == obj)
            return card_object_ids[slot];
        if (known == NULL)
            break;
        slot = (slot + 1) & (CARD_SLOTS - 1);
    }
    PyObject *code = PyObject_GetAttrString(obj, "code");
    if (code == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected cards, not %.80s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *text = PyUnicode_Check(code) ? PyUnicode_AsUTF8(code) : NULL;
    int id = text != NULL ? card_of_code(text) : -1;
    if (id < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s: %R is not a card of the standard deck", what,
                         obj);
        Py_DECREF(code);
        return -1;
    }
    Py_DECREF(code);
    return id;
}

static PyObject *py_set_cards(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) != NKINDS) {
        PyErr_Format(PyExc_TypeError, "set_cards: expected a tuple of the %d cards", NKINDS);
        return NULL;
    }
    for (int id = 0; id < NKINDS; id++) {
        PyObject *obj = PyTuple_GET_ITEM(arg, id);
        int found = card_id(obj, "set_cards");
        if (found < 0)
            return NULL;
        if (found != id) {
            PyErr_Format(PyExc_ValueError, "set_cards: item %d is %R, not card id %d", id, obj,
                         id);
            return NULL;
        }
    }
    for (int i = 0; i < CARD_SLOTS; i++)
        Py_CLEAR(card_objects[i]);
    for (int id = 0; id < NKINDS; id++) {
        PyObject *obj = PyTuple_GET_ITEM(arg, id);
        unsigned slot = card_slot(obj);
        while (card_objects[slot] != NULL && card_objects[slot] != obj)
            slot = (slot + 1) & (CARD_SLOTS - 1);
        if (card_objects[slot] == NULL) {
            Py_INCREF(obj);
            card_objects[slot] = obj;
            card_object_ids[slot] = (int8_t)id;
        }
    }
    Py_RETURN_NONE;
}

/* Reads a list or tuple of cards into cards; -1 with an exception set if it is no such. */
static int load_cards(PyObject *obj, uint8_t *cards, int *len, int counts[NKINDS],
                      const char *what, int seat)
{
    char name[48];
    if (seat >= 0)
        snprintf(name, sizeof name, "%s[%d]", what, seat);
    else
        snprintf(name, sizeof name, "%s", what);
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list of cards, not %.80s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(obj);
    if (size > DECK) {
        PyErr_Format(PyExc_ValueError, "%s: %zd cards, more than the deck's %d", name, size,
                     DECK);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(obj);
    for (Py_ssize_t i = 0; i < size; i++) {
        int id = card_id(items[i], name);
        if (id < 0)
            return -1;
        cards[i] = (uint8_t)id;
        if (counts != NULL)
            counts[id]++;
    }
    *len = (int)size;
    return 0;
}

static int check_seat_lists(PyObject *obj, int n, const char *what)
{
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list per player, not %.80s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(obj) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items for %d players", what,
                     PySequence_Fast_GET_SIZE(obj), n);
        return -1;
    }
    return 0;
}

/* The Game of playout_from's arguments, checked (the standard deck, each card once, the
 * numbers in range); NULL with an exception set when they are wrong. Free with
 * PyMem_RawFree. */
static Game *load_game(PyObject *hands, PyObject *pile, PyObject *discard, int color,
                       int direction, int to_act, int phase, PyObject *drawn_obj, int pending,
                       PyObject *owes, int idle, PyObject *recycled,
                       unsigned long long game_rng)
{
    if (!PyList_Check(hands) && !PyTuple_Check(hands)) {
        PyErr_Format(PyExc_TypeError, "hands: expected a list of hands, not %.80s",
                     Py_TYPE(hands)->tp_name);
        return NULL;
    }
    int n = (int)PySequence_Fast_GET_SIZE(hands);
    if (check_players(n) < 0 || check_seat_lists(recycled, n, "recycled") < 0
        || check_seat_lists(owes, n, "owes_uno") < 0)
        return NULL;
    Game *g = PyMem_RawMalloc(sizeof(Game));
    if (g == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(g, 0, sizeof(Game));
    int counts[NKINDS] = {0};
    g->n = n;
    for (int s = 0; s < n; s++) {
        if (load_cards(PySequence_Fast_ITEMS(hands)[s], g->hand[s], &g->hlen[s], counts,
                       "hands", s) < 0)
            goto fail;
        PyObject *rec = PySequence_Fast_ITEMS(recycled)[s];
        if ((PyList_Check(rec) || PyTuple_Check(rec)) && PySequence_Fast_GET_SIZE(rec) == 0)
            continue; /* the usual case: nothing recycled */
        int held[NKINDS] = {0}, back[NKINDS] = {0};
        for (int i = 0; i < g->hlen[s]; i++)
            held[g->hand[s][i]]++;
        if (load_cards(rec, g->recycled[s], &g->rlen[s], back, "recycled", s) < 0)
            goto fail;
        for (int c = 0; c < NKINDS; c++) {
            if (back[c] > held[c]) {
                char code[4];
                PyErr_Format(PyExc_ValueError,
                             "recycled[%d]: lists more cards %s than the hand holds", s,
                             (card_code(code, c), code));
                goto fail;
            }
        }
    }
    if (load_cards(pile, g->pile, &g->plen, counts, "draw_pile", -1) < 0
        || load_cards(discard, g->discard, &g->dlen, counts, "discard", -1) < 0)
        goto fail;
    {
        int want[NKINDS] = {0};
        for (int i = 0; i < DECK; i++)
            want[CANONICAL_DECK[i]]++;
        for (int c = 0; c < NKINDS; c++) {
            if (counts[c] != want[c]) {
                char code[4];
                card_code(code, c);
                PyErr_Format(PyExc_ValueError,
                             "the cards at the table are not the standard deck: %d of %s, "
                             "not %d", counts[c], code, want[c]);
                goto fail;
            }
        }
    }
    if (g->dlen < 1) {
        PyErr_SetString(PyExc_ValueError, "discard: the discard pile is empty");
        goto fail;
    }
    if (direction != 1 && direction != -1) {
        PyErr_Format(PyExc_ValueError, "direction: %d, not 1 or -1", direction);
        goto fail;
    }
    if (to_act < 0 || to_act >= n) {
        PyErr_Format(PyExc_ValueError, "to_act: seat %d is out of range 0-%d", to_act, n - 1);
        goto fail;
    }
    if (phase < PH_COLOR || phase > PH_PENALTY) {
        PyErr_Format(PyExc_ValueError,
                     "phase: %d is not color (0), play (1), drawn (2) or penalty (3)", phase);
        goto fail;
    }
    if (phase == PH_COLOR ? color != -1 : (color < 0 || color > 3)) {
        PyErr_Format(PyExc_ValueError,
                     "color: %d in phase %d (a color 0-3 is needed, and none (-1) only while "
                     "a color is to be named)", color, phase);
        goto fail;
    }
    g->drawn = -1;
    if (phase == PH_DRAWN) {
        int drawn = drawn_obj == Py_None ? -1 : card_id(drawn_obj, "drawn");
        if (drawn < 0 && PyErr_Occurred())
            goto fail;
        int held = 0;
        for (int i = 0; i < g->hlen[to_act]; i++)
            held |= g->hand[to_act][i] == drawn;
        if (!held) {
            PyErr_Format(PyExc_ValueError, "drawn: %R is not in seat %d's hand", drawn_obj,
                         to_act);
            goto fail;
        }
        g->drawn = drawn;
    }
    if (pending < 0 || (pending && phase != PH_PENALTY)) {
        PyErr_Format(PyExc_ValueError,
                     "pending_draw: %d in phase %d (only a penalty phase has one)", pending,
                     phase);
        goto fail;
    }
    if (idle < 0) {
        PyErr_Format(PyExc_ValueError, "idle_turns: %d is negative", idle);
        goto fail;
    }
    for (int s = 0; s < n; s++) {
        int owed = PyObject_IsTrue(PySequence_Fast_ITEMS(owes)[s]);
        if (owed < 0)
            goto fail;
        g->owes[s] = (uint8_t)owed;
    }
    g->color = color;
    if (g->drawn >= 0 && !matches(g, g->drawn)) {
        char code[4];
        card_code(code, g->drawn);
        PyErr_Format(PyExc_ValueError,
                     "drawn: %s does not fit the pile, so there is no drawn card to decide on",
                     code);
        goto fail;
    }
    g->direction = direction;
    g->to_act = to_act;
    g->phase = phase;
    g->pending = pending;
    g->idle = idle;
    g->rng = game_rng;
    g->winner = -1;
    return g;
fail:
    PyMem_RawFree(g);
    return NULL;
}

#define STATE_FORMAT "OOOiiiiOiOiOK"

static PyObject *py_playout_from(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *hands, *pile, *discard, *drawn_obj, *owes, *recycled;
    int color, direction, to_act, phase, pending, idle;
    unsigned long long game_rng, policy_seed;
    if (!PyArg_ParseTuple(args, STATE_FORMAT "K:playout_from", &hands, &pile, &discard,
                          &color, &direction, &to_act, &phase, &drawn_obj, &pending, &owes,
                          &idle, &recycled, &game_rng, &policy_seed))
        return NULL;
    Game *g = load_game(hands, pile, discard, color, direction, to_act, phase, drawn_obj,
                        pending, owes, idle, recycled, game_rng);
    if (g == NULL)
        return NULL;
    uint64_t policy = policy_seed;
    long moves = play_out(g, &policy);
    if (moves < 0) {
        PyMem_RawFree(g);
        return stuck_error();
    }
    PyObject *result = Py_BuildValue("iil", g->winner, g->points, moves);
    PyMem_RawFree(g);
    return result;
}

/* The generator seed of repeat r's draw-pile order (una.engine.fast.pile_seed). */
static uint64_t pile_seed(uint64_t policy_seed, int r)
{
    return (policy_seed ^ 0xA0761D6478BD642FULL) + (uint64_t)r * 0xE7037ED1A0B428DBULL;
}

/* Wins per seat of `repeats` playouts of one state with one policy (random or greedy),
 * each from a copy of the state, the policy generator running on from one to the next;
 * a playout past `limit` moves counts as a win for nobody. With shuffle_pile, each repeat
 * first shuffles the draw pile with its own generator (pile_seed). */
static PyObject *py_playouts_from(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *hands, *pile, *discard, *drawn_obj, *owes, *recycled;
    int color, direction, to_act, phase, pending, idle, kind, repeats, shuffle_pile;
    long limit;
    unsigned long long game_rng, policy_seed;
    if (!PyArg_ParseTuple(args, STATE_FORMAT "Kiilp:playouts_from", &hands, &pile, &discard,
                          &color, &direction, &to_act, &phase, &drawn_obj, &pending, &owes,
                          &idle, &recycled, &game_rng, &policy_seed, &kind, &repeats, &limit,
                          &shuffle_pile))
        return NULL;
    if (kind != POLICY_RANDOM && kind != POLICY_GREEDY) {
        PyErr_Format(PyExc_ValueError, "policy: %d is not random (0) or greedy (1)", kind);
        return NULL;
    }
    if (repeats < 1) {
        PyErr_Format(PyExc_ValueError, "repeats: must be 1 or more, not %d", repeats);
        return NULL;
    }
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit: must be 1 or more, not %ld", limit);
        return NULL;
    }
    Game *g = load_game(hands, pile, discard, color, direction, to_act, phase, drawn_obj,
                        pending, owes, idle, recycled, game_rng);
    if (g == NULL)
        return NULL;
    Game *work = PyMem_RawMalloc(sizeof(Game));
    if (work == NULL) {
        PyMem_RawFree(g);
        return PyErr_NoMemory();
    }
    long wins[MAXP] = {0};
    uint64_t policy = policy_seed;
    int n = g->n;
    Py_BEGIN_ALLOW_THREADS
    for (int r = 0; r < repeats; r++) {
        memcpy(work, g, sizeof(Game));
        if (shuffle_pile) {
            /* Repeat r's own order of the (unknown) draw pile: the same for every state
             * searched with this seed, so candidate actions meet the same cards. */
            uint64_t order = pile_seed(policy_seed, r);
            shuffle(&order, work->pile, work->plen);
        }
        if (play_out_with(work, &policy, kind, limit) >= 0)
            wins[work->winner]++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(work);
    PyMem_RawFree(g);
    PyObject *result = PyTuple_New(n);
    if (result == NULL)
        return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *item = PyLong_FromLong(wins[s]);
        if (item == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, s, item);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"random_playouts", py_random_playouts, METH_VARARGS,
     "random_playouts(players, games, seed) -> (games, moves, wins, points)\n\n"
     "Play `games` random hands of the standard rules from the deal, game i with the\n"
     "engine seed seed * 1000003 + i, and the random policy on one generator stream."},
    {"trace_hand", py_trace_hand, METH_VARARGS,
     "trace_hand(players, game_seed, policy_seed) -> list of action codes"},
    {"set_cards", py_set_cards, METH_O,
     "set_cards(cards) -> None\n\n"
     "Register the engine's 54 interned Card objects, in card id order, to be found by\n"
     "address (cards are read by their `code` attribute otherwise)."},
    {"playout_from", py_playout_from, METH_VARARGS,
     "playout_from(hands, draw_pile, discard, color, direction, to_act, phase, drawn,\n"
     "             pending_draw, owes_uno, idle_turns, recycled, game_rng, policy_seed)\n"
     "    -> (winner, points, moves)\n\n"
     "Play a hand from a mid-hand state to its end with the random policy."},
    {"playouts_from", py_playouts_from, METH_VARARGS,
     "playouts_from(<the 13 state arguments of playout_from>, policy_seed, policy,\n"
     "              repeats, limit, shuffle_pile) -> wins per seat\n\n"
     "Play `repeats` hands on from one state with the random (0) or greedy (1) policy;\n"
     "a hand past `limit` moves is a win for nobody; shuffle_pile: each repeat first\n"
     "shuffles the draw pile with its own generator."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_fastcore",
    "The standard preset's hand and the random policy in C (see una.engine.fast).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__fastcore(void)
{
    init_tables();
    return PyModule_Create(&module);
}
