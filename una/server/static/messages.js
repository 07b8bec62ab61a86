// The server's messages in words: game events, notices, verb replies and errors arrive as
// data (a type or code and its arguments, see docs/protocol.md); this keyed catalogue says
// them in English and Russian. Every key has both languages (tests/web/test_catalogue.py).

import { cardName, colorName, getLang, plural, t } from "./i18n.js";

const EN = {
  // game events (Event.json_for), by type
  "ev.hand_started": "Hand {n}: {dealer} deals",
  "ev.card_turned": "{card} is turned up",
  "ev.first_card_returned": "{card} goes back into the pile",
  "ev.card_played": "{who} plays {card}",
  "ev.card_played.color": "{who} plays {card} and names {color}",
  "ev.cards_drawn": "{who} draws {cards}",
  "ev.cards_drawn.shown": "{who} draws {cards} ({list})",
  "ev.why.penalty": "penalty",
  "ev.why.challenge": "challenge",
  "ev.why.catch": "no UNO",
  "ev.why.bad_catch": "wrong catch",
  "ev.passed": "{who} passes",
  "ev.color_chosen": "{who} names {color}",
  "ev.color_reverted": "the color goes back to {color}",
  "ev.color_reverted.none": "the color is unnamed again",
  "ev.skipped": "{who} is skipped",
  "ev.direction.cw": "play goes clockwise",
  "ev.direction.ccw": "play goes counter-clockwise",
  "ev.draw_pending": "{who} must draw {n} or answer",
  "ev.hands_swapped": "{a} and {b} swap hands",
  "ev.hands_moved": "every hand passes on: {moves}",
  "ev.hands_redealt": "every hand is pooled, shuffled and dealt back",
  "ev.reseated": "new seating: {names}",
  "ev.left_hand": "{names} quit the hand",
  "ev.challenged.guilty": "{c} challenges {a}: guilty",
  "ev.challenged.innocent": "{c} challenges {a}: innocent",
  "ev.hand_revealed": "{a} shows {b} the hand: {list}",
  "ev.hand_revealed.hidden": "{a} shows {b} the hand",
  "ev.uno_called": "{who} calls UNO",
  "ev.uno_caught": "{c} catches {who} without UNO",
  "ev.uno_missed": "{who} did not call UNO in time",
  "ev.catch_failed": "{c} wrongly catches {who}",
  "ev.reshuffled": "the discard pile is shuffled into a new draw pile of {n}",
  "ev.hand_ended": "{who} wins the hand. Scores: {scores}",
  "ev.hand_ended.blocked": "the hand is blocked; {who} wins it. Scores: {scores}",
  "ev.hand_ended.ended": "the hand is ended: everyone takes the points in her hand. Scores: {scores}",
  "ev.match_ended": "{who} wins the match",
  "ev.and": " and ",
  // notices to the table (protocol.NOTICES)
  "notice.auto.on": "{name} turns auto on",
  "notice.auto.off": "{name} turns auto off",
  "notice.timed_out": "{name} timed out; the computer plays for her",
  "notice.timed_out.auto": "{name} timed out {times} times: the computer plays for her from now on",
  "notice.vote.endgame": "{name} votes to end the game; waiting for {waiting}",
  "notice.vote.endhand": "{name} votes to end the hand; waiting for {waiting}",
  "notice.seat_left.stands": "{name} stands up",
  "notice.seat_left.leaves": "{name} leaves",
  "notice.seat_left.kicked": "{name} is kicked out",
  "notice.seat_left.standin": "; a computer player takes her seat",
  "notice.host": "{name} is the host now",
  "notice.new_game": "{name} starts a new game",
  "notice.false_uno": "{name} calls UNO holding {cards}: that can be challenged (/challenge {name})",
  "notice.unrestorable": "The last game of this table could not be restored: {error}",
  // replies to one's own verbs (protocol.REPLIES)
  "reply.usage.say": "Usage: /say TEXT",
  "reply.usage.play": "Usage: /play CARD [COLOR] [@SEAT ...] [uno]",
  "reply.usage.pick": "Usage: /pick red|yellow|green|blue",
  "reply.unknown_verb": "Unknown verb /{verb}. Verbs: {verbs}",
  "reply.unknown_verb.hint": "Unknown verb /{verb}. Did you mean /{suggestion}? Verbs: {verbs}",
  "reply.uno_no_hand": "UNO: there is no hand of yours to call it in",
  "reply.uno_nothing": "UNO: nothing to call (you hold {cards})",
  "reply.challenge_not_player": "Only a player in the game challenges",
  "reply.challenge_nobody": "Nobody called {name} to challenge; players: {players}",
  "reply.challenge_none": "Nobody can be challenged now: nobody owes an UNO call or made a false one. /challenge NAME to challenge anyway",
  "reply.challenge_whom": "Challenge whom?",
  "reply.color": "The color is {color} (the top card is {top})",
  "reply.color.none": "No color is named yet (the top card is {top})",
  "reply.color.asked": "To name a color use the color picker or /pick",
  "reply.color_no_game": "No game is being played: there is no color yet",
  "reply.who": "Who is here:",
  "reply.who.seat": "seat {n}",
  "reply.who.player": "player",
  "reply.who.bot": "computer player",
  "reply.who.standin": "computer player for {name}, who left",
  "reply.who.watcher": "watching",
  "reply.who.auto": "on auto",
  "reply.who.away": "away",
  "reply.who.host": "host",
  "reply.who.points": "{n} points",
  "reply.game_info": "Table {table}: {rules}. Verbs:",
  "reply.set_icon": "Choose your icon in your profile (a PNG, GIF or BMP of up to 64 KiB)",
  "reply.icon_reset": "Your icon is one of the game's own now, until you log in again",
  // errors (protocol.ERRORS); the server's English sentence goes to the console only
  "err.bad_message": "The server could not read that message",
  "err.too_big": "That message is too large",
  "err.unknown_type": "The server does not know that request",
  "err.internal": "The server failed to do that; nothing was changed",
  "err.moved": "The table moved to another server; nothing was changed. Try again",
  "err.no_hello": "Not logged in yet",
  "err.hello_twice": "Already logged in on this connection",
  "err.bad_token": "Unknown login key: log in with a name",
  "err.no_name": "Please give a name",
  "err.bad_name": "That name cannot be used (at most 24 characters, no control characters)",
  "err.bad_chat": "Chat text must be 1 to 300 characters",
  "err.bad_page": "No such page",
  "err.bad_settings": "Too many settings",
  "err.bad_icon": "That image cannot be used as an icon (a PNG, GIF or BMP of up to 64 KiB)",
  "err.rate_limited": "Too fast: slow down a little",
  "err.bad_rules": "These rules cannot be played",
  "err.bad_seats": "These rules seat {low} to {high} players",
  "err.bad_bots": "From 0 to {high} computer players",
  "err.bad_bot": "No such computer player",
  "err.bad_timer": "The turn timer is 1 to 600 seconds, or none",
  "err.too_many_tables": "You host {most} open tables already ({tables}): leave one first",
  "err.no_table": "There is no open table {table}",
  "err.not_at_table": "You are not at a table",
  "err.banned": "You were kicked out of table {table} until its match is over",
  "err.look_alike": "Someone whose name looks like yours ({other}) is at this table: come back under another name",
  "err.ambiguous_player": "Several people here are called {name}",
  "err.playing": "A hand is being played",
  "err.seated": "You are seated already",
  "err.full": "Every seat is taken",
  "err.bad_seat": "No such seat",
  "err.taken": "That seat is taken",
  "err.not_seated": "Only a seated player may do that",
  "err.not_host": "Only the host may do that",
  "err.no_player": "Nobody called {name} at this table",
  "err.bad_kick": "The host cannot kick herself",
  "err.no_game": "No hand is being played",
  "err.no_seat": "You do not play in this game",
  "err.stale": "Someone acted first: look again",
  "err.bad_action": "That move cannot be read",
  "err.too_few": "At least {low} players are needed to start",
  "err.nothing_to_call": "UNO: nothing to call (you hold {cards})",
  "err.illegal": "This move is not allowed now",
  // an illegal move's reason (the engine's Refusal codes)
  "why.no_seat": "there is no such player",
  "why.match_over": "the game is over",
  "why.hand_in_play": "the hand is still being played",
  "why.hand_over": "the hand is over: the next one is dealt soon",
  "why.out_of_hand": "{seat} is out of this hand",
  "why.not_your_turn": "it is {to_act}'s turn",
  "why.name_color_first": "name the color of the Wild turned up first",
  "why.no_color_asked": "no color is asked for now",
  "why.challenges_off": "challenges are off in these rules",
  "why.nothing_to_challenge": "there is no Wild Draw Four to challenge",
  "why.draw_pending": "a draw of {n} is pending: take it or answer it",
  "why.kobe_lock": "Kobe locks the other cards until it is played",
  "why.cannot_answer": "{card} does not answer a draw of {n}",
  "why.drawn_already": "you have drawn: play {card} or pass",
  "why.must_play_drawn": "the drawn {card} must be played",
  "why.only_drawn": "after drawing only {card} may be played",
  "why.nothing_to_draw": "there is nothing left to draw: pass",
  "why.must_play": "you can play a card, so you may not draw",
  "why.draw_first": "draw before you pass",
  "why.jump_in_pending": "no jump-in while a draw of {n} waits",
  "why.jump_in_deciding": "no jump-in while {to_act} decides",
  "why.jump_in_card": "it is {to_act}'s turn; a jump-in needs exactly {top}",
  "why.not_held": "you do not hold {card}",
  "why.needs_color": "{card} needs a color",
  "why.names_no_color": "{card} names no color",
  "why.not_in_deck": "{card} is not in this deck",
  "why.bad_targets": "{card}: pick another player",
  "why.card_rule": "{card} cannot be played now",
  "why.needs_colored": "{card} cannot go on {top}: play a colored card",
  "why.no_match": "{card} matches neither the color nor {top}",
  "why.bluff_refused": "{card} may not be played while you hold {color}",
  "why.no_target": "there is no such player to catch",
  "why.catch_self": "you cannot catch yourself",
  "why.holds_more": "{target} holds {count}",
  "why.called_uno": "{target} called UNO",
  "why.window_closed": "too late to catch {target}",
  "why.other": "this move is not allowed now",
  "why.vote_needed": "the table decides that: vote with /endhand or /endgame",
  "do.draw": "draw", "do.pass": "pass", "do.uno": "UNO", "do.challenge": "challenge",
  "do.catch": "catch", "do.color": "color", "do.deal": "deal", "do.endhand": "end the hand",
  "do.endgame": "end the game", "do.jump": "jump in",
};

