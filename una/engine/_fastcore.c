/*
 * una.engine._fastcore: the engine's hand and match, and the random policy, in C.
 *
 * A compiled core behind the pure-Python engine (una/engine/game.py), for speed only. It
 * plays any rule set whose switch values and card effects it implements (the tables
 * SWITCH_SPECS and EFFECT_KEYS below, exported as SWITCHES and EFFECTS) exactly as Game
 * does: the engine's own generator (SplitMix64, una/engine/rng.py) bit for bit, the same
 * deck order, dealing, legal actions in the same order, effects, scoring and match end.
 * Nothing of a rule set is built in: the deck, point values, hand size and first-card
 * rules come from una.engine.fast (compile_rules), which takes them from the RuleSet.
 * compile_rules refuses, with a ValueError naming it, any switch it does not know, any
 * value it does not implement and any card effect it lacks: una.engine.fast then uses the
 * Python engine. tests/engine/test_fastcore.py compares the two action by action and state
 * by state.
 *
 * The policies: the random policy (una.engine.fast.choose, random_bot.pick on
 * Game.legal_actions of the seat to act), on SplitMix64 or on Python's Mersenne Twister
 * (random.Random, for una sim's random bots: the same games as the Python driver), and the
 * greedy rollout policy (fast.choose_greedy), which scores the core's own legal actions.
 *
 * Positions come in as the fields of una.engine.state.HandState, in its order, with their
 * names: STATE_FIELDS lists the names this file reads, and a name list that differs is
 * refused (a piece of state added in Python and not here cannot be silently dropped).
 *
 * Cards are small integers: their index in una.engine.cards.ALL_CARDS (set_cards).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAXK 128          /* card kinds (ALL_CARDS) */
#define DECKMAX 160       /* the largest deck the core holds */
#define CAP (DECKMAX + 8) /* room for a card more than the deck (the first-card loop) */
#define MAXP 10
/* Legal actions at most: 126 Target Practice splits x 4 colors x 2 UNO variants, plus
 * every other card of the largest deck the core holds with its colors, picks and variants
 * (under 500 more), plus catches. */
#define MAXACT 2100
#define MAX_SPLITS 126 /* effects/byond.py MAX_LISTED_SPLITS */
#define MOVE_LIMIT 1000000

/* Phases, numbered as una.engine.fast passes them. */
enum { PH_COLOR = 0, PH_PLAY = 1, PH_DRAWN = 2, PH_PENALTY = 3, PH_HAND_OVER = 4,
       PH_MATCH_OVER = 5 };
static const char *const PHASE_NAMES[6] = {"color", "play", "drawn", "penalty", "hand_over",
                                           "match_over"};
enum { A_PLAY, A_DRAW, A_PASS, A_COLOR, A_CHALLENGE, A_UNO, A_CATCH, A_DEAL };
/* Card effects (una/engine/effects), by the key effect_table gives them. */
enum { EF_N, EF_W, EF_S, EF_R, EF_D2, EF_W4, EF_D4, EF_CL, EF_NAGA, EF_N7, EF_N0,
       EF_SP, EF_RD2, EF_DB2, EF_RR, EF_RS, EF_SS, EF_WDD, EF_WR4, EF_WB4, EF_WMY, EF_WTP,
       EF_HOLY, EF_SCREW, EF_QUIT, EF_KOBE, EF_BLEND, EF_RAND, EF_TRADE, EF_CHAIRS, EF_DANCE,
       EF_SPY, EF_DUNG, EF_COUNT };
static const char *const EFFECT_KEYS[EF_COUNT] = {
    "N", "W", "S", "R", "D2", "W4", "D4", "CL", "NAGA", "N7", "N0",
    "SP", "RD2", "DB2", "RR", "RS", "SS", "WDD", "WR4", "WB4", "WMY", "WTP",
    "HOLY", "SCREW", "QUIT", "KOBE", "BLEND", "RAND", "TRADE", "CHAIRS", "DANCE",
    "SPY", "DUNG"};
/* Pending draw families. */
enum { PK_NONE = 0, PK_D2 = 1, PK_D4 = 2, PK_WILD = 3 };
static const char *const PENDING_KINDS[4] = {NULL, "D2", "D4", "WILD"};
enum { FIRST_STAYS = 0, FIRST_BOTTOM = 1, FIRST_RESHUFFLE = 2 };
static const char COLOR_LETTERS[4] = {'R', 'Y', 'G', 'B'};

/* ------------------------------------------------------------------ the rule set */

enum { SW_BOOL, SW_CHOICE, SW_COUNT, SW_SEATS, SW_CARDS };
typedef struct {
    const char *name;
    int kind;
    /* SW_BOOL: which of false (bit 0) and true (bit 1) the core plays; SW_CHOICE: the
     * values it plays, in the order of the Rules field's numbers. */
    int bools;
    const char *choices[5];
} SwitchSpec;

/* Every switch of una.engine.rules.SWITCHES the core knows, with the values it plays. A
 * switch missing here, or a value missing here, makes compile_rules refuse the rule set. */
static const SwitchSpec SWITCH_SPECS[] = {
    {"stack_draw_two", SW_BOOL, 3, {NULL}},
    {"stack_draw_four", SW_BOOL, 3, {NULL}},
    {"stack_cross", SW_BOOL, 3, {NULL}},
    {"jump_in", SW_BOOL, 3, {NULL}},
    {"seven_zero", SW_BOOL, 3, {NULL}},
    {"draw_until_playable", SW_BOOL, 3, {NULL}},
    {"voluntary_draw", SW_BOOL, 3, {NULL}},
    {"play_drawn", SW_CHOICE, 0, {"may", "must", "never", NULL}},
    {"uno_call", SW_CHOICE, 0, {"manual", "auto", NULL}},
    {"uno_window", SW_CHOICE, 0, {"next_turn", "own_turn", NULL}},
    {"uno_penalty", SW_CHOICE, 0, {"catch", "auto", NULL}},
    {"false_uno_penalty", SW_BOOL, 3, {NULL}},
    {"bad_catch_penalty", SW_BOOL, 3, {NULL}},
    {"challenge", SW_BOOL, 3, {NULL}},
    {"guilty_color", SW_CHOICE, 0, {"stands", "reverts", NULL}},
    {"challenge_reveal", SW_BOOL, 3, {NULL}},
    {"wd4_rule", SW_CHOICE, 0, {"no_color", "no_color_or_number", NULL}},
    {"finish", SW_CHOICE, 0, {"first_out", "to_the_last", NULL}},
    {"scoring", SW_CHOICE, 0, {"winner_takes_all", "penalty", "discards_minus_hand", "none",
                               NULL}},
    {"target", SW_COUNT, 0, {NULL}},
    {"first_player", SW_CHOICE, 0, {"left_of_dealer", "random", NULL}},
    {"players", SW_SEATS, 0, {NULL}},
    {"cards", SW_CARDS, 0, {NULL}}, /* any: each card's effect is checked in EFFECT_KEYS */
};
#define NSWITCHES ((int)(sizeof SWITCH_SPECS / sizeof SWITCH_SPECS[0]))
enum { S_STACK_D2, S_STACK_D4, S_STACK_CROSS, S_JUMP_IN, S_SEVEN_ZERO, S_DUP, S_VOLUNTARY,
       S_PLAY_DRAWN, S_UNO_CALL, S_UNO_WINDOW, S_UNO_PENALTY, S_FALSE_UNO, S_BAD_CATCH,
       S_CHALLENGE,
       S_GUILTY_COLOR, S_REVEAL, S_WD4_RULE, S_FINISH, S_SCORING, S_TARGET, S_FIRST_PLAYER,
       S_PLAYERS, S_CARDS };
enum { PD_MAY = 0, PD_MUST = 1, PD_NEVER = 2 };
enum { SC_WTA = 0, SC_PENALTY = 1, SC_DMH = 2, SC_NONE = 3 };

typedef struct {
    uint32_t magic;
    int n;          /* the seats these tables are for (points depend on it) */
    int sw[NSWITCHES];
    int hand_size;
    int deck_len;
    uint8_t deck[DECKMAX]; /* RuleSet.deck(), canonical order */
    int deck_colors[4];    /* the deck's cards of each color */
    uint8_t in_deck[MAXK];
    int8_t color[MAXK];    /* 0-3, -1 none */
    int8_t face[MAXK];     /* a number per distinct Card.face */
    int8_t number[MAXK];   /* Card.number, -1 none */
    int16_t points[MAXK];  /* Game.card_points at n seats */
    uint8_t wild[MAXK];    /* Card.is_wild */
    uint8_t effect[MAXK];
    uint8_t wd4[MAXK];     /* symbol in WILD_DRAW_FOUR_SYMBOLS */
    uint8_t first[MAXK];
    uint8_t action_face[MAXK]; /* the greedy policy's action cards (fast._ACTION_FACES) */
    int has_reactions;         /* a Holy Defender or Screwdriver in the deck */
    int has_locks;             /* a Kobe in the deck */
    int has_score_cards;       /* a Dung or Holy Defender in the deck */
} Rules;
#define RULES_MAGIC 0x554E4131u

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


/* ------------------------------------------- Mersenne Twister (Python's random.Random) */

typedef struct {
    uint32_t mt[624];
    int index;
} Twister;

static void mt_init(Twister *t, uint32_t s)
{
    t->mt[0] = s;
    for (int i = 1; i < 624; i++)
        t->mt[i] = 1812433253u * (t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) + (uint32_t)i;
    t->index = 624;
}

/* random.Random(seed) for an int seed 0 <= seed < 2**64: init_by_array of its 32-bit
 * words, least significant first. */
static void mt_seed(Twister *t, uint64_t seed)
{
    uint32_t key[2];
    int len = 0;
    key[len++] = (uint32_t)seed;
    if (seed >> 32)
        key[len++] = (uint32_t)(seed >> 32);
    mt_init(t, 19650218u);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1664525u)) + key[j]
                   + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            t->mt[0] = t->mt[623];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = 623; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1566083941u))
                   - (uint32_t)i;
        i++;
        if (i >= 624) {
            t->mt[0] = t->mt[623];
            i = 1;
        }
    }
    t->mt[0] = 0x80000000u;
    t->index = 624;
}

static uint32_t mt_next(Twister *t)
{
    if (t->index >= 624) {
        uint32_t *mt = t->mt;
        int k = 0;
        for (; k < 624 - 397; k++) {
            uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + 397] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        for (; k < 623; k++) {
            uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + 397 - 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        uint32_t y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        t->index = 0;
    }
    uint32_t y = t->mt[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* random.Random.randrange(n) for 1 <= n < 2**31: getrandbits(n.bit_length()) until < n. */
static uint32_t mt_below(Twister *t, uint32_t n)
{
    int k = 0;
    while ((n >> k) != 0)
        k++;
    uint32_t r;
    do {
        r = mt_next(t) >> (32 - k);
    } while (r >= n);
    return r;
}

/* ------------------------------------------------------------------ the game */

typedef struct {
    const Rules *r;
    int n;
    int phase;
    int to_act; /* -1: nobody */
    int direction;
    int color; /* 0-3, -1 none */
    int drawn; /* -1 none */
    int pending, pending_kind, pending_chal, pending_source, pending_guilty, pending_prev;
    int idle;
    int hand_number, dealer, winner; /* winner: the match's, -1 */
    int players_in_hand;
    int lock; /* nagasaki_lock, -1 */
    int rank_len;
    int hand_winner;      /* the last hand's result: winner, -1 none */
    int hand_points[MAXP];
    uint64_t rng;
    int plen, dlen;
    int hidx[MAXP]; /* seat -> hand storage (hands move under seven_zero) */
    int hlen[MAXP]; /* by storage */
    int rlen[MAXP];
    int scores[MAXP];
    int discard_points[MAXP];
    int seating[MAXP], position[MAXP], ranking[MAXP];
    uint8_t owes[MAXP], called[MAXP], false_uno[MAXP], active[MAXP];
    uint8_t pile[CAP];
    uint8_t discard[CAP];
    uint8_t hand[MAXP][CAP]; /* by storage */
    uint8_t recycled[MAXP][CAP];
    int alen[MAXP];
    uint8_t aside[MAXP][CAP]; /* set_aside (Quitter) */
} Game;

typedef struct {
    int kind;
    int card;
    int color;
    int uno;
    int target; /* a catch's, or a card's one pick; -1 */
    /* Target Practice: how many cards each seat draws (its picks, sorted), or NULL-like
     * all zero; npicks is their sum (0: no Target Practice picks). */
    int npicks;
    int16_t picks[MAXP];
} Act;

#define HAND(g, s) ((g)->hand[(g)->hidx[s]])
#define HLEN(g, s) ((g)->hlen[(g)->hidx[s]])
#define TOP(g) ((g)->discard[(g)->dlen - 1])
#define SW(g, s) ((g)->r->sw[s])

static int next_seat_dir(const Game *g, int seat, int steps, int direction)
{
    int n = g->n, pos = g->position[seat];
    while (steps) {
        pos = (pos + direction + n) % n;
        if (g->active[g->seating[pos]])
            steps--;
    }
    return g->seating[pos];
}

static inline int next_seat(const Game *g, int seat)
{
    return next_seat_dir(g, seat, 1, g->direction);
}

static inline void start_turn(Game *g, int seat)
{
    g->to_act = seat;
    g->phase = PH_PLAY;
    g->drawn = -1;
    if (seat == g->lock)
        g->lock = -1;
}

static inline int can_draw(const Game *g)
{
    return g->plen > 0 || g->dlen > 1;
}

static void reshuffle(Game *g)
{
    int len = g->dlen - 1;
    uint8_t top = g->discard[len];
    shuffle(&g->rng, g->discard, len);
    memcpy(g->pile, g->discard, (size_t)len);
    g->plen = len;
    g->discard[0] = top;
    g->dlen = 1;
}

/* Game.draw_cards: up to count cards; returns how many were drawn (the last one is then
 * the hand's last card). */
static int draw_cards(Game *g, int seat, int count)
{
    int exhausting = g->plen + g->dlen - 1 <= count;
    int drawn = 0;
    uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < count; i++) {
        if (g->plen == 0) {
            if (g->dlen <= 1)
                break;
            reshuffle(g);
        }
        int card = g->pile[--g->plen];
        hand[HLEN(g, seat)++] = (uint8_t)card;
        if (exhausting)
            g->recycled[seat][g->rlen[seat]++] = (uint8_t)card;
        drawn++;
    }
    if (!exhausting && drawn)
        g->idle = 0;
    return drawn;
}

static inline void clear_pending(Game *g)
{
    g->pending = 0;
    g->pending_kind = PK_NONE;
    g->pending_chal = 0;
}

static void take_penalty(Game *g, int victim, int extra)
{
    int total = g->pending + extra;
    clear_pending(g);
    draw_cards(g, victim, total);
    if (g->active[victim])
        start_turn(g, next_seat(g, victim));
}

static inline void await_answer(Game *g, int victim)
{
    g->to_act = victim;
    g->phase = PH_PENALTY;
    g->drawn = -1;
}

static int draw_family(const Rules *r, int card)
{
    switch (r->effect[card]) {
    case EF_D2:
    case EF_RD2:
    case EF_DB2:
        return PK_D2;
    case EF_D4:
        return PK_D4;
    case EF_W4:
    case EF_WDD:
    case EF_WR4:
    case EF_WB4:
    case EF_WMY:
    case EF_WTP:
        return PK_WILD;
    default:
        return PK_NONE;
    }
}

static inline int is_reaction(const Rules *r, int card)
{
    return r->effect[card] == EF_HOLY || r->effect[card] == EF_SCREW;
}

/* The cards of a draw card that inflicts (not Target Practice): DrawCard.amount. */
static int draw_amount(const Game *g, int card)
{
    const Rules *r = g->r;
    switch (r->effect[card]) {
    case EF_D2:
    case EF_RD2:
    case EF_DB2:
        return 2;
    case EF_WDD:
        return g->pending; /* added to itself: doubled */
    case EF_WMY: {
        int previous = g->dlen > 1 ? r->number[g->discard[g->dlen - 2]] : -1;
        return previous < 0 ? 4 : previous;
    }
    default: /* W4 D4 WR4 WB4 */
        return 4;
    }
}

static void inflict(Game *g, int source, int victim, int count, int card)
{
    const Rules *r = g->r;
    int kind = draw_family(r, card);
    g->pending += count;
    g->pending_kind = kind;
    g->pending_chal = r->wd4[card];
    g->pending_source = source;
    int answerable;
    if (kind == PK_WILD)
        answerable = r->sw[S_STACK_D4] || r->has_reactions
                     || (r->sw[S_CHALLENGE] && g->pending_chal);
    else if (kind == PK_D2)
        answerable = r->sw[S_STACK_D2] || r->sw[S_STACK_CROSS];
    else
        answerable = r->sw[S_STACK_D4];
    if (answerable)
        await_answer(g, victim);
    else
        take_penalty(g, victim, 0);
}

static int locked(const Game *g, int seat)
{
    const uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < HLEN(g, seat); i++)
        if (g->r->effect[hand[i]] == EF_KOBE)
            return 1;
    return 0;
}

static inline int lock_blocks(const Game *g, int seat, int card)
{
    return g->r->has_locks && g->r->effect[card] != EF_KOBE && locked(g, seat);
}

static inline int plain_match(const Game *g, int card)
{
    const Rules *r = g->r;
    if (g->color < 0)
        return !r->wild[card];
    return r->wild[card] || r->color[card] == g->color || r->face[card] == r->face[TOP(g)];
}

/* Game.matches: a Kobe's lock, the cards with a rule of their own, plain matching; `lock`
 * is whether the seat is locked (found once per hand of cards: looked for per card, it
 * made a big BYOND hand's legal plays quadratic in its size). */
static inline int matches_with(const Game *g, int seat, int card, int lock)
{
    const Rules *r = g->r;
    if (lock && r->effect[card] != EF_KOBE)
        return 0;
    switch (r->effect[card]) {
    case EF_CL:
        return 1;
    case EF_NAGA:
        return g->lock < 0 || r->effect[TOP(g)] != EF_NAGA;
    case EF_DUNG:
        return HLEN(g, seat) == 1 && plain_match(g, card);
    default:
        return plain_match(g, card);
    }
}

static int matches(const Game *g, int seat, int card)
{
    return matches_with(g, seat, card, g->r->has_locks && locked(g, seat));
}

static inline int is_bluff(const Game *g, int seat, int card)
{
    const Rules *r = g->r;
    if (!r->wd4[card])
        return 0;
    int color = g->color;
    int number = r->sw[S_WD4_RULE] == 1 ? r->number[TOP(g)] : -1;
    const uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < HLEN(g, seat); i++) {
        int held = hand[i];
        if (color >= 0 && r->color[held] == color)
            return 1;
        if (number >= 0 && r->number[held] == number && !r->wild[held])
            return 1;
    }
    return 0;
}

static inline int honest(const Game *g, int seat, int card)
{
    return matches(g, seat, card) && !is_bluff(g, seat, card);
}

static int stack_answers(const Game *g, int seat, int card)
{
    const Rules *r = g->r;
    if (lock_blocks(g, seat, card))
        return 0;
    int family = draw_family(r, card);
    if (g->pending_kind == PK_WILD)
        return is_reaction(r, card) || (r->sw[S_STACK_D4] && family == PK_WILD);
    if (g->pending_kind == PK_D2) {
        if (family == PK_D2)
            return r->sw[S_STACK_D2];
        return r->sw[S_STACK_CROSS] && r->wd4[card];
    }
    return r->sw[S_STACK_D4] && family == g->pending_kind;
}

static inline int catchable(const Game *g, int seat)
{
    return (g->owes[seat] && HLEN(g, seat) == 1) || g->false_uno[seat];
}

/* Game.hand_scores: points held (set-aside cards included; nothing for the seats in
 * `empty`), then Dung (at least every other base score) and Holy Defender (halves). */
