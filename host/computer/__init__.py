"""The computer opponent: its player at the table, its searches off the loop, its worker process."""
