"""Board commands without a keyboard: the command piece, and the picture of them."""