static void hand_scores(const Game *g, const uint8_t *empty, int *scores)
{
    const Rules *r = g->r;
    int n = g->n, base[MAXP];
    for (int s = 0; s < n; s++) {
        int total = 0;
        if (!empty[s]) {
            const uint8_t *hand = HAND(g, s);
            for (int i = 0; i < HLEN(g, s); i++)
                total += r->points[hand[i]];
            for (int i = 0; i < g->alen[s]; i++)
                total += r->points[g->aside[s][i]];
        }
        base[s] = scores[s] = total;
    }
    if (!r->has_score_cards)
        return;
    for (int s = 0; s < n; s++) {
        if (empty[s])
            continue;
        int dung = 0, holy = 0;
        const uint8_t *hand = HAND(g, s);
        for (int i = 0; i < HLEN(g, s) + g->alen[s]; i++) {
            int card = i < HLEN(g, s) ? hand[i] : g->aside[s][i - HLEN(g, s)];
            dung += r->effect[card] == EF_DUNG;
            holy += r->effect[card] == EF_HOLY;
        }
        if (dung) {
            for (int o = 0; o < n; o++)
                if (o != s && base[o] > scores[s])
                    scores[s] = base[o];
        }
        for (int h = 0; h < holy; h++)
            scores[s] = scores[s] >= 0 ? scores[s] / 2 : -((-scores[s] + 1) / 2);
    }
}

static void end_hand(Game *g, int blocked)
{
    int n = g->n, winner = g->ranking[0];
    uint8_t out[MAXP] = {0};
    for (int i = 0; i < g->rank_len; i++)
        out[g->ranking[i]] = 1;
    int in_hand[MAXP], points[MAXP], total = 0;
    hand_scores(g, out, in_hand);
    for (int s = 0; s < n; s++)
        total += in_hand[s];
    int scoring = SW(g, S_SCORING);
    for (int s = 0; s < n; s++) {
        if (scoring == SC_WTA)
            points[s] = s == winner ? total : 0;
        else if (scoring == SC_PENALTY)
            points[s] = in_hand[s];
        else if (scoring == SC_DMH)
            points[s] = g->discard_points[s] - in_hand[s];
        else
            points[s] = 0;
        g->scores[s] += points[s];
        g->hand_points[s] = points[s];
    }
    g->hand_winner = winner;
    (void)blocked; /* the core reports no HandEnded event */
    g->to_act = -1;
    g->drawn = -1;
    clear_pending(g);
    memset(g->owes, 0, sizeof g->owes);
    memset(g->false_uno, 0, sizeof g->false_uno);
    int match_winner = -1;
    if (scoring == SC_NONE) {
        match_winner = winner;
    } else {
        int high = g->scores[0], low = g->scores[0];
        for (int s = 1; s < n; s++) {
            if (g->scores[s] > high)
                high = g->scores[s];
            if (g->scores[s] < low)
                low = g->scores[s];
        }
        if (high >= SW(g, S_TARGET)) {
            int best = scoring == SC_PENALTY ? low : high;
            for (int s = 0; s < n; s++) {
                if (g->scores[s] == best) {
                    match_winner = s;
                    break;
                }
            }
        }
    }
    if (match_winner < 0) {
        g->phase = PH_HAND_OVER;
    } else {
        g->phase = PH_MATCH_OVER;
        g->winner = match_winner;
    }
}

