// Generated from `una rules --json` (and `una rules NAME --json`): presets, switches and
// computer players. Used until the server offers GET /api/rules with the same shape.
export const RULES = {
 "presets": {
  "standard": {
   "title": "Official rules",
   "description": "The official 108-card game: Wild Draw Four bluffs may be challenged, UNO must be called and can be caught, the winner of a hand scores the cards left in the other hands, first to 500 wins the match.",
   "players": [
    2,
    10
   ],
   "switches": {
    "stack_draw_two": false,
    "stack_draw_four": false,
    "stack_cross": false,
    "jump_in": false,
    "seven_zero": false,
    "draw_until_playable": false,
    "voluntary_draw": true,
    "play_drawn": "may",
    "uno_call": "manual",
    "uno_window": "next_turn",
    "false_uno_penalty": false,
    "bad_catch_penalty": false,
    "challenge": true,
    "guilty_color": "stands",
    "challenge_reveal": false,
    "wd4_rule": "no_color",
    "finish": "first_out",
    "scoring": "winner_takes_all",
    "target": 500,
    "first_player": "left_of_dealer",
    "players": [
     2,
     10
    ],
    "cards": {}
   }
  },
  "alupula": {
   "title": "Alupula UNO",
   "description": "The Alupula variant: the classic deck plus a colored Draw 4 in each color, four Colourless and two Nagasaki cards. A Wild Draw Four is a bluff if you hold a card of the current color or a number card of the top card's number. Wilds are worth 100.",
   "players": [
    2,
    10
   ],
   "switches": {
    "stack_draw_two": false,
    "stack_draw_four": false,
    "stack_cross": false,
    "jump_in": false,
    "seven_zero": false,
    "draw_until_playable": false,
    "voluntary_draw": true,
    "play_drawn": "may",
    "uno_call": "manual",
    "uno_window": "next_turn",
    "false_uno_penalty": false,
    "bad_catch_penalty": false,
    "challenge": true,
    "guilty_color": "stands",
    "challenge_reveal": false,
    "wd4_rule": "no_color_or_number",
    "finish": "first_out",
    "scoring": "winner_takes_all",
    "target": 500,
    "first_player": "left_of_dealer",
    "players": [
     2,
     10
    ],
    "cards": {}
   }
  },
  "telegram": {
   "title": "Telegram bot (RU)",
   "description": "The Russian Telegram bot's game: Draw Twos stack, a random player starts, and each player scores the points she discarded minus the points left in her hand (numbers face value, Skip / Reverse / Draw Two 10, wilds 20). Its modes are switches: finish (first winner / to the last), uno_call (manual / auto), jump_in, seven_zero.",
   "players": [
    2,
    10
   ],
   "switches": {
    "stack_draw_two": true,
    "stack_draw_four": false,
    "stack_cross": false,
    "jump_in": false,
    "seven_zero": false,
    "draw_until_playable": false,
    "voluntary_draw": true,
    "play_drawn": "may",
    "uno_call": "manual",
    "uno_window": "next_turn",
    "false_uno_penalty": false,
    "bad_catch_penalty": false,
    "challenge": true,
    "guilty_color": "stands",
    "challenge_reveal": false,
    "wd4_rule": "no_color",
    "finish": "first_out",
    "scoring": "discards_minus_hand",
    "target": 500,
    "first_player": "random",
    "players": [
     2,
     10
    ],
    "cards": {}
   }
  },
  "byond": {
   "title": "Una for BYOND",
   "description": "The BYOND game: up to 8 seats; each player adds the points left in her hand and the lowest total wins when someone reaches the limit; a missed or false UNO can be caught until the player's own next turn, and a wrong catch costs the catcher 2; a guilty Wild Draw Four keeps the old color and its hand stays visible to the challenger; wild draws stack. On top of the classic deck: the 22 mutant cards, one of each colored mutant per color and one of each other card (each can be switched off or given a count).",
   "players": [
    2,
    8
   ],
   "switches": {
    "stack_draw_two": false,
    "stack_draw_four": true,
    "stack_cross": false,
    "jump_in": false,
    "seven_zero": false,
    "draw_until_playable": false,
    "voluntary_draw": true,
    "play_drawn": "may",
    "uno_call": "manual",
    "uno_window": "own_turn",
    "false_uno_penalty": true,
    "bad_catch_penalty": true,
    "challenge": true,
    "guilty_color": "reverts",
    "challenge_reveal": true,
    "wd4_rule": "no_color",
    "finish": "first_out",
    "scoring": "penalty",
    "target": 500,
    "first_player": "left_of_dealer",
    "players": [
     2,
     8
    ],
    "cards": {
     "BLEND": 1,
     "CHAIRS": 1,
     "DANCE": 1,
     "DB2": 1,
     "DUNG": 1,
     "HOLY": 1,
     "KOBE": 1,
     "QUIT": 1,
     "RAND": 1,
     "RD2": 1,
     "RR": 1,
     "RS": 1,
     "SCREW": 1,
     "SP": 1,
     "SPY": 1,
     "SS": 1,
     "TRADE": 1,
     "WB4": 1,
     "WDD": 1,
     "WMY": 1,
     "WR4": 1,
     "WTP": 1
    }
   }
  }
 },
 "switches": {
  "stack_draw_two": {
   "default": false,
   "description": "a pending Draw Two may be answered with a Draw Two; the total passes on"
  },
  "stack_draw_four": {
   "default": false,
   "description": "a pending Wild Draw Four may be answered with a Wild Draw Four"
  },
  "stack_cross": {
   "default": false,
   "description": "a Wild Draw Four may answer a pending Draw Two (never the other way)"
  },
  "jump_in": {
   "default": false,
   "description": "a player holding a card identical to the top card may play it out of turn"
  },
  "seven_zero": {
   "default": false,
   "description": "a 0 passes every hand on; a 7 swaps hands with a chosen player"
  },
  "draw_until_playable": {
   "default": false,
   "description": "a player who draws keeps drawing until she gets a playable card"
  },
  "voluntary_draw": {
   "default": true,
   "description": "a player may draw although she could play"
  },
  "play_drawn": {
   "default": "may",
   "description": "after drawing, the drawn card may be played, must be played, or never",
   "choices": [
    "may",
    "must",
    "never"
   ]
  },
  "uno_call": {
   "default": "manual",
   "description": "UNO is called by the player (and can be caught) or automatically",
   "choices": [
    "manual",
    "auto"
   ]
  },
  "uno_window": {
   "default": "next_turn",
   "description": "a missed UNO can be caught until the next player acts, or until her own turn",
   "choices": [
    "next_turn",
    "own_turn"
   ]
  },
  "false_uno_penalty": {
   "default": false,
   "description": "calling UNO with more than one card can be caught like a missed call"
  },
  "bad_catch_penalty": {
   "default": false,
   "description": "a wrong catch costs the catcher 2 cards"
  },
  "challenge": {
   "default": true,
   "description": "Wild Draw Four bluffs are allowed and may be challenged (off: refused)"
  },
  "guilty_color": {
   "default": "stands",
   "description": "after a guilty challenge the named color stands or reverts",
   "choices": [
    "stands",
    "reverts"
   ]
  },
  "challenge_reveal": {
   "default": false,
   "description": "after a guilty challenge the challenger sees that hand for the rest of the hand"
  },
  "wd4_rule": {
   "default": "no_color",
   "description": "a Wild Draw Four needs no card of the current color (or also none of its number)",
   "choices": [
    "no_color",
    "no_color_or_number"
   ]
  },
  "finish": {
   "default": "first_out",
   "description": "the hand ends when one player goes out, or goes on to the last player",
   "choices": [
    "first_out",
    "to_the_last"
   ]
  },
  "scoring": {
   "default": "winner_takes_all",
   "description": "how a hand scores: winner takes all, penalty, discards minus hand, none",
   "choices": [
    "winner_takes_all",
    "penalty",
    "discards_minus_hand",
    "none"
   ]
  },
  "target": {
   "default": 500,
   "description": "the score that ends the match"
  },
  "first_player": {
   "default": "left_of_dealer",
   "description": "who plays first in a hand: the player left of the dealer, or a random player",
   "choices": [
    "left_of_dealer",
    "random"
   ]
  },
  "players": {
   "default": [
    2,
    10
   ],
   "description": "the smallest and largest number of seats"
  },
  "cards": {
   "default": {},
   "description": "BYOND mutant cards in the deck: family -> count (colored ones per color)"
  }
 },
 "bots": {
  "random": {
   "levels": [],
   "description": "RLCard's random agent: a uniformly random playable card"
  },
  "heuristic": {
   "levels": [
    1,
    2,
    3,
    4,
    5
   ],
   "description": "rule-based: keeps wilds, names its best color, counts cards to challenge, catches"
  },
  "strong": {
   "levels": [
    "easy",
    "normal",
    "hard"
   ],
   "description": "searches: plays each choice out on hands sampled from what it saw; easy, normal, hard"
  }
 }
};
