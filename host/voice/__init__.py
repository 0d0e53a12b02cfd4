"""What the board says and how: announcements, their words in each language, speech."""