static void end_blocked(Game *g)
{
    uint8_t none[MAXP] = {0};
    int scores[MAXP];
    hand_scores(g, none, scores);
    int best = -1;
    for (int s = 0; s < g->n; s++)
        if (g->active[s] && (best < 0 || scores[s] < scores[best]))
            best = s;
    g->ranking[g->rank_len++] = best;
    end_hand(g, 1);
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

/* Game.move_hands: receiver gets giver's hand; nobody owes a call afterwards. */
static void move_hands(Game *g, const int *receiver_of)
{
    int old[MAXP];
    memcpy(old, g->hidx, sizeof old);
    for (int s = 0; s < g->n; s++)
        if (receiver_of[s] >= 0)
            g->hidx[receiver_of[s]] = old[s];
    memset(g->owes, 0, sizeof g->owes);
    memset(g->false_uno, 0, sizeof g->false_uno);
}

static inline int is_over(const Game *g)
{
    return g->phase == PH_HAND_OVER || g->phase == PH_MATCH_OVER;
}

static void shuffle_ints(uint64_t *state, int *items, int len)
{
    for (int i = len - 1; i > 0; i--) {
        int j = (int)below(state, (uint32_t)(i + 1));
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* Game.random_derangement: items shuffled until none stays in its place. */
static void random_derangement(Game *g, const int *items, int len, int *out)
{
    memcpy(out, items, sizeof(int) * (size_t)len);
    if (len < 2)
        return;
    while (1) {
        memcpy(out, items, sizeof(int) * (size_t)len);
        shuffle_ints(&g->rng, out, len);
        int fixed = 0;
        for (int i = 0; i < len; i++)
            fixed |= out[i] == items[i];
        if (!fixed)
            return;
    }
}

static void reseat(Game *g, const int *seating)
{
    for (int place = 0; place < g->n; place++) {
        g->seating[place] = seating[place];
        g->position[seating[place]] = place;
    }
}

static int seats_in_hand(const Game *g, int *seats)
{
    int k = 0;
    for (int s = 0; s < g->n; s++)
        if (g->active[s])
            seats[k++] = s;
    return k;
}

/* Draw Spreader: every other player draws 2, in play order from the next. */
static void spread(Game *g, int seat)
{
    int victims[MAXP], k = 0;
    int other = next_seat(g, seat);
    while (other != seat) {
        int seen = 0;
        for (int i = 0; i < k; i++)
            seen |= victims[i] == other;
        if (seen)
            break;
        victims[k++] = other;
        other = next_seat(g, other);
    }
    for (int i = 0; i < k; i++)
        draw_cards(g, victims[i], 2);
}

static void target_practice(Game *g, const Act *a)
{
    clear_pending(g);
    for (int s = 0; s < g->n; s++)
        for (int k = 0; k < a->picks[s]; k++)
            draw_cards(g, s, 1);
}

/* Game.leave_hand (Quitter). */
static void leave_hand(Game *g, const int *seats, int count)
{
    for (int i = 0; i < count; i++) {
        int s = seats[i];
        memcpy(g->aside[s] + g->alen[s], HAND(g, s), (size_t)HLEN(g, s));
        g->alen[s] += HLEN(g, s);
        HLEN(g, s) = 0;
        g->active[s] = 0;
        g->players_in_hand--;
        g->owes[s] = g->false_uno[s] = 0;
    }
}

/* The effect's play (una/engine/effects): the card is on the pile. */
static void effect_play(Game *g, int seat, int card, const Act *a)
{
    const Rules *r = g->r;
    int effect = r->effect[card];
    switch (effect) {
    case EF_S: {
        int victim = next_seat(g, seat);
        start_turn(g, next_seat(g, victim));
        break;
    }
    case EF_R:
        g->direction = -g->direction;
        if (g->players_in_hand == 2 && g->active[seat])
            start_turn(g, seat);
        else
            start_turn(g, next_seat(g, seat));
        break;
    case EF_D2:
    case EF_W4:
    case EF_D4:
        inflict(g, seat, next_seat(g, seat), draw_amount(g, card), card);
        break;
    case EF_RD2:
    case EF_WR4: { /* Reversing */
        int amount = draw_amount(g, card);
        g->direction = -g->direction;
        inflict(g, seat, next_seat(g, seat), amount, card);
        break;
    }
    case EF_DB2:
    case EF_WB4: { /* Delayed */
        int amount = draw_amount(g, card);
        int victim = next_seat(g, seat);
        if (g->players_in_hand > 2)
            victim = next_seat(g, victim);
        inflict(g, seat, victim, amount, card);
        break;
    }
    case EF_WDD:
        if (g->pending == 0)
            start_turn(g, next_seat(g, seat));
        else
            inflict(g, seat, next_seat(g, seat), draw_amount(g, card), card);
        break;
    case EF_WMY: {
        int amount = draw_amount(g, card);
        if (amount == 0 && g->pending == 0)
            start_turn(g, next_seat(g, seat));
        else
            inflict(g, seat, next_seat(g, seat), amount, card);
        break;
    }
    case EF_WTP:
        target_practice(g, a);
        start_turn(g, next_seat(g, seat));
        break;
    case EF_SP:
        spread(g, seat);
        start_turn(g, seat);
        break;
    case EF_RS: {
        g->direction = -g->direction;
        int victim = next_seat(g, seat);
        start_turn(g, next_seat(g, victim));
        break;
    }
    case EF_SS: {
        int victim = next_seat(g, seat);
        if (g->players_in_hand > 2)
            victim = next_seat(g, victim);
        start_turn(g, next_seat(g, victim));
        break;
    }
    case EF_HOLY:
        if (g->pending) {
            g->pending_chal = 0;
            await_answer(g, next_seat(g, seat));
        } else {
            start_turn(g, next_seat(g, seat));
        }
        break;
    case EF_SCREW:
        if (g->pending) {
            int total = g->pending, source = g->pending_source;
            clear_pending(g);
            draw_cards(g, source, total);
        }
        start_turn(g, next_seat(g, seat));
        break;
    case EF_QUIT: {
        int pair[2] = {seat, a->target};
        leave_hand(g, pair, 2);
        int left[MAXP];
        int k = seats_in_hand(g, left);
        if (k >= 2) {
            start_turn(g, next_seat(g, seat));
        } else if (k == 1) {
            if (g->rank_len == 0)
                g->ranking[g->rank_len++] = left[0];
            end_hand(g, 0);
        } else {
            uint8_t none[MAXP] = {0};
            int scores[MAXP];
            hand_scores(g, none, scores);
            int first = scores[pair[1]] < scores[pair[0]]
                                || (scores[pair[1]] == scores[pair[0]] && pair[1] < pair[0])
                            ? pair[1]
                            : pair[0];
            g->ranking[g->rank_len++] = first;
            end_hand(g, 1);
        }
        break;
    }
    case EF_BLEND: {
        /* zeroed: gcc cannot see that seats_in_hand fills the k entries read */
        int seats[MAXP] = {0}, receivers[MAXP], moves[MAXP];
        int k = seats_in_hand(g, seats);
        random_derangement(g, seats, k, receivers);
        for (int s = 0; s < MAXP; s++)
            moves[s] = -1;
        for (int i = 0; i < k; i++)
            moves[seats[i]] = receivers[i];
        move_hands(g, moves);
        start_turn(g, next_seat(g, seat));
        break;
    }
    case EF_RAND: {
        int seats[MAXP];
        int k = seats_in_hand(g, seats);
        uint8_t pool[CAP];
        int len = 0;
        for (int i = 0; i < k; i++) {
            memcpy(pool + len, HAND(g, seats[i]), (size_t)HLEN(g, seats[i]));
            len += HLEN(g, seats[i]);
        }
        shuffle(&g->rng, pool, len);
        int at = 0;
        for (int i = 0; i < k; i++) {
            memcpy(HAND(g, seats[i]), pool + at, (size_t)HLEN(g, seats[i]));
            at += HLEN(g, seats[i]);
        }
        memset(g->owes, 0, sizeof g->owes);
        memset(g->false_uno, 0, sizeof g->false_uno);
        start_turn(g, next_seat(g, seat));
        break;
    }
    case EF_N7:
    case EF_TRADE: {
        int moves[MAXP];
        for (int s = 0; s < MAXP; s++)
            moves[s] = -1;
        moves[seat] = a->target;
        moves[a->target] = seat;
        move_hands(g, moves);
        start_turn(g, next_seat(g, seat));
        break;
    }
    case EF_N0: {
        int moves[MAXP];
        for (int s = 0; s < MAXP; s++)
            moves[s] = -1;
        for (int s = 0; s < g->n; s++)
            if (g->active[s])
                moves[s] = next_seat(g, s);
        move_hands(g, moves);
        start_turn(g, next_seat(g, seat));
        break;
    }
    case EF_CHAIRS: {
        /* zeroed: gcc cannot see that the loop fills the n entries read */
        int places[MAXP] = {0}, new_places[MAXP], seating[MAXP];
        for (int i = 0; i < g->n; i++)
            places[i] = i;
        random_derangement(g, places, g->n, new_places);
        for (int i = 0; i < g->n; i++)
            seating[new_places[i]] = g->seating[i];
        reseat(g, seating);
        start_turn(g, next_seat(g, seat));
        break;
    }
    case EF_DANCE:
        if (a->target >= 0) {
            int seating[MAXP];
            memcpy(seating, g->seating, sizeof seating);
            int x = g->position[seat], y = g->position[a->target];
            int t = seating[x];
            seating[x] = seating[y];
            seating[y] = t;
            reseat(g, seating);
        }
        start_turn(g, next_seat(g, seat));
        break;
    case EF_NAGA: {
        g->lock = seat;
        int other = seat;
        do {
            int count = HLEN(g, other);
            if (count)
                draw_cards(g, other, count);
            other = next_seat(g, other);
        } while (other != seat);
        start_turn(g, next_seat(g, seat));
        break;
    }
    default: /* N, W, CL, RR, KOBE, SPY (what it reveals only views show), DUNG */
        start_turn(g, next_seat(g, seat));
    }
}

/* The effect's last_card: only draws apply (a Nagasaki does what its rule says). */
static void effect_last(Game *g, int seat, int card, const Act *a)
{
    const Rules *r = g->r;
    int effect = r->effect[card];
    switch (effect) {
    case EF_D2:
    case EF_W4:
    case EF_D4:
    case EF_WDD:
    case EF_WMY: {
        int extra = draw_amount(g, card);
        if (extra || g->pending)
            take_penalty(g, next_seat(g, seat), extra);
        break;
    }
    case EF_RD2:
    case EF_WR4: {
        int extra = draw_amount(g, card);
        if (extra || g->pending)
            take_penalty(g, next_seat_dir(g, seat, 1, -g->direction), extra);
        break;
    }
    case EF_DB2:
    case EF_WB4: {
        int extra = draw_amount(g, card);
        if (extra || g->pending)
            take_penalty(g, next_seat_dir(g, seat, g->players_in_hand > 2 ? 2 : 1,
                                          g->direction), extra);
        break;
    }
    case EF_SP:
        spread(g, seat);
        break;
    case EF_WTP:
        target_practice(g, a);
        break;
    default:
        break;
    }
}

static void last_card(Game *g, int seat, int card, const Act *a)
{
    g->pending_guilty = 0;
    if (g->r->effect[card] == EF_NAGA) {
        g->lock = seat;
        draw_cards(g, seat, 2);
        start_turn(g, next_seat(g, seat));
        return;
    }
    g->ranking[g->rank_len++] = seat;
    if (SW(g, S_FINISH) == 1 && g->players_in_hand > 2) {
        g->active[seat] = 0;
        g->players_in_hand--;
        g->owes[seat] = g->false_uno[seat] = 0;
        start_turn(g, next_seat(g, seat));
        effect_last(g, seat, card, a);
        return;
    }
    effect_last(g, seat, card, a);
    end_hand(g, 0);
}

static void play_card(Game *g, int seat, const Act *a)
{
    const Rules *r = g->r;
    int card = a->card;
    if (r->wd4[card]) {
        g->pending_guilty = is_bluff(g, seat, card);
        g->pending_prev = g->color;
    }
    remove_card(HAND(g, seat), &HLEN(g, seat), card);
    g->discard[g->dlen++] = (uint8_t)card;
    g->discard_points[seat] += r->points[card];
    if (r->wild[card])
        g->color = a->color;
    else if (r->effect[card] != EF_NAGA && !(is_reaction(r, card) && g->pending > 0))
        g->color = r->color[card];
    g->drawn = -1;
    int recycled = g->rlen[seat] && remove_card(g->recycled[seat], &g->rlen[seat], card);
    if (recycled)
        g->idle++;
    else
        g->idle = 0;
    if (HLEN(g, seat) == 0) {
        last_card(g, seat, card, a);
        return;
    }
    effect_play(g, seat, card, a);
    if (recycled && g->idle >= g->players_in_hand && !is_over(g)) {
        end_blocked(g);
        return;
    }
    if (HLEN(g, seat) == 1) {
        if (a->uno || SW(g, S_UNO_CALL) == 1) {
            g->called[seat] = 1;
            g->owes[seat] = 0;
        } else {
            g->called[seat] = 0;
            g->owes[seat] = 1;
        }
    } else if (a->uno && SW(g, S_FALSE_UNO)) {
        g->false_uno[seat] = 1;
    }
}

static void start_hand(Game *g, int dealer);

/* A turn action closes UNO windows: everybody else's (next_turn), or her own; under
 * uno_penalty=auto a call still owed then costs 2 cards. Done twice, the second does
 * nothing. */
static void close_uno_windows(Game *g, int seat)
{
    int auto_penalty = SW(g, S_UNO_PENALTY) == 1;
    for (int o = 0; o < g->n; o++) {
        if (SW(g, S_UNO_WINDOW) == 0 ? o == seat : o != seat)
            continue;
        if (auto_penalty && g->owes[o] && HLEN(g, o) == 1)
            draw_cards(g, o, 2);
        g->owes[o] = g->false_uno[o] = 0;
    }
}

static void apply(Game *g, int seat, const Act *a)
{
    int kind = a->kind;
    if (kind <= A_CHALLENGE)
        close_uno_windows(g, seat);
    switch (kind) {
    case A_PLAY:
        play_card(g, seat, a);
        break;
    case A_DRAW:
        if (g->phase == PH_PENALTY) {
            take_penalty(g, seat, 0);
        } else {
            int got = draw_cards(g, seat, 1);
            if (SW(g, S_DUP)) {
                while (got && !honest(g, seat, HAND(g, seat)[HLEN(g, seat) - 1])
                       && can_draw(g))
                    got = draw_cards(g, seat, 1);
            }
            int card = got ? HAND(g, seat)[HLEN(g, seat) - 1] : -1;
            if (card >= 0 && SW(g, S_PLAY_DRAWN) != PD_NEVER && matches(g, seat, card)
                && (SW(g, S_CHALLENGE) || !is_bluff(g, seat, card))) {
                g->phase = PH_DRAWN;
                g->drawn = card;
            } else {
                start_turn(g, next_seat(g, seat));
            }
        }
        break;
    case A_PASS:
        if (g->phase == PH_PLAY) {
            if (++g->idle >= g->players_in_hand) {
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
    case A_CHALLENGE: {
        int accused = g->pending_source, total = g->pending;
        clear_pending(g);
        if (g->pending_guilty) {
            draw_cards(g, accused, total);
            if (SW(g, S_GUILTY_COLOR) == 1)
                g->color = g->pending_prev;
            start_turn(g, seat);
        } else {
            draw_cards(g, seat, total + 2);
            start_turn(g, next_seat(g, seat));
        }
        break;
    }
    case A_UNO:
        if (HLEN(g, seat) == 1) {
            if (g->owes[seat]) {
                g->owes[seat] = 0;
                g->called[seat] = 1;
            }
        } else if (SW(g, S_FALSE_UNO)) {
            g->false_uno[seat] = 1;
        }
        break;
    case A_CATCH:
        if (catchable(g, a->target)) {
            g->owes[a->target] = g->false_uno[a->target] = 0;
            draw_cards(g, a->target, 2);
        } else {
            draw_cards(g, seat, 2);
        }
        break;
    case A_DEAL:
        start_hand(g, g->seating[(g->position[g->dealer] + 1) % g->n]);
        break;
    }
}

/* ----------------------------------------------------------- legal actions */

/* Target Practice's listed splits (TargetPracticeWild.target_options): every multiset of
 * `count` picks among `others` in lexicographic order, or past MAX_SPLITS, each player
 * taking all and then the even split. Returns how many; splits[i] holds counts per seat. */
static int tp_splits(const Game *g, int seat, int16_t (*splits)[MAXP])
{
    int others[MAXP], m = 0;
    for (int s = 0; s < g->n; s++)
        if (g->active[s] && s != seat)
            others[m++] = s;
    if (m == 0) {
        memset(splits[0], 0, sizeof splits[0]);
        return 1;
    }
    int count = 4 + g->pending;
    /* C(m + count - 1, count) > MAX_SPLITS ? (computed without overflow) */
    long total = 1;
    int many = 0;
    for (int i = 1; i <= m - 1; i++) {
        total = total * (count + i) / i;
        if (total > MAX_SPLITS) {
            many = 1;
            break;
        }
    }
    int k = 0;
    if (many) {
        for (int o = 0; o < m; o++) {
            memset(splits[k], 0, sizeof splits[k]);
            splits[k++][others[o]] = (int16_t)count;
        }
        memset(splits[k], 0, sizeof splits[k]);
        for (int i = 0; i < count; i++)
            splits[k][others[i % m]]++;
        return k + 1;
    }
    if (m == 1) { /* one way, whatever the count */
        memset(splits[0], 0, sizeof splits[0]);
        splits[0][others[0]] = (int16_t)count;
        return 1;
    }
    /* Non-decreasing index sequences of length count over 0..m-1, in order; with m >= 2
     * and at most MAX_SPLITS of them, count + 1 <= MAX_SPLITS. */
    int idx[MAX_SPLITS];
    for (int i = 0; i < count; i++)
        idx[i] = 0;
    while (1) {
        memset(splits[k], 0, sizeof splits[k]);
        for (int i = 0; i < count; i++)
            splits[k][others[idx[i]]]++;
        k++;
        int i = count - 1;
        while (i >= 0 && idx[i] == m - 1)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < count; j++)
            idx[j] = idx[i];
    }
    return k;
}

/* The ways `seat` can aim `card`: its Target Practice splits (returns their number, nt
 * 0), or its targets (-1: none; returns 0, nt their number). Each is played in each of
 * its colors (a wild's four, else -1), splits and targets in this order, colors inside. */
static inline int play_targets(const Game *g, int seat, int card, int *targets, int *nt,
                               int16_t (*splits)[MAXP])
{
    int effect = g->r->effect[card];
    *nt = 0;
    if (effect == EF_WTP)
        return tp_splits(g, seat, splits);
    if (effect == EF_N7 || effect == EF_TRADE || effect == EF_QUIT || effect == EF_SPY
        || effect == EF_DANCE) {
        if (effect == EF_DANCE)
            targets[(*nt)++] = -1;
        for (int s = 0; s < g->n; s++)
            if (g->active[s] && s != seat)
                targets[(*nt)++] = s;
    } else {
        targets[(*nt)++] = -1;
    }
    return 0;
}

/* The play of `card` in `color`, calling UNO or not, at `target` or (Target Practice) with
 * the cards of `split` (NULL: none). */
static inline Act aimed_play(int card, int color, int uno, int target, const int16_t *split)
{
    Act a = {A_PLAY, card, color, uno, target, 0, {0}};
    if (split) {
        for (int s = 0; s < MAXP; s++)
            a.npicks += split[s];
        memcpy(a.picks, split, sizeof a.picks);
    }
    return a;
}

static int add_plays(const Game *g, Act *out, int k, int seat, int card, int uno)
{
    int targets[MAXP + 1], nt;
    int16_t splits[MAX_SPLITS + MAXP + 1][MAXP];
    int nsplits = play_targets(g, seat, card, targets, &nt, splits);
    int wild = g->r->wild[card];
    for (int way = 0; way < (nsplits ? nsplits : nt); way++)
        for (int c = wild ? 0 : -1; c < (wild ? 4 : 0); c++)
            for (int u = 0; u <= uno; u++)
                out[k++] = aimed_play(card, c, u, nsplits ? -1 : targets[way],
                                      nsplits ? splits[way] : NULL);
    return k;
}

/* One playable card: its plays (expand), or one entry standing for them all (kind
 * A_PLAY, color and target -1), which choose_greedy expands as it scores them. */
static inline int add_card(const Game *g, Act *out, int k, int seat, int card, int uno,
                           int expand)
{
    if (expand)
        return add_plays(g, out, k, seat, card, uno);
    out[k] = (Act){A_PLAY, card, -1, uno, -1, 0, {0}};
    return k + 1;
}

/* Game.legal_actions(seat), in its order; with expand 0, one entry a playable card. */
static int list_actions(const Game *g, int seat, Act *out, int expand)
{
    const Rules *r = g->r;
    int k = 0;
    if (g->phase == PH_MATCH_OVER)
        return 0;
    if (g->phase == PH_HAND_OVER) {
        out[k++] = (Act){A_DEAL, -1, -1, 0, -1, 0, {0}};
        return k;
    }
    if (!g->active[seat])
        return 0;
    const uint8_t *hand = HAND(g, seat);
    int len = HLEN(g, seat);
    int uno = len == 2 && SW(g, S_UNO_CALL) == 0;
    int challenge_on = SW(g, S_CHALLENGE);
    uint64_t seen[2] = {0, 0};
    if (seat == g->to_act) {
        if (g->phase == PH_PLAY) {
            int any_honest = 0;
            int lock = r->has_locks && locked(g, seat);
            for (int i = 0; i < len; i++) {
                int c = hand[i];
                uint64_t bit = 1ULL << (c & 63);
                if ((seen[c >> 6] & bit) || !matches_with(g, seat, c, lock))
                    continue;
                seen[c >> 6] |= bit;
                int bluff = is_bluff(g, seat, c);
                any_honest = any_honest || !bluff;
                if (!bluff || challenge_on)
                    k = add_card(g, out, k, seat, c, uno, expand);
            }
            if (SW(g, S_VOLUNTARY) || !any_honest)
                out[k++] = (Act){can_draw(g) ? A_DRAW : A_PASS, -1, -1, 0, -1, 0, {0}};
        } else if (g->phase == PH_DRAWN) {
            int bluff = is_bluff(g, seat, g->drawn);
            if (!bluff || challenge_on)
                k = add_card(g, out, k, seat, g->drawn, uno, expand);
            if (bluff || SW(g, S_PLAY_DRAWN) != PD_MUST)
                out[k++] = (Act){A_PASS, -1, -1, 0, -1, 0, {0}};
        } else if (g->phase == PH_PENALTY) {
            out[k++] = (Act){A_DRAW, -1, -1, 0, -1, 0, {0}};
            if (challenge_on && g->pending_chal)
                out[k++] = (Act){A_CHALLENGE, -1, -1, 0, -1, 0, {0}};
            for (int i = 0; i < len; i++) {
                int c = hand[i];
                uint64_t bit = 1ULL << (c & 63);
                if ((seen[c >> 6] & bit) || !stack_answers(g, seat, c))
                    continue;
                seen[c >> 6] |= bit;
                if (challenge_on || !is_bluff(g, seat, c))
                    k = add_card(g, out, k, seat, c, uno, expand);
            }
        } else if (g->phase == PH_COLOR) {
            for (int c = 0; c < 4; c++)
                out[k++] = (Act){A_COLOR, -1, c, 0, -1, 0, {0}};
        }
    } else if (SW(g, S_JUMP_IN) && g->phase == PH_PLAY) {
        int top = TOP(g);
        if (!r->wild[top] && r->color[top] >= 0 && matches(g, seat, top)) {
            for (int i = 0; i < len; i++) {
                if (hand[i] == top) {
                    k = add_card(g, out, k, seat, top, uno, expand);
                    break;
                }
            }
        }
    }
    if (g->owes[seat] && len == 1)
        out[k++] = (Act){A_UNO, -1, -1, 0, -1, 0, {0}};
    for (int o = 0; o < g->n; o++)
        if (o != seat && catchable(g, o))
            out[k++] = (Act){A_CATCH, -1, -1, 0, o, 0, {0}};
    return k;
}

static int legal_actions(const Game *g, int seat, Act *out)
{
    return list_actions(g, seat, out, 1);
}

/* ------------------------------------------------------------------ policies */

/* A generator the random policy draws from: SplitMix64 (fast.choose) or a Twister
 * (random.Random, as the random bot). */
typedef struct {
    uint64_t *split;
    Twister *twister;
} Draw;

static inline uint32_t draw_below(Draw *d, uint32_t n)
{
    return d->twister ? mt_below(d->twister, n) : below(d->split, n);
}

static inline int same_play(const Act *x, const Act *y)
{
    return x->card == y->card && x->color == y->color && x->target == y->target
           && x->npicks == y->npicks
           && (x->npicks == 0 || memcmp(x->picks, y->picks, sizeof x->picks) == 0);
}

/* fast.choose (random_bot.pick) on the legal actions of the seat to act. */
static Act choose(const Game *g, Draw *d)
{
    Act legal[MAXACT];
    int k = legal_actions(g, g->to_act, legal);
    int m = 0, uno_variants = 0;
    for (int i = 0; i < k; i++) {
        if (legal[i].kind == A_UNO)
            return legal[i];
        uno_variants |= legal[i].kind == A_PLAY && legal[i].uno;
    }
    /* The plays, in place at the front (one per (card, color, targets), the variant that
     * calls UNO kept in the place of the first: the variants are listed side by side). */
    int first_kind = legal[0].kind;
    Act other[4];
    int n_other = 0;
    for (int i = 0; i < k; i++) {
        if (legal[i].kind != A_PLAY) {
            if (n_other < 4 && (legal[i].kind == A_DRAW || legal[i].kind == A_PASS
                                || legal[i].kind == A_DEAL))
                other[n_other++] = legal[i];
            continue;
        }
        if (uno_variants && m && same_play(&legal[m - 1], &legal[i])) {
            if (legal[i].uno)
                legal[m - 1] = legal[i];
            continue;
        }
        legal[m++] = legal[i];
    }
    if (m)
        return m > 1 ? legal[draw_below(d, (uint32_t)m)] : legal[0];
    if (first_kind == A_COLOR)
        return legal[draw_below(d, (uint32_t)k)];
    int order[3] = {A_DRAW, A_PASS, A_DEAL};
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < n_other; i++)
            if (other[i].kind == order[o])
                return other[i];
    return legal[0];
}

/* The random bot when the engine waits for it: pick() on its legal actions less catches. */
static Act choose_bot(const Game *g, Twister *t)
{
    Draw d = {NULL, t};
    if (g->phase == PH_COLOR) /* four colors, then catches: the bot leaves the catches */
        return (Act){A_COLOR, -1, (int)mt_below(t, 4), 0, -1, 0, {0}};
    return choose(g, &d);
}

/* The greedy rollout policy (fast.choose_greedy): the heuristic bot's judgment, scored
 * over the core's own legal actions (legality is never decided here), on every rule set
 * the core plays. Scores are the heuristic's times 100. */
#define DANGER 2

static void color_strength(const Game *g, int seat, int count[4], int value[4])
{
    const Rules *r = g->r;
    for (int c = 0; c < 4; c++)
        count[c] = value[c] = 0;
    const uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < HLEN(g, seat); i++) {
        int card = hand[i];
        if (r->color[card] >= 0 && !r->wild[card]) {
            count[r->color[card]]++;
            value[r->color[card]] += r->points[card];
        }
    }
}

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

static int hand_points_of(const Game *g, int seat)
{
    int total = 0;
    for (int i = 0; i < HLEN(g, seat); i++)
        total += g->r->points[HAND(g, seat)[i]];
    return total;
}

/* Per card moved into a hand by a swap (seven-zero's 7, Trader Joe, Blender): swapping a
 * big hand for a small one is worth more than a wild kept. */
#define SWAP_CARD 600

/* The score of a play by `seat` (fast.greedy_score), in parts that choose_greedy adds up
 * once for each of a card's plays: the card's own, its color's, its target's and its
 * Target Practice picks'. */
typedef struct {
    const Game *g;
    int seat, danger, next_close, answer, rest;
    const int *count, *value;
} Judge;

static long score_card(const Judge *j, int c)
{
    const Game *g = j->g;
    const Rules *r = g->r;
    int effect = r->effect[c], wild = r->wild[c], points = r->points[c];
    long score = j->danger ? points * 50L : points * 4L;
    if (j->answer)
        score += 10000; /* any answer beats taking the penalty */
    else if (wild && !j->danger)
        score -= draw_family(r, c) == PK_WILD ? 5000 : 4000;
    if (j->next_close && r->action_face[c])
        score += 3000;
    switch (effect) {
    case EF_BLEND: {
        int others = 0, total = 0;
        for (int s = 0; s < g->n; s++)
            if (g->active[s] && s != j->seat) {
                others++;
                total += HLEN(g, s);
            }
        if (others)
            score += SWAP_CARD * (long)(j->rest * others - total) / others;
        break;
    }
    case EF_HOLY:
    case EF_SCREW:
        if (!j->answer)
            score -= 1000; /* kept for a wild draw aimed at its holder */
        break;
    case EF_NAGA:
        if (!j->danger)
            score -= 4000;
        break;
    default:
        break;
    }
    return score;
}

/* The color the play leaves (`color`: the one a wild names) and what it is worth. */
static long score_color(const Judge *j, int c, int color)
{
    const Rules *r = j->g->r;
    int wild = r->wild[c];
    int col = wild ? color : r->color[c];
    if (col < 0 || (j->answer && is_reaction(r, c)))
        col = j->g->color; /* Colourless, Nagasaki, a reaction: the color stays */
    if (col < 0)
        return 0;
    int own = !wild && r->color[c] == col;
    return (j->count[col] - own) * 200L + j->value[col] - (own ? r->points[c] : 0);
}

static long score_target(const Judge *j, int c, int target)
{
    const Game *g = j->g;
    switch (g->r->effect[c]) {
    case EF_N7:
    case EF_TRADE:
        return SWAP_CARD * (long)(j->rest - HLEN(g, target));
    case EF_QUIT: /* heads-up, the lower hand wins; with more, both are out of the race */
        if (g->players_in_hand == 2
            && hand_points_of(g, j->seat) - g->r->points[c] < hand_points_of(g, target))
            return 3000;
        return -6000;
    default:
        return 0;
    }
}

/* Target Practice: the cards to the players closest to going out. */
static long score_picks(const Judge *j, const int16_t *picks)
{
    long score = 0;
    for (int s = 0; s < j->g->n; s++)
        if (picks[s])
            score -= 50L * picks[s] * (HLEN(j->g, s) < 10 ? HLEN(j->g, s) : 10);
    return score;
}

static Judge judge_of(const Game *g, int seat, const int count[4], const int value[4],
                      int danger, int next_close)
{
    return (Judge){g, seat, danger, next_close, g->phase == PH_PENALTY, HLEN(g, seat) - 1,
                   count, value};
}

/* The heuristic bot's challenge (heuristic.HeuristicBot.bluff_odds above 0.45), from
 * what the challenger can count: her own hand and the discard pile are known; the
 * accused's hand is drawn from the rest. The color before the Wild Draw Four counts
 * heads-up (the challenger saw it), else the chance is averaged over the four colors (at
 * more seats a heuristic player has seldom seen it). See fast.greedy_challenges. */
#define CHALLENGE_ODDS 0.45

static int greedy_challenges(const Game *g, int seat)
{
    const Rules *r = g->r;
    int per[4];
    memcpy(per, r->deck_colors, sizeof per);
    const uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < HLEN(g, seat); i++)
        if (r->color[hand[i]] >= 0)
            per[r->color[hand[i]]]--;
    for (int i = 0; i < g->dlen; i++)
        if (r->color[g->discard[i]] >= 0)
            per[r->color[g->discard[i]]]--;
    int pool = r->deck_len - HLEN(g, seat) - g->dlen;
    int accused = g->pending_source;
    int held = accused >= 0 ? HLEN(g, accused) : 0;
    int colors[4], k = 0;
    if (g->players_in_hand == 2 && g->pending_prev >= 0)
        colors[k++] = g->pending_prev;
    else
        for (int c = 0; c < 4; c++)
            colors[k++] = c;
    double odds = 0.0;
    for (int i = 0; i < k; i++) {
        double none = 1.0;
        int of_color = per[colors[i]];
        for (int j = 0; j < held; j++) {
            if (pool - j <= 0)
                break;
            int rest = pool - of_color - j;
            none *= (double)(rest > 0 ? rest : 0) / (double)(pool - j);
        }
        odds += 1.0 - none;
    }
    return odds / k > CHALLENGE_ODDS;
}

static Act choose_greedy(const Game *g, uint64_t *policy, int challenges)
{
    const Rules *r = g->r;
    int seat = g->to_act;
    Act legal[MAXACT];
    int k = list_actions(g, seat, legal, 0);
    int draw = -1, pass = -1, plays = 0;
    for (int i = 0; i < k; i++) {
        int kind = legal[i].kind;
        if (kind == A_UNO)
            return legal[i];
        if (kind == A_DRAW && draw < 0)
            draw = i;
        else if (kind == A_PASS && pass < 0)
            pass = i;
        plays += kind == A_PLAY;
    }
    int count[4], value[4];
    if (g->phase == PH_COLOR) {
        color_strength(g, seat, count, value);
        Act a = {A_COLOR, -1, strongest_color(count, value, policy), 0, -1, 0, {0}};
        return a;
    }
    int len = HLEN(g, seat);
    int danger = 0;
    for (int o = 0; o < g->n; o++)
        if (o != seat && g->active[o] && HLEN(g, o) <= DANGER)
            danger = 1;
    if (g->phase == PH_DRAWN && pass >= 0 && r->wild[g->drawn] && len > 3 && !danger)
        return legal[pass]; /* a drawn wild is kept in a big hand */
    if (!plays && challenges && g->phase == PH_PENALTY && greedy_challenges(g, seat))
        for (int i = 0; i < k; i++)
            if (legal[i].kind == A_CHALLENGE)
                return legal[i];
    if (!plays)
        return legal[draw >= 0 ? draw : pass >= 0 ? pass : 0];
    int targets[MAXP + 1], nt;
    int16_t splits[MAX_SPLITS + MAXP + 1][MAXP];
    if (plays == 1) { /* one card of one color and one way: nothing to score, and no tie
                       * is drawn, so the generator is as it was */
        int i = 0;
        while (legal[i].kind != A_PLAY)
            i++;
        int c = legal[i].card;
        if (!r->wild[c] && !play_targets(g, seat, c, targets, &nt, splits) && nt == 1)
            return aimed_play(c, -1, legal[i].uno, targets[0], NULL);
    }
    color_strength(g, seat, count, value);
    int following = next_seat(g, seat);
    int next_close = following != seat && HLEN(g, following) <= DANGER;
    /* Every play of every card, scored in legal_actions' order (the ties' order): the
     * listing has one entry a card, expanded here, its parts scored once each. Where a
     * play may call UNO (the entry's uno) only the plays that call it are played. */
    Judge j = judge_of(g, seat, count, value, danger, next_close);
    typedef struct {
        int entry, way, color;
    } Play;
    Play best[MAXACT];
    int m = 0;
    long best_score = 0;
    for (int i = 0; i < k; i++) {
        if (legal[i].kind != A_PLAY)
            continue;
        int c = legal[i].card, wild = r->wild[c], colors = wild ? 4 : 1;
        int nsplits = play_targets(g, seat, c, targets, &nt, splits);
        long card = score_card(&j, c), by_color[4];
        for (int col = 0; col < colors; col++)
            by_color[col] = score_color(&j, c, wild ? col : -1);
        for (int way = 0; way < (nsplits ? nsplits : nt); way++) {
            long aimed = card + (nsplits ? score_picks(&j, splits[way])
                                         : score_target(&j, c, targets[way]));
            for (int col = 0; col < colors; col++) {
                long score = aimed + by_color[col];
                if (m == 0 || score > best_score) {
                    best_score = score;
                    m = 0;
                }
                if (score == best_score)
                    best[m++] = (Play){i, way, wild ? col : -1};
            }
        }
    }
    Play chosen = best[m > 1 ? below(policy, (uint32_t)m) : 0];
    int card = legal[chosen.entry].card;
    int nsplits = play_targets(g, seat, card, targets, &nt, splits);
    return aimed_play(card, chosen.color, legal[chosen.entry].uno,
                      nsplits ? -1 : targets[chosen.way], nsplits ? splits[chosen.way] : NULL);
}

/* Under jump_in, the greedy players who hold the top card play it out of turn (the
 * heuristic always does), the next seat first; returns how many did. */
static long greedy_jump_ins(Game *g)
{
    long jumps = 0;
    Act legal[MAXACT];
    int again = 1;
    while (again && !is_over(g) && g->phase == PH_PLAY) {
        again = 0;
        int seat = g->to_act;
        for (int step = 1; step < g->n && !again; step++) {
            int o = next_seat_dir(g, seat, step, g->direction);
            if (o == seat)
                break;
            int k = legal_actions(g, o, legal);
            int want = HLEN(g, o) == 2 && SW(g, S_UNO_CALL) == 0;
            for (int i = 0; i < k; i++) {
                if (legal[i].kind == A_PLAY && legal[i].uno == want) {
                    apply(g, o, &legal[i]);
                    jumps++;
                    again = 1;
                    break;
                }
            }
        }
    }
    return jumps;
}

/* ------------------------------------------------------------------ dealing */

/* Game._start_hand. */
static void start_hand(Game *g, int dealer)
{
    const Rules *r = g->r;
    int n = g->n;
    if (SW(g, S_FIRST_PLAYER) == 1)
        dealer = g->seating[below(&g->rng, (uint32_t)n)];
    g->hand_number++;
    g->dealer = dealer;
    g->direction = 1;
    for (int s = 0; s < n; s++) {
        g->hidx[s] = s;
        g->hlen[s] = 0;
        g->alen[s] = 0;
        g->rlen[s] = 0;
        g->active[s] = 1;
        g->discard_points[s] = 0;
        g->owes[s] = g->called[s] = g->false_uno[s] = 0;
    }
    g->players_in_hand = n;
    g->dlen = 0;
    g->color = -1;
    g->to_act = -1;
    g->phase = PH_PLAY;
    clear_pending(g);
    g->pending_source = -1;
    g->pending_guilty = 0;
    g->pending_prev = -1;
    g->drawn = -1;
    g->idle = 0;
    g->rank_len = 0;
    g->lock = -1;
    g->hand_winner = -1;
    memcpy(g->pile, r->deck, (size_t)r->deck_len);
    g->plen = r->deck_len;
    shuffle(&g->rng, g->pile, g->plen);
    int start = g->position[dealer] + 1;
    for (int i = 0; i < r->hand_size * n; i++) {
        int seat = g->seating[(start + i) % n];
        HAND(g, seat)[HLEN(g, seat)++] = g->pile[--g->plen];
    }
    int card = -1;
    for (int tries = g->plen; tries > 0; tries--) {
        card = g->pile[--g->plen];
        int where = r->first[card];
        if (where == FIRST_STAYS)
            break;
        if (where == FIRST_BOTTOM) {
            memmove(g->pile + 1, g->pile, (size_t)g->plen);
            g->pile[0] = (uint8_t)card;
            g->plen++;
        } else {
            g->pile[g->plen++] = (uint8_t)card;
            shuffle(&g->rng, g->pile, g->plen);
        }
    }
    g->discard[0] = (uint8_t)card;
    g->dlen = 1;
    g->color = r->color[card];
    int first = next_seat(g, dealer);
    switch (r->effect[card]) {
    case EF_N:
    case EF_W: /* one effect (Plain): a wild turned up first has its color named */
        if (r->wild[card]) {
            g->to_act = first;
            g->phase = PH_COLOR;
            g->color = -1;
        } else {
            start_turn(g, first);
        }
        break;
    case EF_S:
        start_turn(g, next_seat(g, first));
        break;
    case EF_R:
        g->direction = -g->direction;
        start_turn(g, g->dealer);
        break;
    case EF_D2:
        draw_cards(g, first, 2);
        start_turn(g, next_seat(g, first));
        break;
    default:
        start_turn(g, first);
    }
}

/* Game.__init__: seats in order, scores 0, the first hand dealt by dealer. */
static void new_game(Game *g, const Rules *r, uint64_t seed, int dealer)
{
    memset(g, 0, sizeof *g);
    g->r = r;
    g->n = r->n;
    g->rng = seed;
    g->winner = -1;
    for (int s = 0; s < g->n; s++)
        g->seating[s] = g->position[s] = s;
    start_hand(g, dealer);
}

/* POLICY_CHALLENGING: the greedy policy that also challenges as the heuristic bot does. */
enum { POLICY_RANDOM = 0, POLICY_GREEDY = 1, POLICY_CHALLENGING = 2 };

/* Plays the hand to its end; returns the number of moves, or -1 past limit. */
static long play_out_with(Game *g, uint64_t *policy, int kind, long limit)
{
    long moves = 0;
    Draw d = {policy, NULL};
    while (!is_over(g)) {
        if (moves >= limit)
            return -1;
        int seat = g->to_act;
        Act a = kind == POLICY_RANDOM ? choose(g, &d)
                                      : choose_greedy(g, policy, kind == POLICY_CHALLENGING);
        apply(g, seat, &a);
        moves++;
        if (kind != POLICY_RANDOM && SW(g, S_JUMP_IN))
            moves += greedy_jump_ins(g);
    }
    return moves;
}

/* ------------------------------------------------------ cards from Python objects */

/* The engine's Card objects are interned: set_cards() registers ALL_CARDS (strong
 * references, so their addresses stay theirs) and a card is then found by its address.
 * Any other object is read by its `code` attribute. */
#define CARD_SLOTS 512
static PyObject *card_objects[CARD_SLOTS];
static int16_t card_object_ids[CARD_SLOTS];
static char card_codes[MAXK][8];
static int n_cards = 0;

static inline unsigned card_slot(PyObject *obj)
{
    uintptr_t p = (uintptr_t)obj;
    return (unsigned)((p >> 4) ^ (p >> 13)) & (CARD_SLOTS - 1);
}

static int card_of_code(const char *code)
{
    for (int i = 0; i < n_cards; i++)
        if (strcmp(card_codes[i], code) == 0)
            return i;
    return -1;
}

/* The card id of a Card object; -1 with an exception set if it is no card. */
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
    if (id < 0 && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: %R is not a card", what, obj);
    Py_DECREF(code);
    return id;
}

static PyObject *py_set_cards(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) > MAXK) {
        PyErr_Format(PyExc_TypeError, "set_cards: expected a tuple of at most %d cards", MAXK);
        return NULL;
    }
    int count = (int)PyTuple_GET_SIZE(arg);
    char codes[MAXK][8];
    for (int id = 0; id < count; id++) {
        PyObject *code = PyObject_GetAttrString(PyTuple_GET_ITEM(arg, id), "code");
        if (code == NULL)
            return NULL;
        const char *text = PyUnicode_Check(code) ? PyUnicode_AsUTF8(code) : NULL;
        if (text == NULL || strlen(text) >= sizeof codes[0]) {
            Py_DECREF(code);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "set_cards: item %d has no short code", id);
            return NULL;
        }
        strcpy(codes[id], text);
        Py_DECREF(code);
    }
    for (int i = 0; i < CARD_SLOTS; i++)
        Py_CLEAR(card_objects[i]);
    memcpy(card_codes, codes, sizeof codes);
    n_cards = count;
    for (int id = 0; id < count; id++) {
        PyObject *obj = PyTuple_GET_ITEM(arg, id);
        unsigned slot = card_slot(obj);
        while (card_objects[slot] != NULL && card_objects[slot] != obj)
            slot = (slot + 1) & (CARD_SLOTS - 1);
        if (card_objects[slot] == NULL) {
            Py_INCREF(obj);
            card_objects[slot] = obj;
            card_object_ids[slot] = (int16_t)id;
        }
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ compile_rules */

static int text_is(PyObject *obj, const char *text)
{
    return PyUnicode_Check(obj) && PyUnicode_CompareWithASCIIString(obj, text) == 0;
}

/* A switch's number in Rules.sw from its Python value; -1 with a ValueError if the core
 * does not play it. */
static int switch_value(const SwitchSpec *spec, PyObject *value)
{
    switch (spec->kind) {
    case SW_BOOL: {
        if (!PyBool_Check(value))
            break;
        int v = value == Py_True;
        if (spec->bools & (1 << v))
            return v;
        break;
    }
    case SW_CHOICE:
        for (int i = 0; spec->choices[i] != NULL; i++)
            if (text_is(value, spec->choices[i]))
                return i;
        break;
    case SW_COUNT: {
        if (!PyLong_Check(value) || PyBool_Check(value))
            break;
        long v = PyLong_AsLong(value);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            break;
        }
        if (v > 0 && v <= 1000000000L)
            return (int)v;
        break;
    }
    case SW_SEATS:
        return 0; /* the seats of a game are checked where it is played */
    case SW_CARDS:
        return 0; /* the deck comes as the card table: each card's effect is checked there */
    }
    PyErr_Format(PyExc_ValueError, "the C core does not play %s=%R", spec->name, value);
    return -1;
}