const RU = {
  "ev.hand_started": "Раздача {n}: сдаёт {dealer}",
  "ev.card_turned": "Открыта карта: {card}",
  "ev.first_card_returned": "{card} уходит обратно в колоду",
  "ev.card_played": "{who} ходит: {card}",
  "ev.card_played.color": "{who} ходит: {card}, цвет — {color}",
  "ev.cards_drawn": "{who} берёт {cards}",
  "ev.cards_drawn.shown": "{who} берёт {cards} ({list})",
  "ev.why.penalty": "штраф",
  "ev.why.challenge": "блеф",
  "ev.why.catch": "без УНО",
  "ev.why.bad_catch": "ложная поимка",
  "ev.passed": "{who} пасует",
  "ev.color_chosen": "{who} называет цвет: {color}",
  "ev.color_reverted": "цвет возвращается: {color}",
  "ev.color_reverted.none": "цвет снова не назван",
  "ev.skipped": "{who} пропускает ход",
  "ev.direction.cw": "игра идёт по часовой стрелке",
  "ev.direction.ccw": "игра идёт против часовой стрелки",
  "ev.draw_pending": "{who} должен(на) взять {n} или ответить",
  "ev.hands_swapped": "{a} и {b} меняются картами",
  "ev.hands_moved": "все передают карты дальше: {moves}",
  "ev.hands_redealt": "все карты собраны, перемешаны и розданы заново",
  "ev.reseated": "новая рассадка: {names}",
  "ev.left_hand": "{names}: выход из раздачи",
  "ev.challenged.guilty": "{c} обвиняет в блефе игрока {a}: блеф!",
  "ev.challenged.innocent": "{c} обвиняет в блефе игрока {a}: всё честно",
  "ev.hand_revealed": "{a} показывает карты игроку {b}: {list}",
  "ev.hand_revealed.hidden": "{a} показывает карты игроку {b}",
  "ev.uno_called": "{who}: «УНО!»",
  "ev.uno_caught": "{c} ловит игрока {who} без УНО",
  "ev.uno_missed": "{who} не сказал(а) УНО вовремя",
  "ev.catch_failed": "{c} ошибочно ловит игрока {who}",
  "ev.reshuffled": "сброс перемешан в новую колоду ({n})",
  "ev.hand_ended": "раздачу выиграл(а) {who}. Очки: {scores}",
  "ev.hand_ended.blocked": "раздача зашла в тупик; её выиграл(а) {who}. Очки: {scores}",
  "ev.hand_ended.ended": "раздача окончена досрочно: каждый получает очки за свои карты. Очки: {scores}",
  "ev.match_ended": "{who} выигрывает игру!",
  "ev.and": " и ",
  "notice.auto.on": "{name} включает автоигру",
  "notice.auto.off": "{name} выключает автоигру",
  "notice.timed_out": "{name} не успел(а) сходить; за него (неё) ходит компьютер",
  "notice.timed_out.auto": "{name} не успел(а) сходить {times} раза: дальше за него (неё) играет компьютер",
  "notice.vote.endgame": "{name} голосует за конец игры; ждём: {waiting}",
  "notice.vote.endhand": "{name} голосует за конец раздачи; ждём: {waiting}",
  "notice.seat_left.stands": "{name} встаёт из-за стола",
  "notice.seat_left.leaves": "{name} уходит",
  "notice.seat_left.kicked": "{name} удалён(а) из-за стола",
  "notice.seat_left.standin": "; место занимает компьютер",
  "notice.host": "{name} теперь хозяин стола",
  "notice.new_game": "{name} начинает новую игру",
  "notice.false_uno": "{name} говорит УНО, держа {cards}: это можно оспорить (/challenge {name})",
  "notice.unrestorable": "Последнюю игру за этим столом не удалось восстановить: {error}",
  "reply.usage.say": "Как писать: /say ТЕКСТ",
  "reply.usage.play": "Как писать: /play КАРТА [ЦВЕТ] [@МЕСТО ...] [uno]",
  "reply.usage.pick": "Как писать: /pick red|yellow|green|blue",
  "reply.unknown_verb": "Нет команды /{verb}. Команды: {verbs}",
  "reply.unknown_verb.hint": "Нет команды /{verb}. Может быть, /{suggestion}? Команды: {verbs}",
  "reply.uno_no_hand": "УНО: вы сейчас не играете раздачу",
  "reply.uno_nothing": "УНО: говорить нечего (у вас {cards})",
  "reply.challenge_not_player": "Ловить и обвинять могут только игроки",
  "reply.challenge_nobody": "Нет игрока {name}; игроки: {players}",
  "reply.challenge_none": "Сейчас ловить некого: никто не должен УНО и не говорил ложное. /challenge ИМЯ — поймать всё равно",
  "reply.challenge_whom": "Кого поймать?",
  "reply.color": "Цвет: {color} (сверху {top})",
  "reply.color.none": "Цвет ещё не назван (сверху {top})",
  "reply.color.asked": "Цвет называют в окне выбора цвета или командой /pick",
  "reply.color_no_game": "Игра не идёт: цвета ещё нет",
  "reply.who": "Кто здесь:",
  "reply.who.seat": "место {n}",
  "reply.who.player": "игрок",
  "reply.who.bot": "компьютер",
  "reply.who.standin": "компьютер вместо ушедшего игрока {name}",
  "reply.who.watcher": "смотрит",
  "reply.who.auto": "автоигра",
  "reply.who.away": "отошёл(ла)",
  "reply.who.host": "хозяин стола",
  "reply.who.points": "очков: {n}",
  "reply.game_info": "Стол {table}: {rules}. Команды:",
  "reply.set_icon": "Выберите значок в профиле (PNG, GIF или BMP до 64 КиБ)",
  "reply.icon_reset": "Теперь у вас значок из игры, до следующего входа",
  "err.bad_message": "Сервер не смог прочитать это сообщение",
  "err.too_big": "Слишком большое сообщение",
  "err.unknown_type": "Сервер не знает такого запроса",
  "err.internal": "Сервер не смог это сделать; ничего не изменилось",
  "err.moved": "Стол переехал на другой сервер; ничего не изменилось. Попробуйте ещё раз",
  "err.no_hello": "Вы ещё не вошли",
  "err.hello_twice": "Вы уже вошли в этом соединении",
  "err.bad_token": "Неизвестный ключ входа: войдите с именем",
  "err.no_name": "Укажите имя",
  "err.bad_name": "Такое имя нельзя (не больше 24 знаков, без управляющих символов)",
  "err.bad_chat": "Сообщение — от 1 до 300 знаков",
  "err.bad_page": "Нет такой страницы",
  "err.bad_settings": "Слишком много настроек",
  "err.bad_icon": "Эта картинка не годится для значка (PNG, GIF или BMP до 64 КиБ)",
  "err.rate_limited": "Слишком быстро: чуть помедленнее",
  "err.bad_rules": "По таким правилам играть нельзя",
  "err.bad_seats": "По этим правилам играют от {low} до {high}",
  "err.bad_bots": "Компьютерных игроков — от 0 до {high}",
  "err.bad_bot": "Нет такого компьютерного игрока",
  "err.bad_timer": "Время на ход — от 1 до 600 секунд или без ограничения",
  "err.too_many_tables": "У вас уже {most} открытых столов ({tables}): сначала выйдите из одного",
  "err.no_table": "Нет открытого стола {table}",
  "err.not_at_table": "Вы не за столом",
  "err.banned": "Вас удалили из-за стола {table} до конца его игры",
  "err.look_alike": "За этим столом есть игрок с похожим именем ({other}): зайдите под другим",
  "err.ambiguous_player": "Здесь несколько человек с именем {name}",
  "err.playing": "Идёт раздача",
  "err.seated": "Вы уже сидите за столом",
  "err.full": "Все места заняты",
  "err.bad_seat": "Нет такого места",
  "err.taken": "Это место занято",
  "err.not_seated": "Это может только игрок за столом",
  "err.not_host": "Это может только хозяин стола",
  "err.no_player": "Здесь нет игрока {name}",
  "err.bad_kick": "Хозяин стола не может удалить сам себя",
  "err.no_game": "Раздача не идёт",
  "err.no_seat": "Вы не играете в этой игре",
  "err.stale": "Кто-то успел раньше: посмотрите ещё раз",
  "err.bad_action": "Такой ход не прочитать",
  "err.too_few": "Чтобы начать, нужно хотя бы {low} игрока",
  "err.nothing_to_call": "УНО: говорить нечего (у вас {cards})",
  "err.illegal": "Так сейчас ходить нельзя",
  "why.no_seat": "такого игрока нет",
  "why.match_over": "игра окончена",
  "why.hand_in_play": "раздача ещё идёт",
  "why.hand_over": "раздача окончена: скоро следующая",
  "why.out_of_hand": "{seat} уже вышел(а) из раздачи",
  "why.not_your_turn": "сейчас ходит {to_act}",
  "why.name_color_first": "сначала назовите цвет открытой дикой карты",
  "why.no_color_asked": "цвет сейчас называть не нужно",
  "why.challenges_off": "в этих правилах обвинять в блефе нельзя",
  "why.nothing_to_challenge": "нет «Дикой +4», которую можно оспорить",
  "why.draw_pending": "ждёт взятие {n}: возьмите или ответьте",
  "why.kobe_lock": "«Кобе» запирает остальные карты, пока её не сыграют",
  "why.cannot_answer": "{card} не отвечает на взятие {n}",
  "why.drawn_already": "вы уже взяли карту: сыграйте {card} или пас",
  "why.must_play_drawn": "взятую {card} надо сыграть",
  "why.only_drawn": "после взятия можно сыграть только {card}",
  "why.nothing_to_draw": "брать больше нечего: пас",
  "why.must_play": "у вас есть чем ходить, брать нельзя",
  "why.draw_first": "сначала возьмите карту, потом пас",
  "why.jump_in_pending": "вмешаться нельзя, пока ждёт взятие {n}",
  "why.jump_in_deciding": "вмешаться нельзя, пока {to_act} решает",
  "why.jump_in_card": "сейчас ходит {to_act}; вмешаться можно только такой же {top}",
  "why.not_held": "у вас нет карты {card}",
  "why.needs_color": "для {card} нужен цвет",
  "why.names_no_color": "{card} не называет цвет",
  "why.not_in_deck": "{card} нет в этой колоде",
  "why.bad_targets": "{card}: выберите другого игрока",
  "why.card_rule": "{card} сейчас сыграть нельзя",
  "why.needs_colored": "{card} нельзя на {top}: нужна цветная карта",
  "why.no_match": "{card} не подходит ни по цвету, ни к {top}",
  "why.bluff_refused": "{card} нельзя, пока у вас есть {color}",
  "why.no_target": "ловить некого",
  "why.catch_self": "себя ловить нельзя",
  "why.holds_more": "у игрока {target} {count}",
  "why.called_uno": "{target} сказал(а) УНО",
  "why.window_closed": "{target} ловить уже поздно",
  "why.other": "так сейчас ходить нельзя",
  "why.vote_needed": "это решает стол: голосуйте /endhand или /endgame",
  "do.draw": "взять", "do.pass": "пас", "do.uno": "УНО", "do.challenge": "обвинение в блефе",
  "do.catch": "поимка", "do.color": "цвет", "do.deal": "раздача", "do.endhand": "конец раздачи",
  "do.endgame": "конец игры", "do.jump": "вмешаться",
};

