"""The multiplayer server of ``una serve``: rooms, lobby, chat, persistence."""