static int dict_int(PyObject *dict, const char *key, int low, int high, int *out)
{
    PyObject *value = PyDict_GetItemString(dict, key);
    if (value == NULL || !PyLong_Check(value)) {
        PyErr_Format(PyExc_ValueError, "card table: %s is missing or not a number", key);
        return -1;
    }
    long v = PyLong_AsLong(value);
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "card table: %s=%ld is out of range %d-%d", key, v, low,
                     high);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* compile_rules(switches, cards, deck, hand_size, players) -> bytes: the rule set as the
 * core plays it. switches: RuleSet.to_dict() without "preset"; cards: card id -> dict of
 * color, face, number, points, wild, wd4, action_face (numbers), effect and first (text);
 * deck: card ids in RuleSet.deck() order. */
static PyObject *py_compile_rules(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *switches, *cards, *deck;
    int hand_size, players;
    if (!PyArg_ParseTuple(args, "O!O!Oii:compile_rules", &PyDict_Type, &switches,
                          &PyDict_Type, &cards, &deck, &hand_size, &players))
        return NULL;
    Rules r;
    memset(&r, 0, sizeof r);
    r.magic = RULES_MAGIC;
    if (players < 2 || players > MAXP) {
        PyErr_Format(PyExc_ValueError, "the C core seats 2 to %d players, not %d", MAXP,
                     players);
        return NULL;
    }
    r.n = players;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int given[NSWITCHES] = {0};
    while (PyDict_Next(switches, &pos, &key, &value)) {
        int found = -1;
        for (int i = 0; i < NSWITCHES; i++)
            if (text_is(key, SWITCH_SPECS[i].name))
                found = i;
        if (found < 0) {
            PyErr_Format(PyExc_ValueError, "the C core does not know the switch %R", key);
            return NULL;
        }
        int v = switch_value(&SWITCH_SPECS[found], value);
        if (v < 0)
            return NULL;
        r.sw[found] = v;
        given[found] = 1;
    }
    for (int i = 0; i < NSWITCHES; i++) {
        if (!given[i]) {
            PyErr_Format(PyExc_ValueError, "the C core needs the switch '%s'",
                         SWITCH_SPECS[i].name);
            return NULL;
        }
    }
    if (hand_size < 1 || hand_size > DECKMAX) {
        PyErr_Format(PyExc_ValueError, "hand_size: %d", hand_size);
        return NULL;
    }
    r.hand_size = hand_size;
    pos = 0;
    while (PyDict_Next(cards, &pos, &key, &value)) {
        long id = PyLong_Check(key) ? PyLong_AsLong(key) : -1;
        if (id < 0 || id >= n_cards || !PyDict_Check(value)) {
            PyErr_Format(PyExc_ValueError, "card table: %R is not a card id of set_cards", key);
            return NULL;
        }
        int color, face, number, points, wild, wd4, action_face;
        if (dict_int(value, "color", -1, 3, &color) < 0 || dict_int(value, "face", 0, 127, &face) < 0
            || dict_int(value, "number", -1, 127, &number) < 0
            || dict_int(value, "points", -30000, 30000, &points) < 0
            || dict_int(value, "wild", 0, 1, &wild) < 0 || dict_int(value, "wd4", 0, 1, &wd4) < 0
            || dict_int(value, "action_face", 0, 1, &action_face) < 0)
            return NULL;
        PyObject *effect = PyDict_GetItemString(value, "effect");
        PyObject *first = PyDict_GetItemString(value, "first");
        int e = -1;
        for (int i = 0; i < EF_COUNT && effect != NULL; i++)
            if (text_is(effect, EFFECT_KEYS[i]))
                e = i;
        if (e < 0) {
            PyErr_Format(PyExc_ValueError, "the C core does not play the card %s (effect %R)",
                         card_codes[id], effect);
            return NULL;
        }
        int f = first == NULL || first == Py_None ? FIRST_STAYS
                : text_is(first, "bottom")       ? FIRST_BOTTOM
                : text_is(first, "reshuffle")    ? FIRST_RESHUFFLE
                                                 : -1;
        if (f < 0) {
            PyErr_Format(PyExc_ValueError, "the C core does not know the first-card rule %R",
                         first);
            return NULL;
        }
        r.in_deck[id] = 1;
        r.color[id] = (int8_t)color;
        r.face[id] = (int8_t)face;
        r.number[id] = (int8_t)number;
        r.points[id] = (int16_t)points;
        r.wild[id] = (uint8_t)wild;
        r.wd4[id] = (uint8_t)wd4;
        r.action_face[id] = (uint8_t)action_face;
        r.effect[id] = (uint8_t)e;
        r.first[id] = (uint8_t)f;
        r.has_reactions |= e == EF_HOLY || e == EF_SCREW;
        r.has_locks |= e == EF_KOBE;
        r.has_score_cards |= e == EF_HOLY || e == EF_DUNG;
    }
    PyObject *items = PySequence_Fast(deck, "deck: expected a sequence of card ids");
    if (items == NULL)
        return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(items);
    if (size > DECKMAX || size < 2) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "the C core holds decks of up to %d cards, not %zd",
                     DECKMAX, size);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long id = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if (id < 0 || id >= n_cards || !r.in_deck[id]) {
            Py_DECREF(items);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "deck: item %zd is not in the card table", i);
            return NULL;
        }
        r.deck[i] = (uint8_t)id;
        if (r.color[id] >= 0)
            r.deck_colors[r.color[id]]++;
    }
    Py_DECREF(items);
    r.deck_len = (int)size;
    if (hand_size * players + 1 > r.deck_len) {
        PyErr_Format(PyExc_ValueError, "%d hands of %d do not fit in a deck of %d", players,
                     hand_size, r.deck_len);
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)&r, sizeof r);
}

static const Rules *rules_of(PyObject *obj)
{
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != (Py_ssize_t)sizeof(Rules)
        || ((const Rules *)PyBytes_AS_STRING(obj))->magic != RULES_MAGIC) {
        PyErr_SetString(PyExc_TypeError, "rules: expected what compile_rules returned");
        return NULL;
    }
    return (const Rules *)PyBytes_AS_STRING(obj);
}

/* ------------------------------------------------------------ codes and states */

/* An action's code (Action.code) into buf (at least ACT_TEXT bytes). */
#define ACT_TEXT (48 + 4 * 4096)
static void act_text(const Act *a, char *buf)
{
    size_t size = ACT_TEXT;
    int k = 0;
    switch (a->kind) {
    case A_PLAY:
        k = snprintf(buf, size, "play %s", card_codes[a->card]);
        if (a->color >= 0)
            k += snprintf(buf + k, size - (size_t)k, " %c", COLOR_LETTERS[a->color]);
        if (a->target >= 0)
            k += snprintf(buf + k, size - (size_t)k, " @%d", a->target);
        for (int s = 0; s < MAXP; s++)
            for (int i = 0; i < a->picks[s] && k < (int)size - 8; i++)
                k += snprintf(buf + k, size - (size_t)k, " @%d", s);
        if (a->uno)
            snprintf(buf + k, size - (size_t)k, " uno");
        return;
    case A_DRAW:
        strcpy(buf, "draw");
        return;
    case A_PASS:
        strcpy(buf, "pass");
        return;
    case A_COLOR:
        snprintf(buf, size, "color %c", COLOR_LETTERS[a->color]);
        return;
    case A_CHALLENGE:
        strcpy(buf, "challenge");
        return;
    case A_UNO:
        strcpy(buf, "uno");
        return;
    case A_DEAL:
        strcpy(buf, "deal");
        return;
    default:
        snprintf(buf, size, "catch @%d", a->target);
        return;
    }
}

static PyObject *action_code(const Act *a)
{
    char buf[ACT_TEXT];
    act_text(a, buf);
    return PyUnicode_FromString(buf);
}

static PyObject *card_list(const uint8_t *cards, int len)
{
    PyObject *out = PyList_New(len);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *code = PyUnicode_FromString(card_codes[cards[i]]);
        if (code == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, code);
    }
    return out;
}

static PyObject *int_list(const int *values, int len)
{
    PyObject *out = PyList_New(len);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < len; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(values[i]));
    return out;
}

static PyObject *bool_list(const uint8_t *values, int len)
{
    PyObject *out = PyList_New(len);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < len; i++)
        PyList_SET_ITEM(out, i, PyBool_FromLong(values[i]));
    return out;
}

static PyObject *color_or_none(int color)
{
    if (color < 0)
        Py_RETURN_NONE;
    char letter[2] = {COLOR_LETTERS[color], 0};
    return PyUnicode_FromString(letter);
}