export const CATALOGUE = { en: EN, ru: RU };

function m(key, params = {}) {
  const template = (CATALOGUE[getLang()] || EN)[key] ?? EN[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

function nameOf(names, seat) {
  return names && names[seat] !== undefined ? names[seat] : `#${Number(seat) + 1}`;
}

function cardsText(n) {
  return plural(n);
}

function scoresText(names, scores) {
  return (scores || []).map((score, seat) => `${nameOf(names, seat)} ${score}`).join(", ");
}

/** One game event (its JSON, as this seat sees it) in words; ``names``: the players. */
export function eventText(e, names) {
  const who = nameOf(names, e.seat);
  const list = (cards) => (cards || []).map(cardName).join(", ");
  switch (e.type) {
    case "hand_started": return m("ev.hand_started", { n: e.hand_number, dealer: nameOf(names, e.dealer) });
    case "card_turned": return m("ev.card_turned", { card: cardName(e.card) });
    case "first_card_returned": return m("ev.first_card_returned", { card: cardName(e.card) });
    case "card_played":
      return e.color ? m("ev.card_played.color", { who, card: cardName(e.card), color: colorName(e.color) })
        : m("ev.card_played", { who, card: cardName(e.card) });
    case "cards_drawn": {
      const text = e.cards && e.cards.length ? m("ev.cards_drawn.shown", { who, cards: cardsText(e.count), list: list(e.cards) })
        : m("ev.cards_drawn", { who, cards: cardsText(e.count) });
      return e.reason && e.reason !== "draw" ? `${text} [${m(`ev.why.${e.reason}`)}]` : text;
    }
    case "passed": return m("ev.passed", { who });
    case "color_chosen": return m("ev.color_chosen", { who, color: colorName(e.color) });
    case "color_reverted": return e.color ? m("ev.color_reverted", { color: colorName(e.color) }) : m("ev.color_reverted.none");
    case "skipped": return m("ev.skipped", { who });
    case "direction_changed": return m(e.direction === 1 ? "ev.direction.cw" : "ev.direction.ccw");
    case "draw_pending": return m("ev.draw_pending", { who, n: e.total });
    case "hands_moved": {
      const moves = e.moves || [];
      if (moves.length === 2 && moves[0][0] === moves[1][1] && moves[0][1] === moves[1][0]) {
        return m("ev.hands_swapped", { a: nameOf(names, moves[0][0]), b: nameOf(names, moves[0][1]) });
      }
      return m("ev.hands_moved", { moves: moves.map(([a, b]) => `${nameOf(names, a)} → ${nameOf(names, b)}`).join(", ") });
    }
    case "hands_redealt": return m("ev.hands_redealt");
    case "reseated": return m("ev.reseated", { names: (e.seating || []).map((s) => nameOf(names, s)).join(", ") });
    case "left_hand": return m("ev.left_hand", { names: (e.seats || []).map((s) => nameOf(names, s)).join(m("ev.and")) });
    case "challenged":
      return m(e.guilty ? "ev.challenged.guilty" : "ev.challenged.innocent", { c: nameOf(names, e.challenger), a: nameOf(names, e.accused) });
    case "hand_revealed": {
      const params = { a: nameOf(names, e.seat), b: nameOf(names, e.to), list: list(e.cards) };
      return m(e.cards && e.cards.length ? "ev.hand_revealed" : "ev.hand_revealed.hidden", params);
    }
    case "uno_called": return m("ev.uno_called", { who });
    case "uno_caught": return m("ev.uno_caught", { c: nameOf(names, e.catcher), who });
    case "uno_missed": return m("ev.uno_missed", { who });
    case "catch_failed": return m("ev.catch_failed", { c: nameOf(names, e.catcher), who });
    case "reshuffled": return m("ev.reshuffled", { n: e.count });
    case "hand_ended": {
      const key = e.ended ? "ev.hand_ended.ended" : e.blocked ? "ev.hand_ended.blocked" : "ev.hand_ended";
      return m(key, { who: nameOf(names, e.winner), scores: scoresText(names, e.scores) });
    }
    case "match_ended": return m("ev.match_ended", { who: nameOf(names, e.winner) });
    default: return e.type;
  }
}

/** A notice to the table (protocol.NOTICES) in words. */
export function noticeText(notice) {
  const a = notice.args || {};
  switch (notice.code) {
    case "auto": return m(a.on ? "notice.auto.on" : "notice.auto.off", a);
    case "timed_out": return m(a.auto ? "notice.timed_out.auto" : "notice.timed_out", a);
    case "vote": return m(`notice.vote.${a.kind}`, { name: a.name, waiting: (a.waiting || []).join(", ") });
    case "seat_left": return m(`notice.seat_left.${a.why}`, a) + (a.stand_in ? m("notice.seat_left.standin") : "");
    case "false_uno": return m("notice.false_uno", { name: a.name, cards: cardsText(a.cards) });
    case "unrestorable": return m("notice.unrestorable", a);
    default: return m(`notice.${notice.code}`, a);
  }
}

function whoLine(p) {
  if (p.role === "watcher") return `${p.name}: ${[m("reply.who.watcher"), p.away && m("reply.who.away")].filter(Boolean).join(", ")}`;
  const facts = [m("reply.who.seat", { n: p.seat + 1 })];
  if (p.role === "bot") facts.push(p.stand_in ? m("reply.who.standin", { name: p.name }) : m("reply.who.bot"));
  else facts.push(m("reply.who.player"));
  if (p.auto) facts.push(m("reply.who.auto"));
  if (p.away) facts.push(m("reply.who.away"));
  if (p.host) facts.push(m("reply.who.host"));
  if (p.cards !== null && p.cards !== undefined) facts.push(cardsText(p.cards), m("reply.who.points", { n: p.points }));
  return `${p.name}: ${facts.join(", ")}`;
}

/** A reply to one's own verb (protocol.REPLIES): {text, items} (items: a list to show). */
export function replyText(reply, { verbHelp = {}, rulesText = (r) => String(r) } = {}) {
  const a = reply.args || {};
  switch (reply.code) {
    case "usage": return { text: m(`reply.usage.${a.verb}`) };
    case "unknown_verb": {
      const verbs = (a.verbs || []).map((v) => `/${v}`).join(", ");
      return { text: m(a.suggestion ? "reply.unknown_verb.hint" : "reply.unknown_verb", { verb: a.verb, suggestion: a.suggestion, verbs }) };
    }
    case "uno_nothing": return { text: m("reply.uno_nothing", { cards: cardsText(a.cards) }) };
    case "challenge_nobody": return { text: m("reply.challenge_nobody", { name: a.name, players: (a.players || []).join(", ") }) };
    case "color": {
      const text = a.color ? m("reply.color", { color: colorName(a.color), top: cardName(a.top) }) : m("reply.color.none", { top: cardName(a.top) });
      return { text: a.asked ? `${text}. ${m("reply.color.asked")}` : text };
    }
    case "who": return { text: m("reply.who"), items: (a.people || []).map(whoLine) };
    case "game_info":
      return { text: m("reply.game_info", { table: a.table, rules: rulesText(a.rules) }),
        items: (a.verbs || []).map((v) => `/${v} — ${verbHelp[v] || ""}`) };
    default: return { text: m(`reply.${reply.code}`, a) };
  }
}

/** An error (protocol.ERRORS) in words; an illegal move says why, from the engine's code. */
export function errorText(error, names) {
  const a = { ...(error.args || {}) };
  if (Array.isArray(a.tables)) a.tables = a.tables.join(", ");
  if (typeof a.cards === "number") a.cards = cardsText(a.cards);
  const base = m(`err.${error.code}`, a);
  if (error.code !== "illegal" || !a.reason) return base;
  const why = { ...a };
  for (const key of ["to_act", "target", "seat"]) if (typeof why[key] === "number") why[key] = nameOf(names, why[key]);
  for (const key of ["card", "top"]) if (typeof why[key] === "string") why[key] = cardName(why[key]);
  if (typeof why.color === "string") why.color = colorName(why.color);
  if (typeof why.count === "number") why.count = cardsText(why.count);
  const key = `why.${a.reason}`;
  const known = (CATALOGUE[getLang()] || EN)[key] ?? EN[key];
  if (!known) return base;
  // the move named as people call it: its card, else what it does
  const [kind, card] = String(a.action || "").split(" ");
  const what = kind === "play" && card ? cardName(card) : m(`do.${kind}`);
  return `${what}: ${m(key, why)}`;
}

export { t };
