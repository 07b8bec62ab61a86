"""``una telegram``: the Russian Telegram bot's UNO, played at the room service's tables.

See docs/telegram.md. :mod:`una.telegram.bridge` is the adapter, :mod:`una.telegram.handlers`
the aiogram router, :mod:`una.telegram.runner` long polling and :mod:`una.telegram.webhook`
the webhook behind ``una serve``.
"""