static PyObject *seat_or_none(int seat)
{
    if (seat < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(seat);
}

/* The game's state as HandState.to_json writes the fields the core holds (tests compare). */
static PyObject *state_json(const Game *g)
{
    int n = g->n;
    PyObject *hands = PyList_New(n), *recycled = PyList_New(n), *aside = PyList_New(n);
    if (hands == NULL || recycled == NULL || aside == NULL) {
        Py_XDECREF(hands);
        Py_XDECREF(recycled);
        Py_XDECREF(aside);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyList_SET_ITEM(hands, s, card_list(HAND(g, s), HLEN(g, s)));
        PyList_SET_ITEM(recycled, s, card_list(g->recycled[s], g->rlen[s]));
        PyList_SET_ITEM(aside, s, card_list(g->aside[s], g->alen[s]));
    }
    uint8_t owes[MAXP], called[MAXP], false_uno[MAXP], active[MAXP];
    memcpy(owes, g->owes, sizeof owes);
    memcpy(called, g->called, sizeof called);
    memcpy(false_uno, g->false_uno, sizeof false_uno);
    memcpy(active, g->active, sizeof active);
    PyObject *pending_kind = g->pending_kind ? PyUnicode_FromString(PENDING_KINDS[g->pending_kind])
                                             : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue(
        "{sKsNsNsNsisisNsisNsNsNsisNsNsNsNsNsNsisNsOsisOsNsNsNsNsNsisNsNsN}",
        "rng", (unsigned long long)g->rng,
        "scores", int_list(g->scores, n),
        "seating", int_list(g->seating, n),
        "position", int_list(g->position, n),
        "hand_number", g->hand_number,
        "dealer", g->dealer,
        "winner", seat_or_none(g->winner),
        "direction", g->direction,
        "hands", hands,
        "set_aside", aside,
        "active", bool_list(active, n),
        "players_in_hand", g->players_in_hand,
        "draw_pile", card_list(g->pile, g->plen),
        "discard", card_list(g->discard, g->dlen),
        "discard_points", int_list(g->discard_points, n),
        "color", color_or_none(g->color),
        "to_act", seat_or_none(g->to_act),
        "phase", PyUnicode_FromString(PHASE_NAMES[g->phase]),
        "pending_draw", g->pending,
        "pending_kind", pending_kind,
        "pending_challengeable", g->pending_chal ? Py_True : Py_False,
        "pending_source", g->pending_source,
        "pending_guilty", g->pending_guilty ? Py_True : Py_False,
        "pending_prev_color", color_or_none(g->pending_prev),
        "drawn", g->drawn < 0 ? (Py_INCREF(Py_None), Py_None)
                              : PyUnicode_FromString(card_codes[g->drawn]),
        "owes_uno", bool_list(owes, n),
        "called_uno", bool_list(called, n),
        "false_uno", bool_list(false_uno, n),
        "idle_turns", g->idle,
        "recycled", recycled,
        "ranking", int_list(g->ranking, g->rank_len),
        "nagasaki_lock", seat_or_none(g->lock));
}

/* The HandState fields, in una.engine.state.FIELDS order, and what the loader does with
 * each: reads it or ignores it (it never changes play: the log, who
 * saw which hand, a finished hand's result). */
enum { F_READ, F_IGNORED };
typedef struct {
    const char *name;
    int use;
} StateField;
static const StateField STATE_FIELDS[] = {
    {"rng", F_READ}, {"log", F_IGNORED}, {"scores", F_READ}, {"seating", F_READ},
    {"position", F_READ}, {"hand_number", F_READ}, {"dealer", F_READ}, {"winner", F_READ},
    {"hand_result", F_IGNORED}, {"direction", F_READ}, {"hands", F_READ},
    {"set_aside", F_READ}, {"active", F_READ}, {"players_in_hand", F_READ},
    {"draw_pile", F_READ}, {"discard", F_READ}, {"discard_points", F_READ}, {"color", F_READ},
    {"to_act", F_READ}, {"phase", F_READ}, {"pending_draw", F_READ}, {"pending_kind", F_READ},
    {"pending_challengeable", F_READ}, {"pending_source", F_READ},
    {"pending_guilty", F_READ}, {"pending_prev_color", F_READ}, {"drawn", F_READ},
    {"owes_uno", F_READ}, {"called_uno", F_READ}, {"false_uno", F_READ},
    {"reveals", F_IGNORED}, {"idle_turns", F_READ}, {"recycled", F_READ},
    {"ranking", F_READ}, {"nagasaki_lock", F_READ},
};
#define NFIELDS ((int)(sizeof STATE_FIELDS / sizeof STATE_FIELDS[0]))
enum { X_RNG, X_LOG, X_SCORES, X_SEATING, X_POSITION, X_HAND_NUMBER, X_DEALER, X_WINNER,
       X_RESULT, X_DIRECTION, X_HANDS, X_SET_ASIDE, X_ACTIVE, X_IN_HAND, X_PILE, X_DISCARD,
       X_DISCARD_POINTS, X_COLOR, X_TO_ACT, X_PHASE, X_PENDING, X_PENDING_KIND,
       X_PENDING_CHAL, X_PENDING_SOURCE, X_PENDING_GUILTY, X_PENDING_PREV, X_DRAWN, X_OWES,
       X_CALLED, X_FALSE_UNO, X_REVEALS, X_IDLE, X_RECYCLED, X_RANKING, X_LOCK };

static int load_cards(PyObject *obj, uint8_t *cards, int *len, int counts[MAXK],
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
    if (size > DECKMAX) {
        PyErr_Format(PyExc_ValueError, "%s: %zd cards, more than the core holds", name, size);
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

static int seq_of(PyObject *obj, int n, const char *what)
{
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list, not %.80s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (n >= 0 && PySequence_Fast_GET_SIZE(obj) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items for %d players", what,
                     PySequence_Fast_GET_SIZE(obj), n);
        return -1;
    }
    return 0;
}

static int load_ints(PyObject *obj, int n, int *out, int low, int high, const char *what)
{
    if (seq_of(obj, n, what) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_ITEMS(obj)[i];
        long v = PyLong_Check(item) ? PyLong_AsLong(item) : -999999;
        if (v < low || v > high) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s[%d]: %R is out of range %d-%d", what, i, item,
                         low, high);
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

static int load_flags(PyObject *obj, int n, uint8_t *out, const char *what)
{
    if (seq_of(obj, n, what) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int v = PyObject_IsTrue(PySequence_Fast_ITEMS(obj)[i]);
        if (v < 0)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static int load_int(PyObject *obj, int low, int high, int none, const char *what)
{
    if (obj == Py_None && none != -999999)
        return none;
    long v = PyLong_Check(obj) ? PyLong_AsLong(obj) : -999999;
    if (v < low || v > high) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: %R is out of range %d-%d", what, obj, low, high);
        return -999999;
    }
    return (int)v;
}

/* The .value of an enum member (Color, Phase), or the text itself. */
static int load_choice(PyObject *obj, const char *const *names, int count, int none,
                       const char *what)
{
    if (obj == Py_None && none != -999999)
        return none;
    PyObject *value = PyUnicode_Check(obj) ? (Py_INCREF(obj), obj)
                                           : PyObject_GetAttrString(obj, "value");
    if (value == NULL) {
        PyErr_Clear();
        value = (Py_INCREF(obj), obj);
    }
    int found = -999999;
    for (int i = 0; i < count; i++)
        if (names[i] != NULL && text_is(value, names[i]))
            found = i;
    if (found == -999999)
        PyErr_Format(PyExc_ValueError, "%s: %R is not one the core knows", what, obj);
    Py_DECREF(value);
    return found;
}

static const char *const COLOR_NAMES[4] = {"R", "Y", "G", "B"};

#define GET(x) (PySequence_Fast_ITEMS(values)[x])
#define BAD -999999

/* A Game from HandState field values (names: their names, to be STATE_FIELDS'), checked:
 * the rule set's deck, each card once, the numbers in range; NULL with an exception set
 * when they are wrong. Free with PyMem_RawFree. */
static Game *load_game(const Rules *r, PyObject *names, PyObject *values)
{
    if (seq_of(names, NFIELDS, "state field names") < 0 || seq_of(values, NFIELDS, "state") < 0)
        return NULL;
    for (int i = 0; i < NFIELDS; i++) {
        if (!text_is(PySequence_Fast_ITEMS(names)[i], STATE_FIELDS[i].name)) {
            PyErr_Format(PyExc_ValueError,
                         "state field %d is %R, but the C core knows '%s' there (rebuild it "
                         "after changing una/engine/state.py)",
                         i, PySequence_Fast_ITEMS(names)[i], STATE_FIELDS[i].name);
            return NULL;
        }
    }
    PyObject *hands = GET(X_HANDS);
    if (seq_of(hands, -1, "hands") < 0)
        return NULL;
    int n = (int)PySequence_Fast_GET_SIZE(hands);
    if (n != r->n) {
        PyErr_Format(PyExc_ValueError, "hands: %d players, but the rules were compiled for %d",
                     n, r->n);
        return NULL;
    }
    Game *g = PyMem_RawMalloc(sizeof(Game));
    if (g == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(g, 0, sizeof(Game));
    g->r = r;
    g->n = n;
    int counts[MAXK] = {0};
    PyObject *aside = GET(X_SET_ASIDE), *recycled = GET(X_RECYCLED);
    if (seq_of(aside, n, "set_aside") < 0 || seq_of(recycled, n, "recycled") < 0)
        goto fail;
    for (int s = 0; s < n; s++) {
        g->hidx[s] = s;
        if (load_cards(PySequence_Fast_ITEMS(hands)[s], g->hand[s], &g->hlen[s], counts,
                       "hands", s) < 0)
            goto fail;
        if (load_cards(PySequence_Fast_ITEMS(aside)[s], g->aside[s], &g->alen[s], counts,
                       "set_aside", s) < 0)
            goto fail;
        PyObject *rec = PySequence_Fast_ITEMS(recycled)[s];
        if (seq_of(rec, -1, "recycled") < 0)
            goto fail;
        if (PySequence_Fast_GET_SIZE(rec) == 0)
            continue;
        /* Any cards of the deck: after hands move (seven_zero) they need not be held. */
        if (load_cards(rec, g->recycled[s], &g->rlen[s], NULL, "recycled", s) < 0)
            goto fail;
    }
    if (load_cards(GET(X_PILE), g->pile, &g->plen, counts, "draw_pile", -1) < 0
        || load_cards(GET(X_DISCARD), g->discard, &g->dlen, counts, "discard", -1) < 0)
        goto fail;
    {
        int want[MAXK] = {0};
        for (int i = 0; i < r->deck_len; i++)
            want[r->deck[i]]++;
        for (int c = 0; c < MAXK; c++) {
            if (counts[c] != want[c]) {
                PyErr_Format(PyExc_ValueError,
                             "the cards at the table are not the rule set's deck: %d of %s, "
                             "not %d", counts[c], c < n_cards ? card_codes[c] : "?", want[c]);
                goto fail;
            }
        }
    }
    if (g->dlen < 1) {
        PyErr_SetString(PyExc_ValueError, "discard: the discard pile is empty");
        goto fail;
    }
    PyObject *rng = GET(X_RNG);
    PyObject *state = PyObject_GetAttrString(rng, "state");
    if (state == NULL)
        goto fail;
    g->rng = (uint64_t)PyLong_AsUnsignedLongLongMask(state);
    Py_DECREF(state);
    if (PyErr_Occurred())
        goto fail;
    if (load_ints(GET(X_SCORES), n, g->scores, -1000000000, 1000000000, "scores") < 0
        || load_ints(GET(X_SEATING), n, g->seating, 0, n - 1, "seating") < 0
        || load_ints(GET(X_POSITION), n, g->position, 0, n - 1, "position") < 0
        || load_ints(GET(X_DISCARD_POINTS), n, g->discard_points, -1000000000, 1000000000,
                     "discard_points") < 0
        || load_flags(GET(X_ACTIVE), n, g->active, "active") < 0
        || load_flags(GET(X_OWES), n, g->owes, "owes_uno") < 0
        || load_flags(GET(X_CALLED), n, g->called, "called_uno") < 0
        || load_flags(GET(X_FALSE_UNO), n, g->false_uno, "false_uno") < 0)
        goto fail;
    for (int s = 0; s < n; s++) {
        if (g->seating[g->position[s]] != s) {
            PyErr_Format(PyExc_ValueError, "position: seat %d is not where seating puts it", s);
            goto fail;
        }
    }
    PyObject *ranking = GET(X_RANKING);
    if (seq_of(ranking, -1, "ranking") < 0)
        goto fail;
    g->rank_len = (int)PySequence_Fast_GET_SIZE(ranking);
    if (g->rank_len > n || load_ints(ranking, g->rank_len, g->ranking, 0, n - 1, "ranking") < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "ranking: more players than seats");
        goto fail;
    }
    int active = 0;
    for (int s = 0; s < n; s++)
        active += g->active[s];
    if ((g->hand_number = load_int(GET(X_HAND_NUMBER), 1, 1 << 30, BAD, "hand_number")) == BAD
        || (g->dealer = load_int(GET(X_DEALER), 0, n - 1, BAD, "dealer")) == BAD
        || (g->winner = load_int(GET(X_WINNER), 0, n - 1, -1, "winner")) == BAD
        || (g->direction = load_int(GET(X_DIRECTION), -1, 1, BAD, "direction")) == BAD
        || (g->players_in_hand = load_int(GET(X_IN_HAND), active, active, BAD,
                                          "players_in_hand")) == BAD
        || (g->color = load_choice(GET(X_COLOR), COLOR_NAMES, 4, -1, "color")) == BAD
        || (g->to_act = load_int(GET(X_TO_ACT), 0, n - 1, -1, "to_act")) == BAD
        || (g->phase = load_choice(GET(X_PHASE), PHASE_NAMES, 6, BAD, "phase")) == BAD
        || (g->pending = load_int(GET(X_PENDING), 0, 100000, BAD, "pending_draw")) == BAD
        || (g->pending_kind = load_choice(GET(X_PENDING_KIND), PENDING_KINDS, 4, 0,
                                          "pending_kind")) == BAD
        || (g->pending_chal = load_int(GET(X_PENDING_CHAL), 0, 1, BAD,
                                       "pending_challengeable")) == BAD
        || (g->pending_source = load_int(GET(X_PENDING_SOURCE), -1, n - 1, BAD,
                                         "pending_source")) == BAD
        || (g->pending_guilty = load_int(GET(X_PENDING_GUILTY), 0, 1, BAD,
                                         "pending_guilty")) == BAD
        || (g->pending_prev = load_choice(GET(X_PENDING_PREV), COLOR_NAMES, 4, -1,
                                          "pending_prev_color")) == BAD
        || (g->idle = load_int(GET(X_IDLE), 0, 1 << 30, BAD, "idle_turns")) == BAD
        || (g->lock = load_int(GET(X_LOCK), 0, n - 1, -1, "nagasaki_lock")) == BAD)
        goto fail;
    if (g->direction == 0) {
        PyErr_SetString(PyExc_ValueError, "direction: 0, not 1 or -1");
        goto fail;
    }
    g->drawn = -1;
    g->hand_winner = -1;
    if (is_over(g)) {
        PyErr_SetString(PyExc_ValueError, "phase: the hand is over");
        goto fail;
    }
    if (g->to_act < 0 || !g->active[g->to_act]) {
        PyErr_Format(PyExc_ValueError, "to_act: seat %d is not in the hand", g->to_act);
        goto fail;
    }
    if (g->phase == PH_COLOR ? g->color != -1 : 0) {
        PyErr_SetString(PyExc_ValueError, "color: a color is to be named, yet one is set");
        goto fail;
    }
    if (g->phase == PH_DRAWN) {
        PyObject *drawn = GET(X_DRAWN);
        int card = drawn == Py_None ? -1 : card_id(drawn, "drawn");
        if (card < 0 && PyErr_Occurred())
            goto fail;
        int held = 0;
        for (int i = 0; i < HLEN(g, g->to_act); i++)
            held |= HAND(g, g->to_act)[i] == card;
        if (!held) {
            PyErr_Format(PyExc_ValueError, "drawn: %R is not in seat %d's hand", drawn,
                         g->to_act);
            goto fail;
        }
        g->drawn = card;
        if (!matches(g, g->to_act, card)) {
            PyErr_Format(PyExc_ValueError,
                         "drawn: %s does not fit the pile, so there is no drawn card to decide "
                         "on", card_codes[card]);
            goto fail;
        }
    }
    if (g->pending && g->phase != PH_PENALTY) {
        PyErr_Format(PyExc_ValueError, "pending_draw: %d outside a penalty phase", g->pending);
        goto fail;
    }
    return g;
fail:
    PyMem_RawFree(g);
    return NULL;
}

/* ------------------------------------------------------------- Python functions */

static PyObject *stuck_error(void)
{
    PyErr_Format(PyExc_RuntimeError, "a hand ran past %d moves", MOVE_LIMIT);
    return NULL;
}

static uint64_t batch_policy_seed(uint64_t seed)
{
    return seed * 0xD1B54A32D192ED03ULL + 0x5851F42D4C957F2DULL;
}

/* random_playouts(rules, games, seed) -> (games, moves, wins, points): hands from the deal
 * (dealer 0), game i on the engine seed seed * 1000003 + i, the random policy on one
 * generator. */
static PyObject *py_random_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj;
    long long games;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OLK:random_playouts", &rules_obj, &games, &seed))
        return NULL;
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    if (games < 0) {
        PyErr_Format(PyExc_ValueError, "games: must be 0 or more, not %lld", games);
        return NULL;
    }
    int n = r->n;
    long long moves = 0, wins[MAXP] = {0}, points[MAXP] = {0};
    int stuck = 0;
    Game *g = PyMem_RawMalloc(sizeof(Game));
    if (g == NULL)
        return PyErr_NoMemory();
    uint64_t policy = batch_policy_seed(seed);
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < games; i++) {
        new_game(g, r, seed * 1000003ULL + (uint64_t)i, 0);
        long m = play_out_with(g, &policy, POLICY_RANDOM, MOVE_LIMIT);
        if (m < 0) {
            stuck = 1;
            break;
        }
        moves += m;
        wins[g->hand_winner]++;
        points[g->hand_winner] += g->hand_points[g->hand_winner];
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    if (stuck)
        return stuck_error();
    PyObject *w = PyTuple_New(n), *p = PyTuple_New(n);
    if (w == NULL || p == NULL) {
        Py_XDECREF(w);
        Py_XDECREF(p);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(w, s, PyLong_FromLongLong(wins[s]));
        PyTuple_SET_ITEM(p, s, PyLong_FromLongLong(points[s]));
    }
    return Py_BuildValue("LLNN", games, moves, w, p);
}

/* trace(rules, names, values, policy_seed, hands, with_states) -> list of steps: from the
 * given position (or, with names None, a new game: values is then (seed, dealer)), play
 * `hands` hands (deals included; a match may end first) with the random policy; each step
 * is (seat, legal action codes, chosen code, state after or None). */
static PyObject *py_trace(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj, *names, *values;
    unsigned long long policy_seed;
    int hands, with_states;
    if (!PyArg_ParseTuple(args, "OOOKip:trace", &rules_obj, &names, &values, &policy_seed,
                          &hands, &with_states))
        return NULL;
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    Game *g;
    if (names == Py_None) {
        unsigned long long seed;
        int dealer;
        if (!PyArg_ParseTuple(values, "Ki", &seed, &dealer))
            return NULL;
        if (dealer < 0 || dealer >= r->n) {
            PyErr_Format(PyExc_ValueError, "dealer: %d", dealer);
            return NULL;
        }
        g = PyMem_RawMalloc(sizeof(Game));
        if (g == NULL)
            return PyErr_NoMemory();
        new_game(g, r, seed, dealer);
    } else {
        g = load_game(r, names, values);
        if (g == NULL)
            return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        goto fail;
    uint64_t policy = policy_seed;
    Draw d = {&policy, NULL};
    long moves = 0;
    int played = 0;
    Act *legal = PyMem_RawMalloc(sizeof(Act) * MAXACT);
    if (legal == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    while (g->phase != PH_MATCH_OVER) {
        if (g->phase == PH_HAND_OVER && ++played >= hands)
            break;
        if (moves++ >= MOVE_LIMIT) {
            stuck_error();
            goto fail_legal;
        }
        int seat = g->phase == PH_HAND_OVER ? g->seating[(g->position[g->dealer] + 1) % g->n]
                                            : g->to_act;
        int saved_to_act = g->to_act;
        g->to_act = seat;
        int k = legal_actions(g, seat, legal);
        Act a = choose(g, &d);
        g->to_act = saved_to_act;
        PyObject *codes = PyList_New(k);
        if (codes == NULL)
            goto fail_legal;
        for (int i = 0; i < k; i++)
            PyList_SET_ITEM(codes, i, action_code(&legal[i]));
        apply(g, seat, &a);
        PyObject *state = with_states ? state_json(g) : (Py_INCREF(Py_None), Py_None);
        PyObject *step = Py_BuildValue("(iNNN)", seat, codes, action_code(&a), state);
        if (step == NULL || PyList_Append(out, step) < 0) {
            Py_XDECREF(step);
            goto fail_legal;
        }
        Py_DECREF(step);
    }
    PyMem_RawFree(legal);
    PyMem_RawFree(g);
    return out;
fail_legal:
    PyMem_RawFree(legal);
fail:
    Py_XDECREF(out);
    PyMem_RawFree(g);
    return NULL;
}

/* playout_from(rules, names, values, policy_seed) -> (winner, points, moves) */
static PyObject *py_playout_from(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj, *names, *values;
    unsigned long long policy_seed;
    if (!PyArg_ParseTuple(args, "OOOK:playout_from", &rules_obj, &names, &values,
                          &policy_seed))
        return NULL;
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    Game *g = load_game(r, names, values);
    if (g == NULL)
        return NULL;
    uint64_t policy = policy_seed;
    long moves = play_out_with(g, &policy, POLICY_RANDOM, MOVE_LIMIT);
    if (moves < 0) {
        PyMem_RawFree(g);
        return stuck_error();
    }
    PyObject *result = Py_BuildValue("iil", g->hand_winner, g->hand_points[g->hand_winner],
                                     moves);
    PyMem_RawFree(g);
    return result;
}

static uint64_t pile_seed(uint64_t policy_seed, int r)
{
    return (policy_seed ^ 0xA0761D6478BD642FULL) + (uint64_t)r * 0xE7037ED1A0B428DBULL;
}

/* playouts_from(rules, names, values, policy_seed, policy, repeats, limit, shuffle_pile)
 * -> (wins per seat, moves played in all, points per seat, matches won per seat): a playout
 * stopped at `limit` counts `limit` moves; see repeat_playouts for the points. */
/* `repeats` playouts of g in `work` (the draw pile reshuffled for each under
 * shuffle_pile), adding per seat the hands won, the points scored in the playouts after
 * which the match goes on, and the matches won in those whose hand ended it; returns the
 * moves (a playout stopped at `limit` counts `limit`). */
static long repeat_playouts(const Game *g, Game *work, uint64_t policy_seed, int kind,
                            int repeats, long limit, int shuffle_pile, long *wins, long *points,
                            long *matches)
{
    long total = 0;
    uint64_t policy = policy_seed;
    for (int rep = 0; rep < repeats; rep++) {
        memcpy(work, g, sizeof(Game));
        if (shuffle_pile) {
            uint64_t order = pile_seed(policy_seed, rep);
            shuffle(&order, work->pile, work->plen);
        }
        long moves = play_out_with(work, &policy, kind, limit);
        if (moves >= 0) {
            wins[work->hand_winner]++;
            if (work->phase == PH_MATCH_OVER)
                matches[work->winner]++;
            else
                for (int s = 0; s < g->n; s++)
                    points[s] += work->hand_points[s];
        }
        total += moves >= 0 ? moves : limit;
    }
    return total;
}

/* (wins, moves, points, matches): what repeat_playouts counted, for Python. */
static PyObject *counted(int n, const long *wins, long moves, const long *points,
                         const long *matches)
{
    PyObject *part[3] = {PyTuple_New(n), PyTuple_New(n), PyTuple_New(n)};
    const long *from[3] = {wins, points, matches};
    for (int i = 0; i < 3; i++) {
        if (part[i] == NULL) {
            for (int j = 0; j < 3; j++)
                Py_XDECREF(part[j]);
            return NULL;
        }
        for (int s = 0; s < n; s++)
            PyTuple_SET_ITEM(part[i], s, PyLong_FromLong(from[i][s]));
    }
    return Py_BuildValue("NlNN", part[0], moves, part[1], part[2]);
}

static PyObject *py_playouts_from(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj, *names, *values;
    int kind, repeats, shuffle_pile;
    long limit;
    unsigned long long policy_seed;
    if (!PyArg_ParseTuple(args, "OOOKiilp:playouts_from", &rules_obj, &names, &values,
                          &policy_seed, &kind, &repeats, &limit, &shuffle_pile))
        return NULL;
    if (kind != POLICY_RANDOM && kind != POLICY_GREEDY && kind != POLICY_CHALLENGING) {
        PyErr_Format(PyExc_ValueError,
                     "policy: %d is not random (0), greedy (1) or challenging (2)", kind);
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
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    Game *g = load_game(r, names, values);
    if (g == NULL)
        return NULL;
    Game *work = PyMem_RawMalloc(sizeof(Game));
    if (work == NULL) {
        PyMem_RawFree(g);
        return PyErr_NoMemory();
    }
    long wins[MAXP] = {0}, points[MAXP] = {0}, matches[MAXP] = {0};
    int n = g->n;
    long total;
    Py_BEGIN_ALLOW_THREADS
    total = repeat_playouts(g, work, policy_seed, kind, repeats, limit, shuffle_pile, wins,
                            points, matches);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(work);
    PyMem_RawFree(g);
    return counted(n, wins, total, points, matches);
}

/* una.sim.driver.Table._offer_out_of_turn with a random bot in every seat: each seat but
 * the one to act that has a legal action is asked once, in an order that starts one seat
 * later each time; the bot calls an UNO it owes, else jumps in with one of its plays or
 * does nothing, uniformly (RandomBot.choose); after a jump-in the offers start again. */
/* playouts_after(rules, names, values, seat, codes, policy_seed, policy, repeats, limit,
 * shuffle_pile) -> [(wins, moves, points, matches), ...]: for each action code in
 * turn, what playouts_from gives after `seat` plays it in a copy of the position, as
 * Game.apply and playouts_counted do in Python; the list stops before the first action
 * that is not legal there. The strong bot's race: one sampled position, every candidate. */
static PyObject *py_playouts_after(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj, *names, *values, *codes;
    int seat, kind, repeats, shuffle_pile;
    long limit;
    unsigned long long policy_seed;
    if (!PyArg_ParseTuple(args, "OOOiO!Kiilp:playouts_after", &rules_obj, &names, &values,
                          &seat, &PyList_Type, &codes, &policy_seed, &kind, &repeats, &limit,
                          &shuffle_pile))
        return NULL;
    if (kind != POLICY_RANDOM && kind != POLICY_GREEDY && kind != POLICY_CHALLENGING) {
        PyErr_Format(PyExc_ValueError,
                     "policy: %d is not random (0), greedy (1) or challenging (2)", kind);
        return NULL;
    }
    if (repeats < 1 || limit < 1) {
        PyErr_Format(PyExc_ValueError, "repeats and limit must be 1 or more, not %d and %ld",
                     repeats, limit);
        return NULL;
    }
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    Game *g = load_game(r, names, values);
    if (g == NULL)
        return NULL;
    if (seat < 0 || seat >= g->n) {
        PyMem_RawFree(g);
        PyErr_Format(PyExc_ValueError, "seat: %d is not a seat of this game", seat);
        return NULL;
    }
    Game *after = PyMem_RawMalloc(sizeof(Game)), *work = PyMem_RawMalloc(sizeof(Game));
    Act *legal = PyMem_RawMalloc(sizeof(Act) * MAXACT);
    char *text = PyMem_RawMalloc(ACT_TEXT);
    PyObject *out = PyList_New(0);
    if (after == NULL || work == NULL || legal == NULL || text == NULL || out == NULL) {
        Py_XDECREF(out);
        out = PyErr_NoMemory();
        goto done;
    }
    int k = legal_actions(g, seat, legal), n = g->n;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(codes); c++) {
        const char *code = PyUnicode_AsUTF8(PyList_GET_ITEM(codes, c));
        if (code == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        int found = -1;
        for (int i = 0; i < k && found < 0; i++) {
            act_text(&legal[i], text);
            if (strcmp(text, code) == 0)
                found = i;
        }
        if (found < 0)
            break; /* not legal in this position: the caller drops it */
        memcpy(after, g, sizeof(Game));
        apply(after, seat, &legal[found]);
        long wins[MAXP] = {0}, points[MAXP] = {0}, matches[MAXP] = {0}, total;
        Py_BEGIN_ALLOW_THREADS
        total = repeat_playouts(after, work, policy_seed, kind, repeats, limit, shuffle_pile,
                                wins, points, matches);
        Py_END_ALLOW_THREADS
        PyObject *item = counted(n, wins, total, points, matches);
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(item);
    }
done:
    PyMem_RawFree(after);
    PyMem_RawFree(work);
    PyMem_RawFree(legal);
    PyMem_RawFree(text);
    PyMem_RawFree(g);
    return out;
}

static void offer_out_of_turn(Game *g, Twister *bots, int *rotation, long *turns, long *actions)
{
    int n = g->n, start = *rotation;
    *rotation = (start + 1) % n;
    int jump_in = SW(g, S_JUMP_IN), owed = 0;
    for (int s = 0; s < n; s++)
        owed |= g->owes[s];
    if (!jump_in && !owed)
        return; /* nobody would act: a catch alone the random bot never takes */
    uint8_t asked[MAXP] = {0};
    Act legal[MAXACT];
    int i = 0;
    while (i < n) {
        int seat = (start + i) % n;
        i++;
        if (asked[seat] || seat == g->to_act || is_over(g))
            continue;
        if (!jump_in && !(g->owes[seat] && HLEN(g, seat) == 1))
            continue; /* what it may do (a catch) it does not: as if asked */
        int k = legal_actions(g, seat, legal);
        if (k == 0)
            continue;
        asked[seat] = 1;
        Act chosen;
        int found = 0;
        for (int j = 0; j < k && !found; j++) {
            if (legal[j].kind == A_UNO) {
                chosen = legal[j];
                found = 1;
            }
        }
        if (!found) {
            int m = 0; /* plays(legal): one per (card, color, targets), UNO variant kept */
            for (int j = 0; j < k; j++) {
                if (legal[j].kind != A_PLAY)
                    continue;
                if (m && same_play(&legal[m - 1], &legal[j])) {
                    if (legal[j].uno)
                        legal[m - 1] = legal[j];
                    continue;
                }
                legal[m++] = legal[j];
            }
            if (m == 0)
                continue;
            int index = (int)mt_below(&bots[seat], (uint32_t)(m + 1));
            if (index == m)
                continue;
            chosen = legal[index];
        }
        apply(g, seat, &chosen);
        (*actions)++;
        if (chosen.kind <= A_CHALLENGE) {
            turns[seat]++;
            memset(asked, 0, sizeof asked);
            i = 0;
        }
    }
}

/* sim_games(rules, games, matches, limit) -> list of results: una sim's games with a
 * random bot in every seat. games: (game seed, first dealer, (bot seed per seat)) per
 * game; each result is (winner, points, turns per seat, actions, hands), as
 * una.sim.runner.play_game reports them (points: of the hand, or the match scores). */
static PyObject *py_sim_games(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rules_obj, *games;
    int matches;
    long limit;
    if (!PyArg_ParseTuple(args, "OOpl:sim_games", &rules_obj, &games, &matches, &limit))
        return NULL;
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    PyObject *items = PySequence_Fast(games, "games: expected a sequence");
    if (items == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    int n = r->n;
    typedef struct {
        uint64_t seed;
        int dealer;
        uint64_t bots[MAXP];
        int winner, hands, stuck;
        long actions;
        int points[MAXP];
        long turns[MAXP];
    } SimGame;
    SimGame *sims = PyMem_RawCalloc((size_t)(count ? count : 1), sizeof(SimGame));
    Game *g = PyMem_RawMalloc(sizeof(Game));
    Twister *bots = PyMem_RawMalloc(sizeof(Twister) * MAXP);
    if (sims == NULL || g == NULL || bots == NULL) {
        PyMem_RawFree(sims);
        PyMem_RawFree(g);
        PyMem_RawFree(bots);
        Py_DECREF(items);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *seeds;
        unsigned long long seed;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(items, i), "KiO", &seed,
                              &sims[i].dealer, &seeds)
            || seq_of(seeds, n, "bot seeds") < 0)
            goto fail;
        sims[i].seed = seed;
        if (sims[i].dealer < 0 || sims[i].dealer >= n) {
            PyErr_Format(PyExc_ValueError, "dealer: %d", sims[i].dealer);
            goto fail;
        }
        for (int s = 0; s < n; s++) {
            sims[i].bots[s] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_ITEMS(seeds)[s]);
            if (PyErr_Occurred())
                goto fail;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        SimGame *sim = &sims[i];
        new_game(g, r, sim->seed, sim->dealer);
        for (int s = 0; s < n; s++)
            mt_seed(&bots[s], sim->bots[s]);
        int rotation = 0;
        long hand_limit = limit;
        while (1) {
            if (is_over(g)) {
                if (g->phase == PH_MATCH_OVER || !matches)
                    break;
                /* Table.deal: the seat left of the dealer in seat numbers deals. */
                Act deal = {A_DEAL, -1, -1, 0, -1, 0, {0}};
                apply(g, (g->dealer + 1) % n, &deal);
                sim->actions++;
                hand_limit = sim->actions + limit;
                continue;
            }
            if (sim->actions >= hand_limit) {
                sim->stuck = 1;
                break;
            }
            offer_out_of_turn(g, bots, &rotation, sim->turns, &sim->actions);
            if (is_over(g))
                continue;
            int seat = g->to_act;
            Act a = choose_bot(g, &bots[seat]);
            apply(g, seat, &a);
            sim->actions++;
            if (a.kind <= A_CHALLENGE)
                sim->turns[seat]++;
        }
        if (sim->stuck)
            break;
        sim->hands = g->hand_number;
        if (matches) {
            sim->winner = g->winner;
            for (int s = 0; s < n; s++)
                sim->points[s] = g->scores[s];
        } else {
            sim->winner = g->hand_winner;
            for (int s = 0; s < n; s++)
                sim->points[s] = g->hand_points[s];
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(0);
    if (out == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        SimGame *sim = &sims[i];
        if (sim->stuck) {
            Py_DECREF(out);
            PyErr_Format(PyExc_RuntimeError, "game %zd: no end after %ld actions", i, limit);
            goto fail;
        }
        PyObject *points = PyTuple_New(n), *turns = PyTuple_New(n);
        for (int s = 0; s < n; s++) {
            PyTuple_SET_ITEM(points, s, PyLong_FromLong(sim->points[s]));
            PyTuple_SET_ITEM(turns, s, PyLong_FromLong(sim->turns[s]));
        }
        PyObject *item = Py_BuildValue("(iNNli)", sim->winner, points, turns, sim->actions,
                                       sim->hands);
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            goto fail;
        }
        Py_DECREF(item);
    }
    PyMem_RawFree(sims);
    PyMem_RawFree(g);
    PyMem_RawFree(bots);
    Py_DECREF(items);
    return out;
fail:
    PyMem_RawFree(sims);
    PyMem_RawFree(g);
    PyMem_RawFree(bots);
    Py_DECREF(items);
    return NULL;
}

/* mt_randrange(seed, n, count) -> list: random.Random(seed).randrange(n), count times (the
 * tests check the Twister against Python's). */
static PyObject *py_mt_randrange(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long seed;
    unsigned int n;
    int count;
    if (!PyArg_ParseTuple(args, "KIi:mt_randrange", &seed, &n, &count))
        return NULL;
    if (n < 1 || n >= (1u << 31) || count < 0) {
        PyErr_SetString(PyExc_ValueError, "mt_randrange: need 1 <= n < 2**31, count >= 0");
        return NULL;
    }
    Twister t;
    mt_seed(&t, seed);
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < count; i++)
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLong(mt_below(&t, n)));
    return out;
}

/* ==================================================================================
 * Python's random.Random.shuffle and random.Random.sample(range(n), k), draw for draw:
 * the same calls of the generator's getrandbits (CPython 3.11's _randbelow, shuffle and
 * sample), in C. The strong bot's belief deals thousands of hands a decision with them;
 * the results (and the generator's state after) are those of the Python methods, which
 * tests/engine/test_fastcore.py checks.
 * ================================================================================== */

/* _randbelow(n) for 1 <= n < 2**31: getrandbits(n.bit_length()) until below n; -1 on an
 * error (set). `bits` caches getrandbits' argument objects by bit count. */
static long py_below(PyObject *getrandbits, PyObject **bits, unsigned long n)
{
    int k = 0;
    while ((n >> k) != 0)
        k++;
    if (bits[k] == NULL && (bits[k] = PyLong_FromLong(k)) == NULL)
        return -1;
    while (1) {
        PyObject *r = PyObject_CallOneArg(getrandbits, bits[k]);
        if (r == NULL)
            return -1;
        unsigned long value = PyLong_AsUnsignedLong(r);
        Py_DECREF(r);
        if (value == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (value < n)
            return (long)value;
    }
}

static void drop_bits(PyObject **bits)
{
    for (int k = 0; k < 33; k++)
        Py_XDECREF(bits[k]);
}

/* rng_shuffle(getrandbits, items): random.Random.shuffle(items), in place. */
static PyObject *py_rng_shuffle(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *getrandbits, *items;
    if (!PyArg_ParseTuple(args, "OO!:rng_shuffle", &getrandbits, &PyList_Type, &items))
        return NULL;
    Py_ssize_t len = PyList_GET_SIZE(items);
    if (len >= (1L << 31)) {
        PyErr_SetString(PyExc_ValueError, "rng_shuffle: too many items");
        return NULL;
    }
    PyObject *bits[33] = {NULL};
    for (Py_ssize_t i = len - 1; i >= 1; i--) {
        long j = py_below(getrandbits, bits, (unsigned long)(i + 1));
        if (j < 0 || PyList_GET_SIZE(items) != len) {
            if (j >= 0)
                PyErr_SetString(PyExc_RuntimeError, "rng_shuffle: the list changed size");
            drop_bits(bits);
            return NULL;
        }
        PyObject *x = PyList_GET_ITEM(items, i);
        PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
        PyList_SET_ITEM(items, j, x);
    }
    drop_bits(bits);
    Py_RETURN_NONE;
}

/* random.Random.sample(range(n), k) into out[k]; pool has room for n longs. 0, or -1
 * with an exception set. */
static int sample_into(PyObject *getrandbits, PyObject **bits, long n, long k, long *pool,
                       long *out)
{
    /* Python's choice between a pool and a set of the selected (sample's setsize). */
    long setsize = 21;
    if (k > 5)
        setsize += (long)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
    int pooled = n <= setsize;
    if (pooled)
        for (long i = 0; i < n; i++)
            pool[i] = i;
    else
        memset(pool, 0, sizeof(long) * (size_t)n); /* pool[j]: j selected */
    for (long i = 0; i < k; i++) {
        long j = py_below(getrandbits, bits, (unsigned long)(pooled ? n - i : n));
        while (j >= 0 && !pooled && pool[j])
            j = py_below(getrandbits, bits, (unsigned long)n);
        if (j < 0)
            return -1;
        out[i] = pooled ? pool[j] : j;
        if (pooled)
            pool[j] = pool[n - i - 1];
        else
            pool[j] = 1;
    }
    return 0;
}

/* rng_sample(getrandbits, n, k): random.Random.sample(range(n), k). */
static PyObject *py_rng_sample(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *getrandbits;
    long n, k;
    if (!PyArg_ParseTuple(args, "Oll:rng_sample", &getrandbits, &n, &k))
        return NULL;
    if (n >= (1L << 31) || k < 0 || k > n) {
        PyErr_SetString(PyExc_ValueError, "Sample larger than population or is negative");
        return NULL;
    }
    PyObject *bits[33] = {NULL};
    long *pool = PyMem_Malloc(sizeof(long) * (size_t)(2 * n + 1));
    if (pool == NULL)
        return PyErr_NoMemory();
    PyObject *out = NULL;
    if (sample_into(getrandbits, bits, n, k, pool, pool + n) == 0 && (out = PyList_New(k)))
        for (long i = 0; i < k; i++) {
            PyObject *index = PyLong_FromLong(pool[n + i]);
            if (index == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, index);
        }
    PyMem_Free(pool);
    drop_bits(bits);
    return out;
}

/* ==================================================================================
 * The strong bot's reading of choices (una.bots.belief: ChoiceTest.passes and
 * Belief._deal_checked), in C: a sampled opponent's hand is dealt again until she would
 * have made her last choices with it. The tests are made in Python (ChoiceTest, which
 * says what they mean) and packed here once per view; the deal draws from the bot's
 * random.Random exactly as the Python method does (tests/bots/test_belief.py compares
 * the two).
 * ================================================================================== */

#define NO_TERM (-3)

typedef struct {
    int held;          /* how many of a dealt hand's cards (the first) she held then */
    int count[4], value[4];
    int mine_index, mine_own, mine_worth;
    double mine_fixed;
    int nfixed, fixed[MAXK];        /* fitting cards that do not depend on the hand */
    int8_t term_index[MAXK];        /* NO_TERM: not a fitting card; -2 no color; -1 best */
    int8_t color_index[MAXK];       /* the color a held card counts towards, -1 none */
    int term_own[MAXK], term_worth[MAXK], points[MAXK];
    double term_fixed[MAXK];
} ChoiceTest;

static int term_of(PyObject *term, int *index, int *own, int *worth, double *fixed)
{
    if (!PyArg_ParseTuple(term, "iiid", index, own, worth, fixed))
        return -1;
    if (*index < -2 || *index > 3) {
        PyErr_SetString(PyExc_ValueError, "choice_test: a term's color index is -2 to 3");
        return -1;
    }
    return 0;
}

/* choice_test(held, count, value, mine, fixed, terms, points, colors) -> bytes: a
 * ChoiceTest packed for deal_checked. count and value: 4 ints; mine and each term: (color
 * index, own, worth, fixed); fixed: cards; terms: {card: term}; points and colors: per
 * card id (ALL_CARDS order), its points and color index. */
static PyObject *py_choice_test(PyObject *self, PyObject *args)
{
    (void)self;
    int held;
    PyObject *count, *value, *mine, *fixed, *terms, *points, *colors;
    if (!PyArg_ParseTuple(args, "iOOOOO!OO:choice_test", &held, &count, &value, &mine, &fixed,
                          &PyDict_Type, &terms, &points, &colors))
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, sizeof(ChoiceTest));
    if (out == NULL)
        return NULL;
    ChoiceTest *t = (ChoiceTest *)PyBytes_AS_STRING(out);
    memset(t, 0, sizeof *t);
    t->held = held;
    if (held < 0 || load_ints(count, 4, t->count, 0, 1 << 20, "choice_test count") < 0
        || load_ints(value, 4, t->value, -(1 << 24), 1 << 24, "choice_test value") < 0
        || load_ints(points, n_cards, t->points, -(1 << 24), 1 << 24, "choice_test points") < 0
        || term_of(mine, &t->mine_index, &t->mine_own, &t->mine_worth, &t->mine_fixed) < 0)
        goto fail;
    int color_list[MAXK];
    if (load_ints(colors, n_cards, color_list, -1, 3, "choice_test colors") < 0)
        goto fail;
    for (int i = 0; i < MAXK; i++) {
        t->color_index[i] = (int8_t)(i < n_cards ? color_list[i] : -1);
        t->term_index[i] = NO_TERM;
    }
    PyObject *key, *term;
    Py_ssize_t pos = 0;
    while (PyDict_Next(terms, &pos, &key, &term)) {
        int id = card_id(key, "choice_test terms"), index, own, worth;
        double part;
        if (id < 0 || term_of(term, &index, &own, &worth, &part) < 0)
            goto fail;
        t->term_index[id] = (int8_t)index;
        t->term_own[id] = own;
        t->term_worth[id] = worth;
        t->term_fixed[id] = part;
    }
    PyObject *seq = PySequence_Fast(fixed, "choice_test: fixed must be a sequence of cards");
    if (seq == NULL)
        goto fail;
    Py_ssize_t nfixed = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < nfixed && i < MAXK; i++) {
        int id = card_id(PySequence_Fast_GET_ITEM(seq, i), "choice_test fixed");
        if (id < 0) {
            Py_DECREF(seq);
            goto fail;
        }
        t->fixed[t->nfixed++] = id;
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ChoiceTest.passes: whether she would have made the choice holding the first `held` of
 * the `len` cards `ids`. The same sums in the same order as the Python method (doubles
 * both), so the same comparisons. */
static int choice_passes(const ChoiceTest *t, const int *ids, int len)
{
    int count[4], value[4];
    memcpy(count, t->count, sizeof count);
    memcpy(value, t->value, sizeof value);
    int held = len < t->held ? len : t->held;
    for (int i = 0; i < held; i++) {
        int index = t->color_index[ids[i]];
        if (index >= 0) {
            count[index]++;
            value[index] += t->points[ids[i]];
        }
    }
    double mine = t->mine_fixed + 1e-9;
    if (t->mine_index >= 0)
        mine += (double)(2 * (count[t->mine_index] - t->mine_own))
                + (double)(value[t->mine_index] - t->mine_worth) / 100.0;
    int have_best = 0;
    double best_color = 0.0;
    for (int group = 0; group < 2; group++) {
        const int *cards = group ? t->fixed : ids;
        int n = group ? t->nfixed : held;
        for (int i = 0; i < n; i++) {
            int card = cards[i], index = t->term_index[card];
            if (index == NO_TERM)
                continue;
            double score;
            if (index >= 0)
                score = (double)(2 * (count[index] - t->term_own[card]))
                        + (double)(value[index] - t->term_worth[card]) / 100.0
                        + t->term_fixed[card];
            else if (index == -1) {
                if (!have_best) {
                    for (int c = 0; c < 4; c++) {
                        double color = (double)(2 * count[c]) + (double)value[c] / 100.0;
                        if (c == 0 || color > best_color)
                            best_color = color;
                    }
                    have_best = 1;
                }
                score = best_color + t->term_fixed[card];
            } else
                score = t->term_fixed[card];
            if (score > mine)
                return 0;
        }
    }
    return 1;
}

/* choice_passes(test, cards) -> bool: ChoiceTest.passes on a packed test. */
static PyObject *py_choice_passes(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *blob, *cards;
    if (!PyArg_ParseTuple(args, "SO:choice_passes", &blob, &cards))
        return NULL;
    if (PyBytes_GET_SIZE(blob) != (Py_ssize_t)sizeof(ChoiceTest)) {
        PyErr_SetString(PyExc_ValueError, "choice_passes: not a packed choice test");
        return NULL;
    }
    uint8_t loaded[DECKMAX];
    int ids[DECKMAX], len;
    if (load_cards(cards, loaded, &len, NULL, "choice_passes cards", -1) < 0)
        return NULL;
    for (int i = 0; i < len; i++)
        ids[i] = loaded[i];
    return PyBool_FromLong(choice_passes((const ChoiceTest *)PyBytes_AS_STRING(blob), ids, len));
}

/* deal_checked(getrandbits, unseen, tiers, need, tries, tests) -> (dealt, rest):
 * Belief._deal_checked, draw for draw: `need` of the cards `unseen` dealt (the first ones
 * tier by tier: per (banned, count) of `tiers`, `count` cards not in the set `banned`
 * and not dealt yet), again up to `tries` times until every packed test passes (else the
 * deal that failed fewest); the cards dealt, in deal order, and the others in their
 * order. */
#define MAXTIERS 16
static PyObject *py_deal_checked(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *getrandbits, *unseen, *tiers, *tests;
    long need, tries;
    if (!PyArg_ParseTuple(args, "OO!O!llO!:deal_checked", &getrandbits, &PyList_Type, &unseen,
                          &PyList_Type, &tiers, &need, &tries, &PyList_Type, &tests))
        return NULL;
    Py_ssize_t size = PyList_GET_SIZE(unseen), ntests = PyList_GET_SIZE(tests);
    Py_ssize_t ntiers = PyList_GET_SIZE(tiers);
    if (size > DECKMAX || need < 0 || ntiers > MAXTIERS) {
        PyErr_SetString(PyExc_ValueError, "deal_checked: bad sizes");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ntests; i++) {
        PyObject *blob = PyList_GET_ITEM(tests, i);
        if (!PyBytes_Check(blob) || PyBytes_GET_SIZE(blob) != (Py_ssize_t)sizeof(ChoiceTest)) {
            PyErr_SetString(PyExc_ValueError, "deal_checked: tests must be packed choice tests");
            return NULL;
        }
    }
    int ids[DECKMAX];
    for (Py_ssize_t i = 0; i < size; i++)
        if ((ids[i] = card_id(PyList_GET_ITEM(unseen, i), "deal_checked unseen")) < 0)
            return NULL;
    uint8_t is_banned[MAXTIERS][MAXK];
    long tier_count[MAXTIERS];
    for (Py_ssize_t t = 0; t < ntiers; t++) {
        PyObject *banned;
        memset(is_banned[t], 0, MAXK);
        if (!PyArg_ParseTuple(PyList_GET_ITEM(tiers, t), "Ol:deal_checked tier", &banned,
                              &tier_count[t]))
            return NULL;
        if (tier_count[t] < 0) {
            PyErr_SetString(PyExc_ValueError, "deal_checked: a tier's count is 0 or more");
            return NULL;
        }
        PyObject *iter = PyObject_GetIter(banned), *item;
        if (iter == NULL)
            return NULL;
        while ((item = PyIter_Next(iter)) != NULL) {
            int id = card_id(item, "deal_checked banned");
            Py_DECREF(item);
            if (id < 0) {
                Py_DECREF(iter);
                return NULL;
            }
            is_banned[t][id] = 1;
        }
        Py_DECREF(iter);
        if (PyErr_Occurred())
            return NULL;
    }
    long allowed[DECKMAX], nallowed;
    PyObject *bits[33] = {NULL};
    long pool[DECKMAX], drawn[DECKMAX], pick[DECKMAX], best[DECKMAX];
    long npick = 0, nbest = 0, fewest = ntests + 1;
    uint8_t chosen[DECKMAX];
    int cards[DECKMAX];
    for (long attempt = 0; attempt < tries; attempt++) {
        npick = 0;
        memset(chosen, 0, sizeof chosen);
        for (Py_ssize_t t = 0; t < ntiers; t++) {
            nallowed = 0;
            for (Py_ssize_t i = 0; i < size; i++)
                if (!is_banned[t][ids[i]] && !chosen[i])
                    allowed[nallowed++] = i;
            long count = tier_count[t] < nallowed ? tier_count[t] : nallowed;
            if (!count)
                continue;
            if (sample_into(getrandbits, bits, nallowed, count, pool, drawn) < 0)
                goto fail;
            for (long i = 0; i < count; i++) {
                pick[npick++] = allowed[drawn[i]];
                chosen[allowed[drawn[i]]] = 1;
            }
        }
        if (need > npick) {
            long k = need < size ? need : (long)size, left = need - npick;
            if (sample_into(getrandbits, bits, (long)size, k, pool, drawn) < 0)
                goto fail;
            long taken = 0;
            for (long i = 0; i < k && taken < left; i++)
                if (!chosen[drawn[i]])
                    pick[npick++] = drawn[i], taken++;
            if (npick < need) { /* the draws met the allowed ones: fill in order */
                memset(chosen, 0, sizeof chosen);
                for (long i = 0; i < npick; i++)
                    chosen[pick[i]] = 1;
                for (long i = 0; i < size && npick < need; i++)
                    if (!chosen[i])
                        pick[npick++] = i;
            }
        }
        for (long i = 0; i < npick; i++)
            cards[i] = ids[pick[i]];
        long wrong = 0;
        for (Py_ssize_t i = 0; i < ntests; i++) {
            const ChoiceTest *t = (const ChoiceTest *)PyBytes_AS_STRING(PyList_GET_ITEM(tests, i));
            if (!choice_passes(t, cards, (int)npick) && ++wrong >= fewest)
                break; /* no better than the best deal so far */
        }
        if (wrong < fewest) {
            memcpy(best, pick, sizeof(long) * (size_t)npick);
            nbest = npick;
            fewest = wrong;
            if (!wrong)
                break;
        }
    }
    drop_bits(bits);
    PyObject *dealt = PyList_New(nbest), *rest = PyList_New(size - nbest);
    if (dealt == NULL || rest == NULL) {
        Py_XDECREF(dealt);
        Py_XDECREF(rest);
        return NULL;
    }
    memset(chosen, 0, sizeof chosen);
    for (long i = 0; i < nbest; i++) {
        PyObject *card = PyList_GET_ITEM(unseen, best[i]);
        Py_INCREF(card);
        PyList_SET_ITEM(dealt, i, card);
        chosen[best[i]] = 1;
    }
    for (Py_ssize_t i = 0, k = 0; i < size; i++)
        if (!chosen[i]) {
            PyObject *card = PyList_GET_ITEM(unseen, i);
            Py_INCREF(card);
            PyList_SET_ITEM(rest, k++, card);
        }
    return Py_BuildValue("(NN)", dealt, rest);
fail:
    drop_bits(bits);
    return NULL;
}

/* ==================================================================================
 * The environment's table (una.env.core.CoreTable, issue 18): EnvTable's turn order,
 * action mask and observation in C, stepping this file's Game. Everything of the
 * layout comes from Python at construction: the action space's slots
 * (una.env.actions.ActionSpace), the observation's fields and card order
 * (una.env.observation.ObservationEncoder); the table checks the field names against
 * its own list and refuses a layout it does not write. tests/env/test_env_core.py
 * compares it with the Python table step by step on every preset.
 * ================================================================================== */

/* The observation fields the table writes (ObservationEncoder's names). */
enum { OF_HAND, OF_TOP, OF_COLOR, OF_DRAWN, OF_DISCARD, OF_REVEALED, OF_HAND_COUNTS,
       OF_SET_ASIDE, OF_SCORES, OF_POSITION, OF_DIRECTION, OF_PENDING, OF_DRAW_PILE, OF_ME,
       OF_TO_ACT, OF_DEALER, OF_UNO_CALLED, OF_CATCHABLE, OF_OUT, OF_PHASE, OF_COUNT };
static const char *const OBS_FIELDS[OF_COUNT] = {
    "hand", "top", "color", "drawn", "discard", "revealed", "hand_counts", "set_aside",
    "scores", "position", "direction", "pending_draw", "draw_pile", "me", "to_act",
    "dealer", "uno_called", "catchable", "out", "phase"};
/* A field's size: 0 cards (K), 1 seats (n), 2 seats x cards, else the number itself. */
static const int OBS_SIZES[OF_COUNT] = {-1, -1, 4, -1, -1, -3, -2, -2, -2, -2, 1, 1, 1,
                                        -2, -2, -2, -2, -2, -2, 6};
/* Slot patterns (ActionSpace's Pattern): no pick, one pick, every pick to one seat, the
 * even split round the table. */
enum { PT_NONE, PT_ONE, PT_ALL, PT_EVEN };
enum { RV_NONE, RV_SHOWN, RV_LIVE };
static const char *const KIND_NAMES[8] = {"play", "draw", "pass", "color", "challenge",
                                          "uno", "catch", "deal"};

typedef struct {
    PyObject_HEAD
    PyObject *rules_obj;
    const Rules *r;
    Game g;
    int n, nslots, wait, reward_match, max_steps;
    /* slots */
    int bare[8];                  /* by kind: draw pass challenge uno deal; -1 none */
    int color_slot[4], catch_slot[MAXP];
    int16_t *play_slot;           /* [card][color + 1][pick + 1][uno]: PT_NONE / PT_ONE */
    int16_t *all_slot;            /* [card][color + 1][seat][uno]: PT_ALL */
    int16_t *even_slot;           /* [card][color + 1][uno]: PT_EVEN */
    /* observation */
    int off[OF_COUNT], size, k;
    int16_t obs_card[MAXK];       /* card id -> its place in the card fields, -1 none */
    Py_buffer obs, mask;          /* float32[size], int8[nslots] */
    /* turn order (EnvTable) */
    int rotation, round_start, queue[MAXP], qhead, qlen;
    int selected, offering, steps, done, truncated;
    Act legal[MAXACT];
    int nlegal;
    int16_t *slot_legal;          /* slot -> index in legal, -1 */
    int16_t set_slots[MAXACT];
    int nset;
    /* what was shown to whom (Game.reveals, as views choose them) */
    uint8_t rev[MAXP][MAXP];
    uint8_t rev_cards[MAXP][MAXP][MAXK];
    /* (seat, slot) of every step since the reset, for replaying it in Python */
    int32_t *history;
    long hlen_, hcap;
} EnvCore;

#define PLAY_AT(e, card, color, pick, uno) \
    ((e)->play_slot[(((card) * 5 + (color) + 1) * (MAXP + 1) + (pick) + 1) * 2 + (uno)])
#define ALL_AT(e, card, color, seat, uno) \
    ((e)->all_slot[(((card) * 5 + (color) + 1) * MAXP + (seat)) * 2 + (uno)])
#define EVEN_AT(e, card, color, uno) ((e)->even_slot[((card) * 5 + (color) + 1) * 2 + (uno)])

/* The slot of a legal action, -1 if the space holds none (ActionSpace.find). */
static int env_slot(const EnvCore *e, const Act *a, int seat)
{
    const Game *g = &e->g;
    switch (a->kind) {
    case A_PLAY:
        if (a->npicks == 0)
            return PLAY_AT(e, a->card, a->color, a->target, a->uno);
        {
            int only = -1, same = 1, others[MAXP], m = 0;
            for (int s = 0; s < g->n; s++) {
                if (a->picks[s]) {
                    if (only >= 0)
                        same = 0;
                    only = s;
                }
                if (g->active[s] && s != seat)
                    others[m++] = s;
            }
            if (same && only >= 0)
                return ALL_AT(e, a->card, a->color, only, a->uno);
            /* the even split round the other seats in the hand (env.actions.even_split) */
            int16_t even[MAXP] = {0};
            for (int i = 0; m && i < a->npicks; i++)
                even[others[i % m]]++;
            if (m == 0 || memcmp(even, a->picks, sizeof even) != 0)
                return -1;
            return EVEN_AT(e, a->card, a->color, a->uno);
        }
    case A_COLOR:
        return e->color_slot[a->color];
    case A_CATCH:
        return e->catch_slot[a->target];
    default:
        return e->bare[a->kind];
    }
}

/* The legal actions of `seat` by slot, into legal / slot_legal / the mask; how many. */
static int env_map(EnvCore *e, int seat)
{
    for (int i = 0; i < e->nset; i++)
        e->slot_legal[e->set_slots[i]] = -1;
    e->nset = 0;
    int8_t *mask = e->mask.buf;
    memset(mask, 0, (size_t)e->mask.len);
    int k = legal_actions(&e->g, seat, e->legal);
    e->nlegal = k;
    for (int i = 0; i < k; i++) {
        int slot = env_slot(e, &e->legal[i], seat);
        if (slot < 0)
            continue;
        if (e->slot_legal[slot] < 0)
            e->set_slots[e->nset++] = (int16_t)slot;
        e->slot_legal[slot] = (int16_t)i; /* the last one, as a dict keeps it */
        mask[slot] = 1;
    }
    return e->nset;
}

static void env_new_queue(EnvCore *e, int start)
{
    for (int i = 0; i < e->n; i++)
        e->queue[i] = (start + i) % e->n;
    e->qhead = 0;
    e->qlen = e->n;
}

/* EnvTable._select. */
static void env_select(EnvCore *e)
{
    Game *g = &e->g;
    e->offering = 0;
    if (is_over(g)) {
        e->selected = g->seating[(g->position[g->dealer] + 1) % e->n];
        env_map(e, e->selected);
        return;
    }
    while (e->qhead < e->qlen) {
        int seat = e->queue[e->qhead++];
        if (seat == g->to_act)
            continue;
        if (env_map(e, seat)) {
            e->selected = seat;
            e->offering = 1;
            ((int8_t *)e->mask.buf)[e->wait] = 1;
            return;
        }
    }
    e->selected = g->to_act;
    env_map(e, g->to_act);
}

static void env_clear_reveals(EnvCore *e)
{
    memset(e->rev, RV_NONE, sizeof e->rev);
}

/* Game._challenge and Spy add to Game.reveals; a live reveal outlasts a later showing. */
static void env_reveal(EnvCore *e, int viewer, int shown, int live)
{
    if (e->rev[viewer][shown] == RV_LIVE)
        return;
    e->rev[viewer][shown] = live ? RV_LIVE : RV_SHOWN;
    if (!live) {
        uint8_t *counts = e->rev_cards[viewer][shown];
        memset(counts, 0, MAXK);
        const uint8_t *hand = HAND(&e->g, shown);
        for (int i = 0; i < HLEN(&e->g, shown); i++)
            counts[hand[i]]++;
    }
}

static void env_apply(EnvCore *e, int seat, const Act *a)
{
    Game *g = &e->g;
    if (a->kind == A_CHALLENGE) {
        int accused = g->pending_source;
        close_uno_windows(g, seat); /* the hand is shown as it is then */
        env_reveal(e, seat, accused, g->pending_guilty && SW(g, S_REVEAL));
    } else if (a->kind == A_PLAY && g->r->effect[a->card] == EF_SPY && HLEN(g, seat) > 1) {
        env_reveal(e, seat, a->target, 1);
        env_reveal(e, a->target, seat, 1);
    } else if (a->kind == A_DEAL) {
        env_clear_reveals(e);
    }
    apply(g, seat, a);
}

static void env_finish(EnvCore *e)
{
    e->nlegal = 0;
    for (int i = 0; i < e->nset; i++)
        e->slot_legal[e->set_slots[i]] = -1;
    e->nset = 0;
    memset(e->mask.buf, 0, (size_t)e->mask.len);
}

/* EnvTable._finished. */
static int env_finished(EnvCore *e)
{
    Game *g = &e->g;
    if (e->reward_match ? g->phase == PH_MATCH_OVER : is_over(g)) {
        e->done = 1;
    } else if (e->steps >= e->max_steps) {
        e->done = e->truncated = 1;
    } else {
        return 0;
    }
    env_finish(e);
    return 1;
}

static void env_dealloc(EnvCore *e)
{
    if (e->obs.obj != NULL)
        PyBuffer_Release(&e->obs);
    if (e->mask.obj != NULL)
        PyBuffer_Release(&e->mask);
    Py_XDECREF(e->rules_obj);
    PyMem_Free(e->play_slot);
    PyMem_Free(e->all_slot);
    PyMem_Free(e->even_slot);
    PyMem_Free(e->slot_legal);
    PyMem_Free(e->history);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static int env_kind(PyObject *name)
{
    for (int k = 0; k < 8; k++)
        if (text_is(name, KIND_NAMES[k]))
            return k;
    return -1;
}

/* Table(rules, slots, fields, cards, phases, obs, mask, max_steps, match): slots are
 * (kind, card id or -1, color or -1, pattern, seat or -1, uno) for every slot but wait
 * (the last); fields the encoder's {name: (start, stop)}; cards its card ids in order;
 * phases PHASES; obs and mask writable float32 and int8 buffers the table writes. */
static PyObject *env_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *rules_obj, *slots, *fields, *cards, *phases, *obs_obj, *mask_obj;
    int max_steps, match;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "Table takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOOOOOOip:Table", &rules_obj, &slots, &fields, &cards,
                          &phases, &obs_obj, &mask_obj, &max_steps, &match))
        return NULL;
    const Rules *r = rules_of(rules_obj);
    if (r == NULL)
        return NULL;
    EnvCore *e = (EnvCore *)type->tp_alloc(type, 0);
    if (e == NULL)
        return NULL;
    e->rules_obj = Py_NewRef(rules_obj);
    e->r = r;
    e->n = r->n;
    e->max_steps = max_steps;
    e->reward_match = match;
    int n = e->n;
    /* the phases, in the order of the phase field */
    PyObject *ph = PySequence_Fast(phases, "phases: expected a sequence");
    if (ph == NULL)
        goto fail;
    int phases_ok = PySequence_Fast_GET_SIZE(ph) == 6;
    for (int i = 0; phases_ok && i < 6; i++)
        phases_ok = text_is(PySequence_Fast_GET_ITEM(ph, i), PHASE_NAMES[i]);
    Py_DECREF(ph);
    if (!phases_ok) {
        PyErr_SetString(PyExc_ValueError, "phases: not the core's phase order");
        goto fail;
    }
    /* cards */
    PyObject *cs = PySequence_Fast(cards, "cards: expected a sequence");
    if (cs == NULL)
        goto fail;
    e->k = (int)PySequence_Fast_GET_SIZE(cs);
    for (int c = 0; c < MAXK; c++)
        e->obs_card[c] = -1;
    for (int i = 0; i < e->k; i++) {
        long id = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, i));
        if (id < 0 || id >= MAXK) {
            Py_DECREF(cs);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "cards: %ld is no card id", id);
            goto fail;
        }
        e->obs_card[id] = (int16_t)i;
    }
    Py_DECREF(cs);
    for (int c = 0; c < r->deck_len; c++) {
        if (e->obs_card[r->deck[c]] < 0) {
            PyErr_Format(PyExc_ValueError, "cards: the deck's %s is not among them",
                         card_codes[r->deck[c]]);
            goto fail;
        }
    }
    /* fields: exactly the table's, each of its size, covering the vector */
    if (!PyDict_Check(fields) || PyDict_GET_SIZE(fields) != OF_COUNT) {
        PyErr_Format(PyExc_ValueError, "fields: expected a dict of the %d fields the table "
                     "writes", OF_COUNT);
        goto fail;
    }
    e->size = 0;
    for (int f = 0; f < OF_COUNT; f++) {
        PyObject *span = PyDict_GetItemString(fields, OBS_FIELDS[f]);
        int start, stop;
        if (span == NULL || !PyArg_ParseTuple(span, "ii", &start, &stop)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "fields: no (start, stop) for %s", OBS_FIELDS[f]);
            goto fail;
        }
        int want = OBS_SIZES[f] == -1 ? e->k : OBS_SIZES[f] == -2 ? n
                   : OBS_SIZES[f] == -3 ? n * e->k : OBS_SIZES[f];
        if (stop - start != want || start < 0) {
            PyErr_Format(PyExc_ValueError, "fields: %s has %d places, not %d", OBS_FIELDS[f],
                         stop - start, want);
            goto fail;
        }
        e->off[f] = start;
        if (stop > e->size)
            e->size = stop;
    }
    /* slots */
    PyObject *ss = PySequence_Fast(slots, "slots: expected a sequence");
    if (ss == NULL)
        goto fail;
    e->nslots = (int)PySequence_Fast_GET_SIZE(ss) + 1;
    e->wait = e->nslots - 1;
    size_t play_len = (size_t)MAXK * 5 * (MAXP + 1) * 2, all_len = (size_t)MAXK * 5 * MAXP * 2,
           even_len = (size_t)MAXK * 5 * 2;
    e->play_slot = PyMem_Malloc(play_len * sizeof(int16_t));
    e->all_slot = PyMem_Malloc(all_len * sizeof(int16_t));
    e->even_slot = PyMem_Malloc(even_len * sizeof(int16_t));
    e->slot_legal = PyMem_Malloc((size_t)e->nslots * sizeof(int16_t));
    if (e->play_slot == NULL || e->all_slot == NULL || e->even_slot == NULL
        || e->slot_legal == NULL || e->nslots > 32000) {
        Py_DECREF(ss);
        PyErr_NoMemory();
        goto fail;
    }
    memset(e->play_slot, 0xff, play_len * sizeof(int16_t)); /* -1 */
    memset(e->all_slot, 0xff, all_len * sizeof(int16_t));
    memset(e->even_slot, 0xff, even_len * sizeof(int16_t));
    memset(e->slot_legal, 0xff, (size_t)e->nslots * sizeof(int16_t));
    for (int i = 0; i < 8; i++)
        e->bare[i] = -1;
    for (int i = 0; i < 4; i++)
        e->color_slot[i] = -1;
    for (int i = 0; i < MAXP; i++)
        e->catch_slot[i] = -1;
    for (int i = 0; i < e->wait; i++) {
        PyObject *kind_name;
        int card, color, pattern, seat, uno;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ss, i), "Oiiiip", &kind_name, &card,
                              &color, &pattern, &seat, &uno)) {
            Py_DECREF(ss);
            goto fail;
        }
        int kind = env_kind(kind_name);
        int bad = kind < 0 || card < -1 || card >= MAXK || color < -1 || color > 3
                  || seat < -1 || seat >= n || pattern < PT_NONE || pattern > PT_EVEN;
        if (!bad && kind == A_PLAY) {
            bad = card < 0;
            if (!bad && pattern == PT_NONE)
                PLAY_AT(e, card, color, -1, uno) = (int16_t)i;
            else if (!bad && pattern == PT_ONE)
                bad = seat < 0 || (PLAY_AT(e, card, color, seat, uno) = (int16_t)i) < 0;
            else if (!bad && pattern == PT_ALL)
                bad = seat < 0 || (ALL_AT(e, card, color, seat, uno) = (int16_t)i) < 0;
            else if (!bad)
                EVEN_AT(e, card, color, uno) = (int16_t)i;
        } else if (!bad && kind == A_COLOR) {
            bad = color < 0;
            if (!bad)
                e->color_slot[color] = i;
        } else if (!bad && kind == A_CATCH) {
            bad = seat < 0;
            if (!bad)
                e->catch_slot[seat] = i;
        } else if (!bad) {
            e->bare[kind] = i;
        }
        if (bad) {
            Py_DECREF(ss);
            PyErr_Format(PyExc_ValueError, "slots: slot %d is not one the table knows", i);
            goto fail;
        }
    }
    Py_DECREF(ss);
    for (int i = 0; i < 4 + n; i++) {
        if ((i < 4 ? e->color_slot[i] : e->catch_slot[i - 4]) < 0) {
            PyErr_SetString(PyExc_ValueError, "slots: a color or a catch has no slot");
            goto fail;
        }
    }
    /* the buffers */
    if (PyObject_GetBuffer(obs_obj, &e->obs, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        < 0)
        goto fail;
    if (e->obs.itemsize != 4 || strcmp(e->obs.format, "f") != 0 || e->obs.len != 4 * e->size) {
        PyErr_Format(PyExc_ValueError, "obs: expected a writable float32 buffer of %d",
                     e->size);
        goto fail;
    }
    if (PyObject_GetBuffer(mask_obj, &e->mask, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        < 0)
        goto fail;
    if (e->mask.itemsize != 1 || e->mask.len != e->nslots
        || (strcmp(e->mask.format, "b") != 0 && strcmp(e->mask.format, "B") != 0)) {
        PyErr_Format(PyExc_ValueError, "mask: expected a writable int8 buffer of %d",
                     e->nslots);
        goto fail;
    }
    e->done = 1; /* until the first reset */
    return (PyObject *)e;
fail:
    Py_DECREF(e);
    return NULL;
}

/* reset(seed, dealer): a new game, as Game(rules, n, seed=seed, dealer=dealer). */
static PyObject *env_reset(EnvCore *e, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned long long seed;
    int dealer;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "reset(seed, dealer)");
        return NULL;
    }
    seed = PyLong_AsUnsignedLongLongMask(args[0]);
    dealer = PyLong_AsLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    if (dealer < 0 || dealer >= e->n) {
        PyErr_Format(PyExc_ValueError, "dealer: %d", dealer);
        return NULL;
    }
    new_game(&e->g, e->r, seed, dealer);
    env_clear_reveals(e);
    e->steps = e->done = e->truncated = 0;
    e->rotation = e->round_start = 0;
    e->qhead = e->qlen = 0;
    e->hlen_ = 0;
    env_select(e);
    Py_RETURN_NONE;
}

/* step(slot) -> the seat selected next, -3 (the step ended the episode), -1 (not legal
 * now: nothing changed) or -2 (the episode was over). */
static PyObject *env_step(EnvCore *e, PyObject *arg)
{
    long index = PyLong_AsLong(arg);
    if (index == -1 && PyErr_Occurred())
        return NULL;
    if (e->done)
        return PyLong_FromLong(-2);
    const Act *a = NULL;
    if (!(index == e->wait && e->offering)) {
        if (index < 0 || index >= e->wait || e->slot_legal[index] < 0)
            return PyLong_FromLong(-1);
        a = &e->legal[e->slot_legal[index]];
    }
    if (e->hlen_ + 2 > e->hcap) {
        long cap = e->hcap ? e->hcap * 2 : 1024;
        int32_t *grown = PyMem_Realloc(e->history, (size_t)cap * 2 * sizeof(int32_t));
        if (grown == NULL)
            return PyErr_NoMemory();
        e->history = grown;
        e->hcap = cap;
    }
    e->history[2 * e->hlen_] = e->selected;
    e->history[2 * e->hlen_ + 1] = (int32_t)index;
    e->hlen_++;
    e->steps++;
    int offering = e->offering, turn = 0;
    if (a != NULL) {
        Act act = *a; /* legal is rewritten by the next selection */
        turn = act.kind <= A_CHALLENGE;
        env_apply(e, e->selected, &act);
    }
    if (!env_finished(e)) {
        if (!offering) {
            e->round_start = e->rotation;
            e->rotation = (e->rotation + 1) % e->n;
            env_new_queue(e, e->round_start);
        } else if (turn) {
            env_new_queue(e, e->round_start); /* a jump-in: everybody may answer it again */
        }
        env_select(e);
        return PyLong_FromLong(e->selected);
    }
    return PyLong_FromLong(-3);
}

/* observe(seat): the seat's observation into the obs buffer (ObservationEncoder.encode). */
static PyObject *env_observe(EnvCore *e, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= e->n) {
        PyErr_Format(PyExc_ValueError, "there is no seat %ld (seats are 0-%d)", seat, e->n - 1);
        return NULL;
    }
    const Game *g = &e->g;
    const int16_t *at = e->obs_card;
    const int *o = e->off;
    int n = e->n, k = e->k;
    float *obs = e->obs.buf;
    memset(obs, 0, (size_t)e->obs.len);
    const uint8_t *hand = HAND(g, seat);
    for (int i = 0; i < HLEN(g, seat); i++)
        obs[o[OF_HAND] + at[hand[i]]] += 1;
    obs[o[OF_TOP] + at[TOP(g)]] = 1;
    if (g->color >= 0)
        obs[o[OF_COLOR] + g->color] = 1;
    if (g->to_act == seat && g->drawn >= 0)
        obs[o[OF_DRAWN] + at[g->drawn]] = 1;
    for (int i = 0; i < g->dlen; i++)
        obs[o[OF_DISCARD] + at[g->discard[i]]] += 1;
    for (int s = 0; s < n; s++) {
        int how = e->rev[seat][s];
        if (how == RV_NONE)
            continue;
        float *block = obs + o[OF_REVEALED] + s * k;
        if (how == RV_LIVE) {
            const uint8_t *shown = HAND(g, s);
            for (int i = 0; i < HLEN(g, s); i++)
                block[at[shown[i]]] += 1;
        } else {
            const uint8_t *counts = e->rev_cards[seat][s];
            for (int c = 0; c < MAXK; c++)
                if (counts[c])
                    block[at[c]] += counts[c];
        }
    }
    for (int s = 0; s < n; s++) {
        obs[o[OF_HAND_COUNTS] + s] = (float)HLEN(g, s);
        obs[o[OF_SET_ASIDE] + s] = (float)g->alen[s];
        obs[o[OF_SCORES] + s] = (float)g->scores[s];
        obs[o[OF_POSITION] + s] = (float)g->position[s];
        if (g->called[s] && HLEN(g, s) == 1)
            obs[o[OF_UNO_CALLED] + s] = 1;
        if (catchable(g, s))
            obs[o[OF_CATCHABLE] + s] = 1;
    }
    obs[o[OF_DIRECTION]] = (float)g->direction;
    obs[o[OF_PENDING]] = (float)g->pending;
    obs[o[OF_DRAW_PILE]] = (float)g->plen;
    obs[o[OF_ME] + seat] = 1;
    obs[o[OF_DEALER] + g->dealer] = 1;
    if (!is_over(g)) {
        if (g->to_act >= 0)
            obs[o[OF_TO_ACT] + g->to_act] = 1;
        for (int i = 0; i < g->rank_len; i++)
            obs[o[OF_OUT] + g->ranking[i]] = 1;
    }
    obs[o[OF_PHASE] + g->phase] = 1;
    Py_RETURN_NONE;
}

/* result() -> (hand winner or -1, hand points, match winner or -1, scores). */
static PyObject *env_result(EnvCore *e, PyObject *unused)
{
    (void)unused;
    const Game *g = &e->g;
    return Py_BuildValue("iNiN", g->hand_winner, int_list(g->hand_points, e->n), g->winner,
                         int_list(g->scores, e->n));
}

/* history(start) -> [(seat, slot), ...]: the steps since the reset, from step start. */
static PyObject *env_history(EnvCore *e, PyObject *arg)
{
    long start = PyLong_AsLong(arg);
    if (start == -1 && PyErr_Occurred())
        return NULL;
    if (start < 0 || start > e->hlen_)
        start = e->hlen_;
    PyObject *out = PyList_New(e->hlen_ - start);
    if (out == NULL)
        return NULL;
    for (long i = start; i < e->hlen_; i++) {
        PyObject *item = Py_BuildValue("(ii)", e->history[2 * i], e->history[2 * i + 1]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i - start, item);
    }
    return out;
}

static PyObject *env_get(EnvCore *e, void *which)
{
    switch ((int)(intptr_t)which) {
    case 0:
        return PyLong_FromLong(e->selected);
    case 1:
        return PyBool_FromLong(e->offering);
    case 2:
        return PyBool_FromLong(e->done);
    case 3:
        return PyBool_FromLong(e->truncated);
    default:
        return PyLong_FromLong(e->steps);
    }
}

static PyMethodDef env_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))env_reset, METH_FASTCALL,
     "reset(seed, dealer): a new game, as Game(rules, players, seed=seed, dealer=dealer)."},
    {"step", (PyCFunction)env_step, METH_O,
     "step(slot) -> the next seat, -3 (episode over), -1 (not legal: no change), -2 (was over)."},
    {"observe", (PyCFunction)env_observe, METH_O,
     "observe(seat): the seat's observation into the obs buffer."},
    {"result", (PyCFunction)env_result, METH_NOARGS,
     "result() -> (hand winner, hand points, match winner, scores); -1: none."},
    {"history", (PyCFunction)env_history, METH_O,
     "history(start) -> [(seat, slot), ...] of the steps since the reset, from start."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef env_getset[] = {
    {"selected", (getter)env_get, NULL, "the seat whose decision it is", (void *)0},
    {"offering", (getter)env_get, NULL, "whether it is offered an out-of-turn chance",
     (void *)1},
    {"done", (getter)env_get, NULL, "whether the episode is over", (void *)2},
    {"truncated", (getter)env_get, NULL, "whether it was cut short (max_steps)", (void *)3},
    {"steps", (getter)env_get, NULL, "actions since the reset", (void *)4},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EnvType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "una.engine._fastcore.Table",
    .tp_basicsize = sizeof(EnvCore),
    .tp_dealloc = (destructor)env_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The environment's table in C (una.env.core.CoreTable).",
    .tp_methods = env_methods,
    .tp_getset = env_getset,
    .tp_new = env_new,
};
/* ==================================================== end of the environment's table */

static PyMethodDef methods[] = {
    {"compile_rules", py_compile_rules, METH_VARARGS,
     "compile_rules(switches, cards, deck, hand_size, players) -> bytes\n\n"
     "The rule set as the core plays it; ValueError if the core does not play it."},
    {"random_playouts", py_random_playouts, METH_VARARGS,
     "random_playouts(rules, games, seed) -> (games, moves, wins, points)"},
    {"trace", py_trace, METH_VARARGS,
     "trace(rules, names, values, policy_seed, hands, with_states) -> steps"},
    {"set_cards", py_set_cards, METH_O,
     "set_cards(cards) -> None: register una.engine.cards.ALL_CARDS, in card id order."},
    {"playout_from", py_playout_from, METH_VARARGS,
     "playout_from(rules, names, values, policy_seed) -> (winner, points, moves)"},
    {"playouts_from", py_playouts_from, METH_VARARGS,
     "playouts_from(rules, names, values, policy_seed, policy, repeats, limit,\n"
     "              shuffle_pile) -> (wins per seat, moves)"},
    {"playouts_after", py_playouts_after, METH_VARARGS,
     "playouts_after(rules, names, values, seat, codes, policy_seed, policy, repeats, limit,\n"
     "               shuffle_pile) -> [(wins per seat, moves, points per seat), ...]"},
    {"sim_games", py_sim_games, METH_VARARGS,
     "sim_games(rules, games, matches, limit) -> results (una sim, random bots)"},
    {"mt_randrange", py_mt_randrange, METH_VARARGS,
     "mt_randrange(seed, n, count) -> list (random.Random(seed).randrange(n) x count)"},
    {"rng_shuffle", py_rng_shuffle, METH_VARARGS,
     "rng_shuffle(getrandbits, items) -> None (random.Random.shuffle, draw for draw)"},
    {"rng_sample", py_rng_sample, METH_VARARGS,
     "rng_sample(getrandbits, n, k) -> list (random.Random.sample(range(n), k))"},
    {"choice_test", py_choice_test, METH_VARARGS,
     "choice_test(held, count, value, mine, fixed, terms, points, colors) -> bytes"},
    {"choice_passes", py_choice_passes, METH_VARARGS,
     "choice_passes(test, cards) -> bool (una.bots.belief.ChoiceTest.passes)"},
    {"deal_checked", py_deal_checked, METH_VARARGS,
     "deal_checked(getrandbits, unseen, banned, bound, need, tries, tests) -> (dealt, rest)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastcore",
    "The engine's hand and match, and the random policy, in C (see una.engine.fast).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastcore(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *switches = PyDict_New(), *effects = PyTuple_New(EF_COUNT),
             *fields = PyTuple_New(NFIELDS);
    if (switches == NULL || effects == NULL || fields == NULL)
        goto fail;
    for (int i = 0; i < NSWITCHES; i++) {
        const SwitchSpec *spec = &SWITCH_SPECS[i];
        PyObject *values;
        if (spec->kind == SW_BOOL) {
            values = PyList_New(0);
            if (spec->bools & 1)
                PyList_Append(values, Py_False);
            if (spec->bools & 2)
                PyList_Append(values, Py_True);
        } else if (spec->kind == SW_CHOICE) {
            values = PyList_New(0);
            for (int c = 0; spec->choices[c] != NULL; c++) {
                PyObject *text = PyUnicode_FromString(spec->choices[c]);
                PyList_Append(values, text);
                Py_DECREF(text);
            }
        } else if (spec->kind == SW_CARDS) {
            values = PyUnicode_FromString("any whose effects are in EFFECTS");
        } else {
            values = PyUnicode_FromString("any");
        }
        if (values == NULL || PyDict_SetItemString(switches, spec->name, values) < 0)
            goto fail;
        Py_DECREF(values);
    }
    for (int i = 0; i < EF_COUNT; i++)
        PyTuple_SET_ITEM(effects, i, PyUnicode_FromString(EFFECT_KEYS[i]));
    for (int i = 0; i < NFIELDS; i++)
        PyTuple_SET_ITEM(fields, i, PyUnicode_FromString(STATE_FIELDS[i].name));
    if (PyModule_AddObject(m, "SWITCHES", switches) < 0)
        goto fail;
    switches = NULL;
    if (PyModule_AddObject(m, "EFFECTS", effects) < 0)
        goto fail;
    effects = NULL;
    if (PyModule_AddObject(m, "STATE_FIELDS", fields) < 0)
        goto fail;
    fields = NULL;
    PyObject *unheld = PyTuple_New(0);
    for (int i = 0; i < NFIELDS && unheld != NULL; i++) {
        if (STATE_FIELDS[i].use == F_READ)
            continue;
        PyObject *name = PyUnicode_FromString(STATE_FIELDS[i].name);
        PyObject *grown = name == NULL ? NULL : PySequence_Concat(unheld, PyTuple_Pack(1, name));
        Py_XDECREF(name);
        Py_DECREF(unheld);
        unheld = grown;
    }
    if (unheld == NULL || PyModule_AddObject(m, "STATE_UNHELD", unheld) < 0)
        goto fail;
    if (PyType_Ready(&EnvType) < 0 || PyModule_AddObjectRef(m, "Table", (PyObject *)&EnvType) < 0)
        goto fail;
    return m;
fail:
    Py_XDECREF(switches);
    Py_XDECREF(effects);
    Py_XDECREF(fields);
    Py_DECREF(m);
    return NULL;
}
